/** Which operation a request reaches: its method and its concrete path matched with the path templates. */
import type { OperationSpec } from './operations.ts';

export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type PathMatcher = (method: string, pathname: string) => OperationSpec | undefined;

/** Each list of operations' matcher, made once: every request the mock answers is matched, some of them thrice. */
const matchers = new WeakMap<readonly OperationSpec[], PathMatcher>();

function pathMatcher(ops: readonly OperationSpec[]): PathMatcher {
  const templated = (o: OperationSpec) => o.path.match(/\{/g)?.length ?? 0;
  const byMethod = new Map<string, Array<{ op: OperationSpec; pattern: RegExp }>>();
  for (const op of [...ops].sort((a, b) => templated(a) - templated(b))) {
    const pattern = new RegExp(`^${escapeRegExp(op.path).replace(/\\\{[^}]+\\\}/g, '[^/]+')}$`);
    byMethod.set(op.method, [...(byMethod.get(op.method) ?? []), { op, pattern }]);
  }
  return (method, pathname) => byMethod.get(method.toUpperCase())?.find(({ pattern }) => pattern.test(pathname))?.op;
}

/** The operation a concrete path (without the API base path) reaches; literal paths win over templates. */
export function matchOperation(ops: readonly OperationSpec[], method: string, pathname: string): OperationSpec | undefined {
  let match = matchers.get(ops);
  if (!match) {
    match = pathMatcher(ops);
    matchers.set(ops, match);
  }
  return match(method, pathname);
}
