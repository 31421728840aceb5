// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { OpenApiSpec } from '../openapi-kit/index.ts';
import { parsePrefer, parseScenario, pickRule, type ScenarioRule } from './scenario.ts';
import { loadSpec } from '../openapi-kit/node.ts';

const spec = new OpenApiSpec(loadSpec());
const refusal = (value: unknown) => {
  try {
    parseScenario(value, spec, 'scenario.json');
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('accepted');
};

describe('the Prefer header, read as Prism reads it', () => {
  it('takes code, example and delay, comma-separated, the first of each winning, unknown ones ignored', () => {
    expect(parsePrefer('code=404')).toEqual({ preferences: { code: 404 } });
    expect(parsePrefer('code=400, example=mismatch')).toEqual({ preferences: { code: 400, example: 'mismatch' } });
    expect(parsePrefer('example="my example"; lang=en,delay=2000,code=200,code=500')).toEqual({
      preferences: { example: 'my example', delay: 2000, code: 200 },
    });
    expect(parsePrefer('dynamic=true, return=minimal')).toEqual({ preferences: {} });
    expect(parsePrefer(null)).toEqual({ preferences: {} });
  });

  it('reads tokens in any case, and a delay of up to thirty seconds', () => {
    expect(parsePrefer('Code=404, EXAMPLE=missing, Delay=30000')).toEqual({
      preferences: { code: 404, example: 'missing', delay: 30_000 },
    });
    expect(parsePrefer('delay=30001')).toEqual({
      problem: "Prefer: delay must be a whole number of milliseconds up to 30000, not '30001'",
    });
  });

  it('refuses a code that is not three digits and a delay that is not whole milliseconds', () => {
    expect(parsePrefer('code=abc')).toEqual({ problem: "Prefer: code must be a three-digit status, not 'abc'" });
    expect(parsePrefer('code=4040')).toHaveProperty('problem');
    expect(parsePrefer('delay=1.5')).toHaveProperty('problem');
    expect(parsePrefer('delay=9999999')).toHaveProperty('problem');
  });

  it('refuses a header past 200 characters unread (its maxLength), and reads one of 200', () => {
    const padding = (n: number) => `code=404,${' '.repeat(n - 9)}`;
    expect(padding(200)).toHaveLength(200);
    expect(parsePrefer(padding(200))).toEqual({ preferences: { code: 404 } });
    expect(parsePrefer(','.repeat(15_000))).toEqual({ problem: 'Prefer is at most 200 characters long, not 15000' });
    expect(parsePrefer(padding(201))).toEqual({ problem: 'Prefer is at most 200 characters long, not 201' });
  });
});

describe('the Prefer header, written loosely', () => {
  it('keeps commas and quotes inside a quoted example name', () => {
    expect(parsePrefer('example="a,b", code=404')).toEqual({ preferences: { example: 'a,b', code: 404 } });
    expect(parsePrefer('delay=10, example="my example", code=404')).toEqual({
      preferences: { delay: 10, example: 'my example', code: 404 },
    });
    expect(parsePrefer('code=500, example="x", delay=5')).toEqual({ preferences: { code: 500, example: 'x', delay: 5 } });
  });

  it('takes spaces around a token and its value, and strips only the quotes around the whole value', () => {
    expect(parsePrefer(' code = 404 , example = "two words" ')).toEqual({ preferences: { code: 404, example: 'two words' } });
    expect(parsePrefer('example=a"b"')).toEqual({ preferences: { example: 'a"b"' } });
    expect(parsePrefer('example="a"b')).toEqual({ preferences: { example: '"a"b' } });
  });

  it('reads a token without a value as an empty value', () => {
    expect(parsePrefer('code')).toEqual({ problem: "Prefer: code must be a three-digit status, not ''" });
    expect(parsePrefer('delay; x=1')).toEqual({
      problem: "Prefer: delay must be a whole number of milliseconds up to 30000, not ''",
    });
    expect(parsePrefer('example, code=404')).toEqual({ preferences: { example: '', code: 404 } });
  });

  it('ignores a preference with no token before its =, and empty ones between commas', () => {
    expect(parsePrefer('=404, , code=201')).toEqual({ preferences: { code: 201 } });
  });
});

describe('a scenario file', () => {
  it('reads rules by operationId, one or a list, rate 1 when none is given', () => {
    expect(
      parseScenario(
        {
          listAccounts: { status: 503, rate: 0.5 },
          getAccount: { delay: 1500 },
          createAccount: [
            { fault: 'drop', rate: 0.1 },
            { fault: 'invalid-json', rate: 0.2 },
          ],
        },
        spec,
        'scenario.json',
      ),
    ).toEqual({
      listAccounts: [{ status: 503, rate: 0.5 }],
      getAccount: [{ delay: 1500, rate: 1 }],
      createAccount: [
        { fault: 'drop', rate: 0.1 },
        { fault: 'invalid-json', rate: 0.2 },
      ],
    });
  });

  it('refuses, in one line naming the file and the place, what it cannot carry out', () => {
    expect(refusal({ listAcounts: { status: 503 } })).toBe(
      "scenario.json: 'listAcounts' is no operationId of openapi.yaml (did you mean 'listAccounts'?)",
    );
    expect(refusal({ listAccounts: { status: 503, rate: 2 } })).toBe(
      'scenario.json: listAccounts: rate must be a number above 0 and at most 1, not 2',
    );
    expect(refusal({ listAccounts: { fault: 'explode' } })).toBe(
      'scenario.json: listAccounts: fault must be one of drop, invalid-json, not "explode"',
    );
    expect(refusal({ listAccounts: [{ delay: 10 }, { status: 201 }] })).toMatch(
      /^scenario\.json: listAccounts\[1\]: status must be one listAccounts documents \(200, 400\) or an error status/,
    );
    expect(refusal({ listAccounts: { rate: 0.5 } })).toBe('scenario.json: listAccounts: a rule needs a status, a delay or a fault');
    expect(refusal({ listAccounts: { status: 500, fault: 'drop' } })).toBe(
      'scenario.json: listAccounts: a rule has a status or a fault, not both',
    );
    expect(refusal({ listAccounts: { status: 500, code: 1 } })).toBe(
      "scenario.json: listAccounts: unknown field 'code' (a rule has status, delay, fault, rate)",
    );
    expect(
      refusal({
        listAccounts: [
          { status: 500, rate: 0.7 },
          { delay: 5, rate: 0.7 },
        ],
      }),
    ).toBe('scenario.json: listAccounts: the rates add up to 1.4, more than 1');
    expect(refusal([])).toMatch(/^scenario\.json: a scenario is an object of rules by operationId/);
    expect(refusal({ listAccounts: 503 })).toBe(
      'scenario.json: listAccounts: a rule must be an object such as { "status": 503, "rate": 0.5 }',
    );
    expect(refusal({ listAccounts: [{ delay: 1 }, null] })).toBe(
      'scenario.json: listAccounts[1]: a rule must be an object such as { "status": 503, "rate": 0.5 }',
    );
  });

  it('takes rates that add up to 1 but for the rounding of decimals, up to a billionth over', () => {
    const rules = (...rates: number[]) => ({ listAccounts: rates.map((rate) => ({ status: 503, rate })) });
    expect(parseScenario(rules(0.1, 0.2, 0.7), spec, 'scenario.json').listAccounts).toHaveLength(3);
    expect(parseScenario(rules(1, 1e-9), spec, 'scenario.json').listAccounts).toEqual([
      { status: 503, rate: 1 },
      { status: 503, rate: 1e-9 },
    ]);
    expect(refusal(rules(1, 2e-9))).toBe('scenario.json: listAccounts: the rates add up to 1.000000002, more than 1');
  });

  it('refuses a delay that is no whole number of milliseconds up to thirty seconds', () => {
    for (const delay of [-1, 1.5, 30_001, '5']) {
      expect(refusal({ getAccount: { delay } })).toBe(
        `scenario.json: getAccount: delay must be a whole number of milliseconds from 0 to 30000, not ${JSON.stringify(delay)}`,
      );
    }
    expect(
      parseScenario(
        {
          getAccount: [
            { delay: 0, rate: 0.5 },
            { delay: 30_000, rate: 0.5 },
          ],
        },
        spec,
        'scenario.json',
      ),
    ).toEqual({
      getAccount: [
        { delay: 0, rate: 0.5 },
        { delay: 30_000, rate: 0.5 },
      ],
    });
  });

  it('takes a status the operation documents or any error status, and a rate above 0 up to 1', () => {
    expect(parseScenario({ getAccount: { status: 400 } }, spec, 'scenario.json')).toEqual({ getAccount: [{ status: 400, rate: 1 }] });
    expect(parseScenario({ getAccount: { status: 599, rate: 1 } }, spec, 'scenario.json')).toEqual({
      getAccount: [{ status: 599, rate: 1 }],
    });
    expect(parseScenario({ getAccount: { status: 200 } }, spec, 'scenario.json')).toEqual({ getAccount: [{ status: 200, rate: 1 }] });
    for (const status of [399, 600, 404.5, '503']) {
      expect(refusal({ getAccount: { status } })).toBe(
        `scenario.json: getAccount: status must be one getAccount documents (200, 404) or an error status from 400 to 599, not ${JSON.stringify(status)}`,
      );
    }
    expect(refusal({ getAccount: { status: 500, rate: 0 } })).toBe(
      'scenario.json: getAccount: rate must be a number above 0 and at most 1, not 0',
    );
  });

  it('lets a rule hold a status or a fault together with a delay', () => {
    expect(parseScenario({ getAccount: { status: 503, delay: 200, rate: 0.5 } }, spec, 'scenario.json')).toEqual({
      getAccount: [{ status: 503, delay: 200, rate: 0.5 }],
    });
    expect(parseScenario({ getAccount: { fault: 'drop', delay: 0 } }, spec, 'scenario.json')).toEqual({
      getAccount: [{ fault: 'drop', delay: 0, rate: 1 }],
    });
  });

  it('refuses a rate, a status or a fault of the wrong type, quoting it as JSON', () => {
    expect(refusal({ getAccount: { status: 500, rate: '0.5' } })).toBe(
      'scenario.json: getAccount: rate must be a number above 0 and at most 1, not "0.5"',
    );
    expect(refusal({ getAccount: { status: 500, rate: null } })).toBe(
      'scenario.json: getAccount: rate must be a number above 0 and at most 1, not null',
    );
    expect(refusal({ getAccount: { status: 500, rate: 1.0001 } })).toBe(
      'scenario.json: getAccount: rate must be a number above 0 and at most 1, not 1.0001',
    );
    expect(refusal({ getAccount: { status: null } })).toBe(
      'scenario.json: getAccount: status must be one getAccount documents (200, 404) or an error status from 400 to 599, not null',
    );
    expect(refusal({ getAccount: { fault: ['drop'] } })).toBe(
      'scenario.json: getAccount: fault must be one of drop, invalid-json, not ["drop"]',
    );
    expect(refusal({ getAccount: { delay: null } })).toBe(
      'scenario.json: getAccount: delay must be a whole number of milliseconds from 0 to 30000, not null',
    );
  });

  it('suggests an operationId one changed, missing or added letter away', () => {
    expect(refusal({ getAccuont: { status: 503 } })).toBe(
      "scenario.json: 'getAccuont' is no operationId of openapi.yaml (did you mean 'getAccount'?)",
    );
    expect(refusal({ deleteSymbl: { status: 503 } })).toBe(
      "scenario.json: 'deleteSymbl' is no operationId of openapi.yaml (did you mean 'deleteSymbol'?)",
    );
    expect(refusal({ runCommands: { status: 503 } })).toBe(
      "scenario.json: 'runCommands' is no operationId of openapi.yaml (did you mean 'runCommand'?)",
    );
  });

  it('lets rates add up to 1 despite rounding', () => {
    // 0.33 + 0.56 + 0.11 is 1.0000000000000002 in floating point.
    const rules = [
      { status: 500, rate: 0.33 },
      { status: 503, rate: 0.56 },
      { delay: 10, rate: 0.11 },
    ];
    expect(parseScenario({ getAccount: rules }, spec, 'scenario.json')).toEqual({ getAccount: rules });
  });

  it('suggests the closest operationId up to three edits away', () => {
    expect(refusal({ listAccountsXYZ: { status: 503 } })).toBe(
      "scenario.json: 'listAccountsXYZ' is no operationId of openapi.yaml (did you mean 'listAccounts'?)",
    );
  });

  it('suggests no operationId four edits away, counting the last letter', () => {
    expect(refusal({ listAccountsWXYZ: { status: 503 } })).toBe("scenario.json: 'listAccountsWXYZ' is no operationId of openapi.yaml");
  });

  it('suggests no operationId when none is close to the one given', () => {
    expect(refusal({ somethingElseEntirely: { status: 503 } })).toBe(
      "scenario.json: 'somethingElseEntirely' is no operationId of openapi.yaml",
    );
  });

  it('draws with Math.random when given no draw', () => {
    const always: ScenarioRule = { status: 503, rate: 1 };
    for (let i = 0; i < 20; i++) expect(pickRule([always])).toBe(always);
    expect(pickRule([])).toBeUndefined();
  });

  it('gives each rule its share of the requests, in order, and none to the rest', () => {
    const rules: ScenarioRule[] = [
      { status: 500, rate: 0.25 },
      { delay: 10, rate: 0.25 },
    ];
    expect(pickRule(rules, () => 0)).toBe(rules[0]);
    expect(pickRule(rules, () => 0.2499)).toBe(rules[0]);
    expect(pickRule(rules, () => 0.25)).toBe(rules[1]);
    expect(pickRule(rules, () => 0.5)).toBeUndefined();
    expect(pickRule([rules[0]!, { delay: 10, rate: 0.75 }], () => 0.9999)).toEqual({ delay: 10, rate: 0.75 });
    let n = 0;
    const counts = [0, 0, 0];
    const draws = () => (n++ % 100) / 100;
    for (let i = 0; i < 1000; i++) {
      const rule = pickRule(rules, draws);
      counts[rule ? rules.indexOf(rule) : 2]! += 1;
    }
    expect(counts).toEqual([250, 250, 500]);
  });
});
