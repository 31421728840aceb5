// @vitest-environment node
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { trackedFiles } from './tracked-files.ts';

const dir = mkdtempSync(join(tmpdir(), 'tracked-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tree(root: string) {
  for (const [file, text] of Object.entries({
    'src/a.ts': 'a',
    'src/deep/b.ts': 'b',
    'docs/c.md': 'c',
    'node_modules/x/index.js': 'x',
    'dist/app.js': 'd',
    '.stryker-tmp/sandbox/src/a.ts': 'a',
    'run.log': 'l',
  })) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), text);
  }
}

describe('trackedFiles', () => {
  it("lists a checkout's files as git does", () => {
    const repo = join(dir, 'repo');
    tree(repo);
    execFileSync('git', ['init', '-q'], { cwd: repo });
    writeFileSync(join(repo, '.gitignore'), 'node_modules/\ndist/\n.stryker-tmp/\n*.log\n');
    execFileSync('git', ['add', '.'], { cwd: repo });
    expect(trackedFiles(repo)).toEqual(['.gitignore', 'docs/c.md', 'src/a.ts', 'src/deep/b.ts']);
    expect(trackedFiles(repo, ['src'])).toEqual(['src/a.ts', 'src/deep/b.ts']);
  });

  it("lists a copy's files from the disk, without the tools' output, where git lists nothing (a sandbox in an ignored folder)", () => {
    const repo = join(dir, 'repo');
    const sandbox = join(repo, '.stryker-tmp', 'copy');
    cpSync(join(repo, 'src'), join(sandbox, 'src'), { recursive: true });
    cpSync(join(repo, 'docs'), join(sandbox, 'docs'), { recursive: true });
    mkdirSync(join(sandbox, 'node_modules', 'y'), { recursive: true });
    writeFileSync(join(sandbox, 'node_modules', 'y', 'i.js'), 'y');
    expect(trackedFiles(sandbox)).toEqual(['docs/c.md', 'src/a.ts', 'src/deep/b.ts']);
    expect(trackedFiles(sandbox, ['src/'])).toEqual(['src/a.ts', 'src/deep/b.ts']);
  });
});
