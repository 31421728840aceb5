// @vitest-environment node
/**
 * The mutation pragmas of the code Stryker mutates (stryker.config.json) each carry their reason in
 * their own line, and nothing else there talks about the tool: how the pragmas work is
 * docs/testing.md's (Mutation testing).
 */
import { trackedFiles } from './tracked-files.ts';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const PRODUCTS = ['src', 'mock-api', 'server', 'oidc', 'openapi-kit'];
const TEST = /\.(test|test-support|typecheck)\.tsx?$/;
const MUTATORS = '[A-Za-z]+(?:,[A-Za-z]+)*';
/** Words of a line about the tool rather than the code. */
const TOOL = /stryker|mutant|mutation|next-line|restore below/i;
/** A disable with its reason after the colon, or a restore of a range. */
const PRAGMA = new RegExp(`^\\s*// Stryker (?:disable (?:next-line )?${MUTATORS}: \\S.*|restore ${MUTATORS})$`);

function strayMentions(files: readonly string[], read: (file: string) => string): string[] {
  const stray: string[] = [];
  for (const file of files) {
    read(file)
      .split('\n')
      .forEach((line, i) => {
        if (TOOL.test(line) && !PRAGMA.test(line)) stray.push(`${file}:${i + 1} ${line.trim()}`);
      });
  }
  return stray;
}

describe('mutation pragmas in the mutated code', () => {
  it('each say why in their own line, and no other line speaks of the tool', () => {
    const files = trackedFiles(ROOT, PRODUCTS).filter((file) => /\.(ts|tsx)$/.test(file) && !TEST.test(file));
    expect(strayMentions(files, (file) => readFileSync(resolve(ROOT, file), 'utf8'))).toEqual([]);
  });

  it('a pragma without its reason, or a paragraph about the tool, is told', () => {
    const sources: Record<string, string> = {
      'a.ts': [
        '// Stryker disable next-line StringLiteral: the header is read case-insensitively',
        '// Stryker disable next-line StringLiteral',
        '// A range up to the restore below: a next-line pragma before `} finally {` attaches to no node.',
        '// Stryker disable BlockStatement: nothing reads it afterwards',
        '// Stryker restore BlockStatement',
      ].join('\n'),
    };
    expect(strayMentions(['a.ts'], (file) => sources[file]!)).toEqual([
      'a.ts:2 // Stryker disable next-line StringLiteral',
      'a.ts:3 // A range up to the restore below: a next-line pragma before `} finally {` attaches to no node.',
    ]);
  });
});
