// @vitest-environment node
/**
 * No comment and no document names a file or folder the repository does not have: a moved file's
 * old path, left in a comment, fails here with the file and line that name it.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commentsOf, missingPaths, pathsIn, resolves, treeOf } from './named-paths.ts';

const ROOT = resolve(import.meta.dirname, '..');
const TREE = treeOf(['src/profile/store.ts', 'src/profile/index.ts', 'docs/architecture.md', 'verify/peers/run.ts', 'README.md']);

describe('the paths comments and documents name', () => {
  it('all exist', () => {
    expect(missingPaths(ROOT).map(({ file, line, path }) => `${file}:${line} ${path}`)).toEqual([]);
    // Every source file parsed: seconds on a busy machine.
  }, 60_000);
});

describe('what counts as a named path', () => {
  it('a path with folders, a folder, a file name alone; not an address, a package or a placeholder', () => {
    const text = [
      'the read in src/profile/store.ts, its entry (./index.ts) and outbox.ts; see verify/peers/',
      'https://example.com/a/b.ts, @preact/signals-react, vite/client, src/features/<name>/, $VERIFY_TOKEN',
    ].join('\n');
    expect(pathsIn(text, 10)).toEqual([
      { line: 10, path: 'src/profile/store.ts' },
      { line: 10, path: './index.ts' },
      { line: 10, path: 'outbox.ts' },
      { line: 10, path: 'verify/peers/' },
    ]);
  });

  it('is found in comments, not in code or strings', () => {
    const source = [
      '// see state/profile.ts',
      "const file = 'state/other.ts', pattern = /a\\/b/;",
      // A template with a placeholder (its opening brace escaped here, so that this is no template).
      'const text = `$\u{7B}file} // not.ts`;',
      '/**',
      ' * and profile-outbox.ts',
      ' */',
      'function f() {',
      '  return 1;',
      '  // at the end of a block: read.ts',
      '}',
    ].join('\n');
    expect(commentsOf('a.ts', source).flatMap((c) => pathsIn(c.text, c.line))).toEqual([
      { line: 1, path: 'state/profile.ts' },
      { line: 5, path: 'profile-outbox.ts' },
      { line: 9, path: 'read.ts' },
    ]);
  });

  it('resolves from the naming file, from the root, or from a folder below it; what a build writes is no miss', () => {
    expect(resolves('./index.ts', 'src/profile/store.ts', TREE)).toBe(true);
    expect(resolves('profile/store.ts', 'src/boot.tsx', TREE)).toBe(true);
    expect(resolves('../verify/peers/', 'docs/architecture.md', TREE)).toBe(true);
    expect(resolves('dist/index.html', 'README.md', TREE)).toBe(true);
    expect(resolves('state/profile.ts', 'src/boot.tsx', TREE)).toBe(false);
    expect(resolves('profile-outbox.ts', 'src/boot.tsx', TREE)).toBe(false);
    expect(resolves('./read.ts', 'src/profile/store.ts', TREE)).toBe(false);
  });
});
