// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createJournal, redactPath, type Exchange } from './journal.ts';

const exchange = (n: number): Exchange => ({
  method: 'GET',
  path: `/api/symbols/${n}`,
  status: 200,
  time: '2026-11-23T10:00:00.000Z',
  duration: n,
});

describe('the journal of GET /__mock/requests', () => {
  it('keeps the last `size` exchanges, newest first', () => {
    const journal = createJournal(2);
    expect(journal.size).toBe(2);
    expect(journal.entries()).toEqual([]);
    for (const n of [1, 2, 3]) journal.record(exchange(n));
    expect(journal.entries()).toEqual([exchange(3), exchange(2)]);
  });

  it('hands out a copy: what a caller does with it changes nothing kept', () => {
    const journal = createJournal(3);
    journal.record(exchange(1));
    journal.entries().pop();
    expect(journal.entries()).toEqual([exchange(1)]);
  });

  it('clear() forgets every exchange, and recording starts again from nothing', () => {
    const journal = createJournal(3);
    journal.record(exchange(1));
    journal.record(exchange(2));
    journal.clear();
    expect(journal.entries()).toEqual([]);
    journal.record(exchange(3));
    expect(journal.entries()).toEqual([exchange(3)]);
  });
});

describe('credentials in a query', () => {
  it('are kept out of the journal: their values are redacted, everything else is listed as requested', () => {
    const journal = createJournal(3);
    journal.record({ ...exchange(1), path: '/api/symbols?access_token=eyJ.x.y&code=MSFT' });
    expect(journal.entries()[0]?.path).toBe('/api/symbols?access_token=REDACTED&code=REDACTED');
  });

  it('each name, in any case or %-encoding; a name without a value, other names and the path stay', () => {
    expect(
      redactPath(
        '/api/x/code?refresh_token=r&ID_TOKEN_HINT=h&id_token=i&client_secret=s&token=t&code_verifier=v&password=p&Access%5Ftoken=a&code&name=ada&tokens=1',
      ),
    ).toBe(
      '/api/x/code?refresh_token=REDACTED&ID_TOKEN_HINT=REDACTED&id_token=REDACTED&client_secret=REDACTED&token=REDACTED&code_verifier=REDACTED&password=REDACTED&Access%5Ftoken=REDACTED&code&name=ada&tokens=REDACTED',
    );
    expect(
      redactPath(
        '/api/s?access_token[]=a&access_token[0]=b&JWT=c&authToken=d&x-auth=e&PHPSESSID=f&bearer=g&my_secret=h&apiKey=i&api-key=j&passwd=k&credentials=l&connect.sid=n&code[]=m&page=2&sort=name&side=left',
      ),
    ).toBe(
      '/api/s?access_token[]=REDACTED&access_token[0]=REDACTED&JWT=REDACTED&authToken=REDACTED&x-auth=REDACTED&PHPSESSID=REDACTED&bearer=REDACTED&my_secret=REDACTED&apiKey=REDACTED&api-key=REDACTED&passwd=REDACTED&credentials=REDACTED&connect.sid=REDACTED&code[]=REDACTED&page=2&sort=name&side=left',
    );
    expect(redactPath('/api/symbols')).toBe('/api/symbols');
    expect(redactPath('/api/symbols?')).toBe('/api/symbols?');
    expect(redactPath('/api/s?%E0%A4%A=1&token=2')).toBe('/api/s?%E0%A4%A=1&token=REDACTED');
    expect(redactPath('/api/s?token=2#code=3')).toBe('/api/s?token=REDACTED#code=3');
  });

  it("keeps a name the operation reached documents as its own query parameter (the symbols' filter code)", () => {
    expect(redactPath('/api/symbols?code=MSFT&token=t', new Set(['code']))).toBe('/api/symbols?code=MSFT&token=REDACTED');
    const journal = createJournal(3, (method, pathname) => new Set(method === 'GET' && pathname === '/api/symbols' ? ['code'] : []));
    journal.record({ ...exchange(1), path: '/api/symbols?code=MSFT' });
    journal.record({ ...exchange(2), path: '/api/accounts?code=abc' });
    expect(journal.entries().map((e) => e.path)).toEqual(['/api/accounts?code=REDACTED', '/api/symbols?code=MSFT']);
  });
});
