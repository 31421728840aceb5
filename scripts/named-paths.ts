/**
 * The repository's paths that comments and documents name (`src/state/profile.ts`, `outbox.ts`,
 * `verify/peers/`), and the ones of them that do not exist: a moved or deleted file leaves no
 * stale pointer behind. Comments are read with TypeScript's scanner, documents whole.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import ts from 'typescript';

const EXTENSIONS = 'ts|tsx|mts|mjs|js|json|jsonc|md|yaml|yml|css|html|svg|png|webp|sh';
/** A path with a folder (`a/b.ts`, `./a/b/`), or a file name alone (`b.ts`). */
const PATH = new RegExp(
  String.raw`(?<![\w@/.:%$*<>{}-])((?:\.{1,2}/)*(?:[\w.-]+/)+(?:[\w-]+(?:\.[\w-]+)*\.(?:${EXTENSIONS})|[\w.-]*/)|[\w-]+(?:\.[\w-]+)*\.(?:${EXTENSIONS}))(?![\w/<>*{}-])`,
  'g',
);
/**
 * What a build, a run or an install writes (the prerendered pages among them), and the files the
 * documents make up for an example: named, never in the repository.
 */
const WRITTEN =
  /^(\.\/)?((dist|dist-docs|reports|\.cache|test-results|node_modules|lighthouse\/reports|\.vite|contact-sheet)\/|[\w-]+\.html$|bench\/results\.json$)/;
const EXAMPLES = new Set(['fixtures.json', 'flaky.json', 'bench/example.ts']);
const CODE = /\.(ts|tsx|mts|mjs|js|jsonc)$/;

export interface NamedPath {
  file: string;
  line: number;
  path: string;
}

/** The comments of a source file, each with the line it starts on. */
export function commentsOf(file: string, text: string): { line: number; text: string }[] {
  const scanner = ts.createScanner(
    ts.ScriptTarget.Latest,
    false,
    file.endsWith('x') ? ts.LanguageVariant.JSX : ts.LanguageVariant.Standard,
    text,
  );
  const comments: { line: number; text: string }[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia) {
      comments.push({ line: text.slice(0, scanner.getTokenStart()).split('\n').length, text: scanner.getTokenText() });
    }
  }
  return comments;
}

/** The paths a piece of text names, each with its line (counted from `firstLine`). */
export function pathsIn(text: string, firstLine = 1): { line: number; path: string }[] {
  const found: { line: number; path: string }[] = [];
  text.split('\n').forEach((line, i) => {
    // An address names a place elsewhere, not a file of this repository.
    const local = line.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S*/gi, ' ');
    for (const m of local.matchAll(PATH)) found.push({ line: firstLine + i, path: m[1]! });
  });
  return found;
}

/** Whether `path`, named in `file`, is a file or folder of the repository. */
export function resolves(path: string, file: string, files: readonly string[]): boolean {
  if (WRITTEN.test(path) || EXAMPLES.has(path)) return true;
  const folder = path.endsWith('/');
  const entries = folder
    ? new Set(
        files.flatMap((f) =>
          f
            .split('/')
            .slice(0, -1)
            .map((_, i, parts) => `${parts.slice(0, i + 1).join('/')}/`),
        ),
      )
    : new Set(files);
  const clean = posix.normalize(path);
  const here = posix.normalize(posix.join(posix.dirname(file), path)).replace(/\/?$/, folder ? '/' : '');
  if (entries.has(here) || entries.has(clean.replace(/^\.\//, ''))) return true;
  if (path.startsWith('.')) return false;
  // Named from a folder below the root (`state/profile/index.ts` in src/), or by its name alone.
  const tail = `/${clean}`;
  for (const entry of entries) if (`/${entry}`.endsWith(tail)) return true;
  return false;
}

/** Every path the comments of the code and the documents name that is not in the repository. */
export function missingPaths(root: string): NamedPath[] {
  const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).trim().split('\n');
  const missing: NamedPath[] = [];
  for (const file of files) {
    if (!CODE.test(file) && !file.endsWith('.md')) continue;
    if (file === 'src/api/schema.d.ts') continue;
    const text = readFileSync(posix.join(root, file), 'utf8');
    const named = file.endsWith('.md') ? pathsIn(text) : commentsOf(file, text).flatMap((c) => pathsIn(c.text, c.line));
    for (const { line, path } of named) if (!resolves(path, file, files)) missing.push({ file, line, path });
  }
  return missing;
}
