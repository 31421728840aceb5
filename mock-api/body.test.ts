// @vitest-environment node
/**
 * Reading request bodies: what a client that sends the wrong thing is answered (415, 413, 400 with
 * the error body and its message), and that a body within the rules is read as sent.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { formatBytes, mediaType, readForm, readJson, withMarksKept } from './body.ts';
import { OpenApiSpec } from '../openapi-kit/index.ts';
import { loadSpec } from '../openapi-kit/node.ts';

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request('http://mock.test/api/x', { method: 'POST', body, headers });

/** The error answer a read throws, as the client receives it. */
async function refusal(reading: Promise<unknown>): Promise<{ status: number; type: string | null; body: unknown }> {
  const thrown = await reading.then(
    () => {
      throw new Error('the body was accepted');
    },
    (error: unknown) => error,
  );
  if (!(thrown instanceof Response)) throw thrown;
  return { status: thrown.status, type: thrown.headers.get('content-type'), body: await thrown.json() };
}

describe('mediaType', () => {
  it('is the Content-Type without parameters, trimmed and in lower case', () => {
    expect(mediaType(post('{}', { 'content-type': ' Application/JSON ; charset=utf-8' }))).toBe('application/json');
    expect(mediaType(post('x', { 'content-type': 'multipart/form-data; boundary=abc' }))).toBe('multipart/form-data');
  });

  it('is empty without a Content-Type', () => {
    expect(mediaType(new Request('http://mock.test/', { method: 'POST' }))).toBe('');
  });
});

describe('formatBytes', () => {
  it('says KB below a megabyte and MB from one', () => {
    expect(formatBytes(64 * 1024)).toBe('64 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(1024 * 1024 - 1024)).toBe('1023 KB');
    expect(formatBytes(1024 * 1024)).toBe('1 MB');
    expect(formatBytes(2 * 1024 * 1024)).toBe('2 MB');
  });
});

describe('readJson', () => {
  const json = (body: BodyInit, headers: Record<string, string> = {}) => post(body, { 'content-type': 'application/json', ...headers });

  it('reads a JSON body within the limit, whatever its charset parameter', async () => {
    expect(await readJson(json('{"name":"Zoë"}'), 1024)).toEqual({ name: 'Zoë' });
    expect(await readJson(json('[1,2]', { 'content-type': 'Application/Json; charset=utf-8' }), 1024)).toEqual([1, 2]);
  });

  it('reads a body of exactly the limit, declared or not', async () => {
    const body = `"${'a'.repeat(8)}"`;
    expect(await readJson(json(body, { 'content-length': '10' }), 10)).toBe('aaaaaaaa');
    expect(await readJson(json(body), 10)).toBe('aaaaaaaa');
  });

  it('answers 415 to a body that is not JSON', async () => {
    expect(await refusal(readJson(post('{}', { 'content-type': 'text/plain' }), 1024))).toEqual({
      status: 415,
      type: 'application/json',
      body: { status: 415, error: 'Unsupported Media Type', message: 'The body must be JSON (Content-Type: application/json)' },
    });
    expect((await refusal(readJson(post('{}', { 'content-type': 'application/jsonx' }), 1024))).status).toBe(415);
  });

  it('answers 413 to a body declared larger than the limit, before reading it', async () => {
    expect(await refusal(readJson(json('{}', { 'content-length': '65537' }), 64 * 1024))).toEqual({
      status: 413,
      type: 'application/json',
      body: { status: 413, error: 'Payload Too Large', message: 'A JSON body must be at most 64 KB' },
    });
  });

  it('answers 413 to a body larger than the limit that did not say so', async () => {
    expect(await refusal(readJson(json(`"${'a'.repeat(9)}"`), 10))).toEqual({
      status: 413,
      type: 'application/json',
      body: { status: 413, error: 'Payload Too Large', message: 'A JSON body must be at most 0.009765625 KB' },
    });
  });

  it('answers 400 to malformed JSON and to bytes that are not UTF-8', async () => {
    const bad = {
      status: 400,
      type: 'application/json',
      body: { status: 400, error: 'Bad Request', message: 'The body is not valid JSON' },
    };
    expect(await refusal(readJson(json('{"a":'), 1024))).toEqual(bad);
    expect(await refusal(readJson(json(new Uint8Array([0x22, 0xff, 0x22])), 1024))).toEqual(bad);
  });
});

describe('readForm', () => {
  const multipart = (fields: Record<string, string>) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    return new Request('http://mock.test/api/x', { method: 'POST', body: form });
  };

  it('reads a multipart body within the limit', async () => {
    const form = await readForm(multipart({ displayName: 'Ada', bio: 'x' }), 64 * 1024);
    expect([...form.entries()]).toEqual([
      ['displayName', 'Ada'],
      ['bio', 'x'],
    ]);
  });

  it('keeps every character of a text field, a byte order mark at its start too, and files as sent', async () => {
    // Node 22's own parser drops such a mark: a name of two characters would be read as one.
    const form = new FormData();
    form.append('displayName', '\uFEFF😀');
    form.append('avatar', new File([new Uint8Array([0xef, 0xbb, 0xbf, 0x89, 0x50])], 'a.png', { type: 'image/png' }));
    form.append('bio', 'a\uFEFFb');
    form.append('username', '\uFEFF');
    form.append('email', 'ada@example.com');
    form.append('language', '\uFEFF\uFEFFen');
    const read = await readForm(new Request('http://mock.test/api/x', { method: 'POST', body: form }), 64 * 1024);
    const entries = await Promise.all(
      [...read.entries()].map(async ([name, value]) => [
        name,
        typeof value === 'string' ? value : [...new Uint8Array(await value.arrayBuffer())],
      ]),
    );
    expect(entries).toEqual([
      ['displayName', '\uFEFF😀'],
      ['avatar', [0xef, 0xbb, 0xbf, 0x89, 0x50]],
      ['bio', 'a\uFEFFb'],
      ['username', '\uFEFF'],
      ['email', 'ada@example.com'],
      ['language', '\uFEFF\uFEFFen'],
    ]);
    expect((read.get('avatar') as File).name).toBe('a.png');
  });

  it('puts back the marks a parser dropped, field by field, and adds none', async () => {
    const sent = new FormData();
    sent.append('displayName', '\uFEFFAda');
    sent.append('avatar', new File([new Uint8Array([0xef, 0xbb, 0xbf])], 'a.png', { type: 'image/png' }));
    sent.append('bio', '\uFEFF');
    sent.append('username', 'ada');
    sent.append('email', '\uFEFFada@example.com');
    sent.append('language', '\uFEFF\uFEFFen');
    const request = new Request('http://mock.test/api/x', { method: 'POST', body: sent });
    const contentType = request.headers.get('content-type')!;
    const buffer = await request.arrayBuffer();
    // As Node 22 reads it: each mark that starts a text field is gone; this one was kept.
    const parsed = new FormData();
    parsed.append('displayName', 'Ada');
    parsed.append('avatar', sent.get('avatar')!);
    parsed.append('bio', '');
    parsed.append('username', 'ada');
    parsed.append('email', '\uFEFFada@example.com');
    parsed.append('language', 'en');
    const kept = withMarksKept(parsed, buffer, contentType);
    expect([...kept.entries()].map(([name, value]) => [name, typeof value === 'string' ? value : 'file'])).toEqual([
      ['displayName', '\uFEFFAda'],
      ['avatar', 'file'],
      ['bio', '\uFEFF'],
      ['username', 'ada'],
      ['email', '\uFEFFada@example.com'],
      ['language', '\uFEFF\uFEFFen'],
    ]);
    // A body without such a mark, or with a quoted boundary, is taken as parsed.
    const unmarked = new FormData();
    unmarked.append('displayName', 'Ada\uFEFF');
    const plain = new Request('http://mock.test/api/x', { method: 'POST', body: unmarked });
    expect(withMarksKept(unmarked, await plain.arrayBuffer(), plain.headers.get('content-type')!)).toBe(unmarked);
    const quoted = contentType.replace(/boundary=(.+)$/, 'boundary="$1"');
    expect(withMarksKept(parsed, buffer, quoted).get('displayName')).toBe('\uFEFFAda');
    expect(withMarksKept(parsed, buffer, 'multipart/form-data')).toBe(parsed);
  });

  it('gives a field as sent only when marks alone are missing from its start, and never turns a file into text', () => {
    const body = (boundary: string, parts: Array<[string, string]>) =>
      new TextEncoder().encode(
        `${parts.map(([head, value]) => `--${boundary}\r\nContent-Disposition: form-data; ${head}\r\n\r\n${value}\r\n`).join('')}--${boundary}--\r\n`,
      ).buffer as ArrayBuffer;
    const read = (form: FormData) => [...form].map(([name, value]) => [name, typeof value === 'string' ? value : `file ${value.name}`]);
    const parsed = new FormData();
    for (const name of ['a', 'b', 'c', 'd']) parsed.append(name, 'x--ay');
    parsed.append('e', new File(['[object File]'], 'e.txt'));
    parsed.append('f', 'xy');
    const sent = body('ab', [
      ['name="a"', '\uFEFFx--ay'],
      ['name="b"', 'z\uFEFFx--ay'],
      ['name="c"', '\uFEFFzx--ay'],
      ['name="d"', '\uFEFF\uFEFFx--ay'],
      ['name="e"; filename="e.txt"', '\uFEFF[object File]'],
      // Not what the parser read: marks and as many characters again, which are no missing marks.
      ['name="f"', '\uFEFFab'],
    ]);
    const expected = [
      ['a', '\uFEFFx--ay'],
      ['b', 'x--ay'],
      ['c', 'x--ay'],
      ['d', '\uFEFF\uFEFFx--ay'],
      ['e', 'file e.txt'],
      ['f', 'xy'],
    ];
    // A boundary of two letters that a value holds in part, written with or without a space or quotes.
    for (const contentType of [
      'multipart/form-data; boundary=ab',
      'multipart/form-data;boundary=ab',
      'multipart/form-data;  boundary="ab"',
    ]) {
      expect(read(withMarksKept(parsed, sent, contentType)), contentType).toEqual(expected);
    }
  });

  it('answers 413 to a form larger than the limit, declared or not', async () => {
    const tooLarge = {
      status: 413,
      type: 'application/json',
      body: { status: 413, error: 'Payload Too Large', message: 'A form body must be at most 2 MB' },
    };
    const declared = post('x', { 'content-length': String(2 * 1024 * 1024 + 1), 'content-type': 'multipart/form-data; boundary=b' });
    expect(await refusal(readForm(declared, 2 * 1024 * 1024))).toEqual(tooLarge);
    expect((await refusal(readForm(multipart({ bio: 'x'.repeat(2000) }), 1024))).body).toEqual({
      status: 413,
      error: 'Payload Too Large',
      message: 'A form body must be at most 1 KB',
    });
  });

  it('answers 400 to a body that is not multipart', async () => {
    expect(await refusal(readForm(post('name=Ada', { 'content-type': 'multipart/form-data; boundary=zzz' }), 1024))).toEqual({
      status: 400,
      type: 'application/json',
      body: { status: 400, error: 'Bad Request', message: 'The body is not valid multipart/form-data' },
    });
  });
});

describe('MAX_AVATAR_BYTES', () => {
  // The constant is computed as body.ts loads, so the test loads it afresh. What it imports is
  // loaded afresh here, outside the test, so that no other module's load counts as this test's.
  beforeAll(async () => {
    vi.resetModules();
    await import('./errors.ts');
  });

  it('is the 2 MB openapi.yaml allows for an avatar', async () => {
    const { MAX_AVATAR_BYTES } = await import('./body.ts');
    expect(formatBytes(MAX_AVATAR_BYTES)).toBe('2 MB');
    const avatars = new OpenApiSpec(loadSpec()).operations.flatMap((op) =>
      Object.values(op.body?.content ?? {}).flatMap((m) => (m.fileFields.includes('avatar') ? [m.maxFileBytes.avatar] : [])),
    );
    expect(avatars).toEqual([MAX_AVATAR_BYTES, MAX_AVATAR_BYTES]);
  });
});
