// @vitest-environment node
/**
 * Which operation a request reaches: the operations of the sample document matched with concrete
 * paths.
 */
import { describe, expect, it } from 'vitest';
import { escapeRegExp, matchOperation } from './index.ts';
import { ops } from './sample-document.test-support.ts';

describe('matchOperation', () => {
  it('matches a concrete path, literal paths before templates', () => {
    expect(matchOperation(ops(), 'get', '/things/mine')?.id).toBe('myThing');
    expect(matchOperation(ops(), 'GET', '/things/42')?.id).toBe('getThing');
    expect(matchOperation(ops(), 'delete', '/things/42')?.id).toBe('deleteThing');
    expect(matchOperation(ops(), 'GET', '/things/4/2')).toBeUndefined();
    expect(matchOperation(ops(), 'GET', '/things/')).toBeUndefined();
    expect(matchOperation(ops(), 'GET', '/thingsx')).toBeUndefined();
    expect(matchOperation(ops(), 'POST', '/status')).toBeUndefined();
  });

  it('escapes what regular expressions would read as operators', () => {
    expect(escapeRegExp('a.b*c+d?e^f$g{h}i(j)k|l[m]n\\o')).toBe('a\\.b\\*c\\+d\\?e\\^f\\$g\\{h\\}i\\(j\\)k\\|l\\[m\\]n\\\\o');
  });
});
