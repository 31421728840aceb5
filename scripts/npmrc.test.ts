// @vitest-environment node
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

describe('npm in this project', () => {
  // On Node 20 (past end of life) each dependency that asks for a newer Node printed its EBADENGINE
  // warning on `npm install`: over three hundred lines before the project's own Node took over.
  it('prints errors only, as .npmrc says, so an install on an older Node is not buried in warnings', () => {
    const loglevel = execFileSync('npm', ['config', 'get', 'loglevel'], { cwd: ROOT, encoding: 'utf8' }).trim();
    expect(loglevel).toBe('error');
  });
});
