import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { posix } from 'node:path';

/** What a copy of the repository holds besides its own files: tools' output and installs. */
const NOT_OURS = new Set([
  '.git',
  'node_modules',
  'dist',
  'dist-docs',
  'test-results',
  'playwright-report',
  'reports',
  '.cache',
  '.stryker-tmp',
  'contact-sheet',
]);

/** The files under `dir` (relative to `root`), skipping tools' output. */
function walk(root: string, dir = ''): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(posix.join(root, dir), { withFileTypes: true })) {
    if (NOT_OURS.has(entry.name)) continue;
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...walk(root, path));
    else if (entry.isFile() && !entry.name.endsWith('.log')) files.push(path);
  }
  return files;
}

/**
 * The repository's files under `paths` (all by default), as `git ls-files` lists them. A copy that
 * is no checkout of its own (Stryker's sandbox sits in an ignored folder of one, where git lists
 * nothing) gets its files from the disk instead, without the tools' output.
 */
export function trackedFiles(root: string, paths: readonly string[] = []): string[] {
  let listed: string[] = [];
  try {
    listed = execFileSync('git', ['ls-files', ...paths], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\n')
      .filter(Boolean);
  } catch {
    // Not a git checkout at all.
  }
  if (listed.length > 0) return listed;
  const all = walk(root).sort();
  return paths.length === 0 ? all : all.filter((file) => paths.some((p) => file === p || file.startsWith(`${p.replace(/\/$/, '')}/`)));
}
