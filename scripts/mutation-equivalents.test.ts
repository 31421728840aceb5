// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { explainSurvivors, loadEquivalents } from './mutation-equivalents.mjs';

const source = ['export function pick(a: number) {', '  const cache = new Map();', '  return a > 0 ? a : 0;', '}'].join('\n');

const mutant = (id: string, status: string, mutatorName: string, replacement: string, line: number, from: number, to: number) => ({
  id,
  status,
  mutatorName,
  replacement,
  location: { start: { line, column: from }, end: { line, column: to } },
});

const report = {
  'src/pick.ts': {
    source,
    mutants: [
      mutant('1', 'Survived', 'ConditionalExpression', 'true', 3, 10, 15),
      mutant('2', 'Killed', 'ConditionalExpression', 'false', 3, 10, 15),
      mutant('3', 'Survived', 'NewExpression', 'new Map(undefined)', 2, 17, 26),
      mutant('4', 'NoCoverage', 'EqualityOperator', 'a >= 0', 3, 10, 15),
    ],
  },
};

const entry = {
  file: 'src/pick.ts',
  mutator: 'ConditionalExpression',
  code: 'a >  0',
  replacement: 'true',
  reason: 'a negative a returns 0 either way in this example',
};
const listFile = (equivalents: unknown) => ({ name: 'mutation-equivalents/x.json', text: JSON.stringify({ equivalents }) });

describe('loadEquivalents', () => {
  it('takes well-formed entries and names where each came from', () => {
    const { entries, errors } = loadEquivalents([listFile([entry])]);
    expect(errors).toEqual([]);
    expect(entries).toEqual([{ ...entry, source: 'mutation-equivalents/x.json equivalents[0]' }]);
  });

  it('refuses a file that is not JSON, or has no list, naming the file', () => {
    const { entries, errors } = loadEquivalents([
      { name: 'a.json', text: '{ nope' },
      { name: 'b.json', text: '{"equivalent": []}' },
    ]);
    expect(entries).toEqual([]);
    expect(errors[0]).toMatch(/^a\.json: not JSON \(/);
    expect(errors[1]).toBe('b.json: expected an object with an "equivalents" array');
  });

  it('refuses an entry without its fields, with an empty code, a token reason or a line that is not a number', () => {
    const { entries, errors } = loadEquivalents([
      listFile([
        null,
        { ...entry, reason: undefined, file: 3 },
        { ...entry, code: '  ' },
        { ...entry, reason: 'same' },
        { ...entry, line: '3' },
        entry,
      ]),
    ]);
    expect(errors).toEqual([
      'mutation-equivalents/x.json equivalents[0]: expected an object',
      'mutation-equivalents/x.json equivalents[1]: needs a string "file", "reason"',
      'mutation-equivalents/x.json equivalents[2]: "code" is empty; name a piece of the code the mutant replaces',
      'mutation-equivalents/x.json equivalents[3]: "reason" must say why no test can observe the change',
      'mutation-equivalents/x.json equivalents[4]: "line" must be a whole number',
    ]);
    expect(entries.map((e) => e.source)).toEqual(['mutation-equivalents/x.json equivalents[5]']);
  });
});

describe('explainSurvivors', () => {
  it('explains a survivor whose file, mutator, replacement and code match, whatever the spacing', () => {
    const { entries } = loadEquivalents([listFile([entry])]);
    const { explained, unexplained, stale } = explainSurvivors(report, entries);
    expect(explained).toEqual([
      expect.objectContaining({
        file: 'src/pick.ts',
        line: 3,
        column: 10,
        mutator: 'ConditionalExpression',
        original: 'a > 0',
        reason: entry.reason,
      }),
    ]);
    expect(unexplained.map((s) => [s.original, s.status])).toEqual([
      ['new Map()', 'Survived'],
      ['a > 0', 'NoCoverage'],
    ]);
    expect(stale).toEqual([]);
  });

  it('does not explain a survivor when the mutator, the replacement or the file differ', () => {
    for (const other of [{ mutator: 'EqualityOperator' }, { replacement: 'false' }, { file: 'src/other.ts' }, { code: 'a < 0' }]) {
      const { entries } = loadEquivalents([listFile([{ ...entry, ...other }])]);
      expect(explainSurvivors(report, entries).explained).toEqual([]);
    }
  });

  it('calls an entry stale when its file was judged and nothing it names survived', () => {
    const { entries } = loadEquivalents([
      listFile([
        { ...entry, replacement: 'false' },
        { ...entry, file: 'src/not-run.ts' },
      ]),
    ]);
    const { stale } = explainSurvivors(report, entries);
    expect(stale.map((e) => e.replacement)).toEqual(['false']);
  });

  it('takes code that quotes the line around a short original, so one of two alike mutants is named', () => {
    const twoZeros = { 'src/pick.ts': { source, mutants: [mutant('6', 'Survived', 'ConditionalExpression', 'true', 3, 10, 15)] } };
    const around = (code: string) => loadEquivalents([listFile([{ ...entry, code }])]).entries;
    expect(explainSurvivors(twoZeros, around('return a > 0 ?')).explained).toHaveLength(1);
    // Quoting the line counts only when the quote holds the whole original.
    expect(explainSurvivors(twoZeros, around('return a')).explained).toEqual([]);
    expect(explainSurvivors(twoZeros, around('const cache = new Map(); return a > 0')).explained).toEqual([]);
  });

  it('reads a mutant that spans lines', () => {
    const spanning = mutant('5', 'Survived', 'BlockStatement', '{}', 1, 34, 2);
    spanning.location.end = { line: 4, column: 2 };
    const block = { 'src/pick.ts': { source, mutants: [spanning] } };
    const { entries } = loadEquivalents([
      listFile([{ ...entry, mutator: 'BlockStatement', replacement: '{}', code: 'const cache = new Map(); return' }]),
    ]);
    expect(explainSurvivors(block, entries).explained).toHaveLength(1);
  });
});
