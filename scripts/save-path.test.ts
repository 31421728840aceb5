import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The files a profile save crosses, counted from the app's import graph, and the walks of
 * docs/architecture.md held to it.
 *
 * A save starts at the form (src/profile/ProfileForm.tsx) and goes where its imports go: static
 * ones and `import()` alike, as both run (an `import type` runs nothing). It counts every module of
 * the app so reached (tests aside), except the ones the rest of the app imports too: the client and
 * its credentials, the lookup of words, persistence, shared widgets and stores, which every screen
 * stands on as it stands on React. A module outside the slice that only the profile imports
 * counts: it is the profile's code, wherever it lives.
 */
const ROOT = resolve(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');
const SLICE = 'src/profile/';
const SAVE_STARTS_AT = 'src/profile/ProfileForm.tsx';
const SIGN_IN_STARTS_AT = ['src/features/sign-in/SignInScreen.tsx', 'src/features/sign-in/CallbackScreen.tsx'];
const MAX_FILES = 12;

const isTest = (file: string) => /\.test\.tsx?$|\.test-support\.ts$|^src\/test\//.test(file);

function appModules(dir = SRC): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return appModules(path);
    const file = relative(ROOT, path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') && !isTest(file) ? [file] : [];
  });
}

function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = join(dirname(from), specifier);
  const found = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find(
    (candidate) => existsSync(join(ROOT, candidate)) && statSync(join(ROOT, candidate)).isFile(),
  );
  return found ?? null;
}

/** The app's modules `file` loads when it runs: its imports and re-exports that are not type-only, and its `import()`s. */
function importsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const onlyTypes =
        clause?.isTypeOnly ||
        (clause && !clause.name && bindings && ts.isNamedImports(bindings) && bindings.elements.every((e) => e.isTypeOnly));
      if (!onlyTypes) specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause;
      const onlyTypes = node.isTypeOnly || (clause && ts.isNamedExports(clause) && clause.elements.every((e) => e.isTypeOnly));
      if (!onlyTypes) specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteral(argument)) specifiers.push(argument.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers.map((specifier) => resolveImport(file, specifier)).filter((found): found is string => found !== null);
}

const modules = appModules();
const graph = new Map(modules.map((file) => [file, importsOf(file)]));

function reachedFrom(starts: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...starts];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...(graph.get(file) ?? []));
  }
  return seen;
}

const inSlice = (file: string) => file.startsWith(SLICE);
/** What the page loads, from its entry: a module only the build or the checks import is no user of anything. */
const loaded = reachedFrom(['src/main.tsx']);
/** Modules outside the slice that some other module of the page outside it imports: what the rest of the app uses too. */
const shared = new Set(
  [...graph].filter(([file]) => !inSlice(file) && loaded.has(file)).flatMap(([, imports]) => imports.filter((m) => !inSlice(m))),
);

/** What a save crosses: every module it reaches but the shared ones (see above). */
function saveCrossing(): { counted: string[]; sharedOnTheWay: string[]; reached: Set<string> } {
  const reached = reachedFrom([SAVE_STARTS_AT]);
  const all = [...reached].sort();
  return {
    counted: all.filter((f) => inSlice(f) || !shared.has(f)),
    sharedOnTheWay: all.filter((f) => !inSlice(f) && shared.has(f)),
    reached,
  };
}

/** The `src/` files a walk's table in docs/architecture.md names, the table found under `heading`. */
function walkInDocs(heading: string): string[] {
  const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const start = doc.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`docs/architecture.md has no heading "${heading}"`);
  const rows = doc
    .slice(start + heading.length + 2)
    .split('\n')
    .filter((line, i, lines) => line.startsWith('|') && lines.slice(0, i).every((l) => !l.startsWith('#')));
  return [...new Set(rows.flatMap((row) => [...row.matchAll(/`(src\/[^`]+\.tsx?)`/g)].map((m) => m[1]!)))];
}

describe('a profile save', () => {
  it(`crosses at most ${MAX_FILES} files`, () => {
    const { counted, sharedOnTheWay } = saveCrossing();
    expect(
      counted.length,
      `counted:\n  ${counted.join('\n  ')}\nshared, not counted:\n  ${sharedOnTheWay.join('\n  ')}`,
    ).toBeLessThanOrEqual(MAX_FILES);
  });

  it('is walked in docs/architecture.md file by file: every file it counts, and none off its path', () => {
    const { counted, reached } = saveCrossing();
    const walk = walkInDocs('### A save, file by file');
    expect(walk.filter((file) => !reached.has(file))).toEqual([]);
    expect(counted.filter((file) => !walk.includes(file))).toEqual([]);
  });
});

describe('a sign-in', () => {
  it('is walked in docs/architecture.md with files on its path only', () => {
    const reached = reachedFrom(SIGN_IN_STARTS_AT);
    const walk = walkInDocs('### A sign-in, file by file');
    expect(walk.length).toBeGreaterThan(0);
    expect(walk.filter((file) => !reached.has(file))).toEqual([]);
  });
});

describe('the count itself', () => {
  it('follows import() and leaves out what only types', () => {
    // The form reaches the outbox only through import() in save.ts, and the generated schema only as types.
    const { reached } = saveCrossing();
    expect(reached.has('src/profile/outbox.ts')).toBe(true);
    expect(graph.get('src/profile/save.ts')).toContain('src/profile/outbox.ts');
    expect(reached.has('src/api/schema.d.ts')).toBe(false);
    expect(importsOf('src/profile/conflict-state.ts')).not.toContain('src/profile/requests.ts');
  });

  it('counts a module only the profile uses, wherever it lives, and not one the rest of the app uses too', () => {
    expect(shared.has('src/api/transport.ts')).toBe(false);
    expect(shared.has('src/api/instance.ts')).toBe(true);
    // The list of English's parts imports every part, but the page never loads it: the profile's words stay the profile's.
    expect(graph.get('src/i18n/parts.ts')).toContain('src/i18n/en-profile.ts');
    expect(shared.has('src/i18n/en-profile.ts')).toBe(false);
  });
});
