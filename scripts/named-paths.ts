/**
 * The repository's paths that comments and documents name (a file with its folders, a folder, or a
 * file by its name alone), and the ones of them that do not exist: a moved or deleted file leaves
 * no stale pointer behind. Comments are read with TypeScript's parser, documents whole.
 */
import { trackedFiles } from './tracked-files.ts';
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import ts from 'typescript';

const EXTENSIONS = 'ts|tsx|mts|mjs|js|json|jsonc|md|yaml|yml|css|html|svg|png|webp|sh';
/** A path with folders (relative or not, a file's or a folder's with its trailing slash), or a file name alone. */
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

const KINDS: Record<string, ts.ScriptKind> = {
  tsx: ts.ScriptKind.TSX,
  mjs: ts.ScriptKind.JS,
  js: ts.ScriptKind.JS,
  jsonc: ts.ScriptKind.JSON,
};

/**
 * The comments of a source file, each with the line it starts on: the trivia at every node's start
 * and end (a comment before a closing brace is the trivia after the last statement).
 */
export function commentsOf(file: string, text: string): { line: number; text: string }[] {
  const kind = KINDS[file.slice(file.lastIndexOf('.') + 1)] ?? ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const starts = new Set<number>();
  const comments: { line: number; text: string }[] = [];
  const take = (at: number) => {
    for (const { pos, end } of ts.getLeadingCommentRanges(text, at) ?? []) {
      if (starts.has(pos)) continue;
      starts.add(pos);
      comments.push({ line: source.getLineAndCharacterOfPosition(pos).line + 1, text: text.slice(pos, end) });
    }
  };
  const visit = (node: ts.Node) => {
    take(node.pos);
    take(node.end);
    ts.forEachChild(node, visit);
  };
  take(0);
  ts.forEachChild(source, visit);
  return comments.sort((a, b) => a.line - b.line);
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

/** The repository's files and folders (a folder with its trailing slash), and every tail of their paths. */
export interface Tree {
  paths: ReadonlySet<string>;
  tails: ReadonlySet<string>;
}

export function treeOf(files: readonly string[]): Tree {
  const paths = new Set<string>();
  for (const file of files) {
    const parts = file.split('/');
    paths.add(file);
    for (let i = 1; i < parts.length; i++) paths.add(`${parts.slice(0, i).join('/')}/`);
  }
  const tails = new Set<string>();
  for (const path of paths) {
    const parts = path.split('/');
    for (let i = 0; i < parts.length; i++) tails.add(parts.slice(i).join('/'));
  }
  return { paths, tails };
}

/** Whether `path`, named in `file`, is a file or folder of the repository. */
export function resolves(path: string, file: string, tree: Tree): boolean {
  if (WRITTEN.test(path) || EXAMPLES.has(path)) return true;
  const folder = path.endsWith('/');
  const here = posix.normalize(posix.join(posix.dirname(file), path)).replace(/\/?$/, folder ? '/' : '');
  if (tree.paths.has(here) || tree.paths.has(posix.normalize(path).replace(/^\.\//, ''))) return true;
  // Named from a folder below the root (a path inside src/ without its src/), or by its name alone.
  return !path.startsWith('.') && tree.tails.has(posix.normalize(path));
}

/** Every path the comments of the code and the documents name that is not in the repository. */
export function missingPaths(root: string): NamedPath[] {
  const files = trackedFiles(root);
  const tree = treeOf(files);
  const missing: NamedPath[] = [];
  for (const file of files) {
    if (!CODE.test(file) && !file.endsWith('.md')) continue;
    if (file === 'src/api/schema.d.ts') continue;
    const text = readFileSync(posix.join(root, file), 'utf8');
    const named = file.endsWith('.md') ? pathsIn(text) : commentsOf(file, text).flatMap((c) => pathsIn(c.text, c.line));
    for (const { line, path } of named) if (!resolves(path, file, tree)) missing.push({ file, line, path });
  }
  return missing;
}
