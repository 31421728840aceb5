import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type FetchLike, progressFetch, type TransferEvent } from './transport';

/** The browser's XMLHttpRequest as the transport drives it: what it was asked, and a way to answer. */
class FakeXhr {
  static made: FakeXhr[] = [];
  opened: [string, string, boolean] | null = null;
  responseType = '';
  withCredentials = false;
  headers: Record<string, string> = {};
  sent: unknown = 'nothing';
  aborts = 0;
  finished = false;
  status = 0;
  statusText = '';
  response: ArrayBuffer | null = null;
  rawHeaders = '';
  upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
  onprogress: ((e: ProgressEvent) => void) | null = null;
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;

  constructor() {
    FakeXhr.made.push(this);
  }
  open(method: string, url: string, async: boolean) {
    this.opened = [method, url, async];
  }
  setRequestHeader(key: string, value: string) {
    this.headers[key] = value;
  }
  send(body: unknown) {
    this.sent = body;
  }
  // As in browsers: aborting a finished request fires nothing.
  abort() {
    this.aborts++;
    if (this.finished) return;
    this.finished = true;
    this.onabort?.();
  }
  getAllResponseHeaders() {
    return this.rawHeaders;
  }
  respond(status: number, body: string | null, rawHeaders = '', statusText = '') {
    this.status = status;
    this.statusText = statusText;
    this.response = body === null ? new ArrayBuffer(0) : (new TextEncoder().encode(body).buffer as ArrayBuffer);
    this.rawHeaders = rawHeaders;
    this.finished = true;
    this.onload?.();
  }
}

const progress = (loaded: number, total: number, lengthComputable = true) => ({ loaded, total, lengthComputable }) as ProgressEvent;

/** The request made once the transport has read the body (it reads it before opening the request). */
async function made(): Promise<FakeXhr> {
  await vi.waitFor(() => expect(FakeXhr.made).toHaveLength(1));
  const [xhr] = FakeXhr.made;
  if (!xhr) throw new Error('No request was made');
  return xhr;
}

describe('in a browser', () => {
  let events: TransferEvent[];
  let transport: FetchLike;

  beforeEach(() => {
    FakeXhr.made = [];
    events = [];
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    transport = progressFetch((event) => events.push(event));
  });

  it('sends the method, address, headers and body asynchronously, reporting each step', async () => {
    const pending = transport(
      new Request('https://api.example/profiles/7', {
        method: 'PUT',
        body: '{"name":"Ada"}',
        headers: { 'content-type': 'application/json', 'if-match': '"v1"' },
      }),
    );
    const xhr = await made();
    expect(xhr.opened).toEqual(['PUT', 'https://api.example/profiles/7', true]);
    expect(xhr.responseType).toBe('arraybuffer');
    expect(xhr.withCredentials).toBe(false);
    expect(xhr.headers).toEqual({ 'content-type': 'application/json', 'if-match': '"v1"' });
    expect(await (xhr.sent as Blob).text()).toBe('{"name":"Ada"}');
    expect(events).toEqual([{ type: 'sent' }]);

    xhr.upload.onprogress?.(progress(7, 14));
    xhr.onprogress?.(progress(3, 0, false));
    xhr.respond(200, '{"id":"7"}', 'content-type: application/json\r\netag: "v2"\r\n', 'OK');
    const response = await pending;

    expect(events).toEqual([{ type: 'sent' }, { type: 'upload', loaded: 7, total: 14 }, { type: 'download', loaded: 3, total: 0 }]);
    expect(response.status).toBe(200);
    expect(response.statusText).toBe('OK');
    expect(await response.json()).toEqual({ id: '7' });
  });

  it('reads every response header, ignoring lines that are none', async () => {
    const pending = transport(new Request('https://api.example/profiles'));
    const xhr = await made();
    xhr.respond(200, '[]', 'etag: "v2"\r\ngarbage\r\n: nameless\r\nx-spaced : yes\r\nlink: <a:b>; rel="next"\r\n\r\n');
    const response = await pending;
    expect(Object.fromEntries(response.headers)).toEqual({ etag: '"v2"', link: '<a:b>; rel="next"', 'x-spaced': 'yes' });
  });

  it.each(['GET', 'HEAD'])('sends no body with %s', async (method) => {
    void transport(new Request('https://api.example/profiles', { method }));
    const xhr = await made();
    expect(xhr.opened?.[0]).toBe(method);
    expect(xhr.sent).toBeNull();
  });

  it('sends cookies only to a request that includes them', async () => {
    void transport(new Request('https://api.example/profiles', { credentials: 'include' }));
    expect((await made()).withCredentials).toBe(true);
  });

  it.each([204, 304])('answers %i with no body', async (status) => {
    const pending = transport(new Request('https://api.example/profiles/7', { method: 'DELETE' }));
    const xhr = await made();
    xhr.respond(status, null);
    const response = await pending;
    expect(response.status).toBe(status);
    expect(response.body).toBeNull();
  });

  it('fails like fetch when the network does, or the request times out', async () => {
    const failed = transport(new Request('https://api.example/profiles'));
    (await made()).onerror?.();
    await expect(failed).rejects.toThrow(new TypeError('Network request failed'));

    FakeXhr.made = [];
    const timedOut = transport(new Request('https://api.example/profiles'));
    (await made()).ontimeout?.();
    await expect(timedOut).rejects.toThrow(TypeError);
  });

  it('cancels the request when its signal is aborted, as an AbortError', async () => {
    const controller = new AbortController();
    const pending = transport(new Request('https://api.example/profiles', { signal: controller.signal }));
    const xhr = await made();
    controller.abort();
    const failure = await pending.catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DOMException);
    expect(failure).toMatchObject({ name: 'AbortError', message: 'The request was cancelled' });
    expect(xhr.aborts).toBe(1);
  });

  it('makes no request at all when the signal was aborted before', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(transport(new Request('https://api.example/profiles', { signal: controller.signal }))).rejects.toMatchObject({
      name: 'AbortError',
      message: 'The request was cancelled',
    });
    expect(FakeXhr.made).toEqual([]);
    expect(events).toEqual([]);
  });

  it.each([
    ['answered', (xhr: FakeXhr) => xhr.respond(200, '{}')],
    ['failed', (xhr: FakeXhr) => xhr.onerror?.()],
    ['cancelled by the browser', (xhr: FakeXhr) => xhr.abort()],
  ])('leaves a request that %s alone when its signal is aborted later', async (_, end) => {
    const controller = new AbortController();
    const pending = transport(new Request('https://api.example/profiles', { signal: controller.signal })).catch(() => undefined);
    const xhr = await made();
    end(xhr);
    await pending;
    const before = xhr.aborts;
    controller.abort();
    expect(xhr.aborts).toBe(before);
  });
});

describe('without XMLHttpRequest', () => {
  beforeEach(() => {
    vi.stubGlobal('XMLHttpRequest', undefined);
  });

  it('sends a request without a body as it is', async () => {
    const events: TransferEvent[] = [];
    const base = vi.fn<FetchLike>(async () => new Response('[]', { headers: { 'content-length': '2' } }));
    const response = await progressFetch((event) => events.push(event), base)(new Request('https://api.example/profiles'));
    const [[sent]] = base.mock.calls as [[Request]];
    expect(sent.method).toBe('GET');
    expect(sent.body).toBeNull();
    expect(await response.text()).toBe('[]');
    expect(events).toEqual([{ type: 'sent' }, { type: 'download', loaded: 2, total: 2 }]);
  });

  it('hands back an answer without a body as it is', async () => {
    const answer = new Response(null, { status: 204 });
    const response = await progressFetch(
      () => undefined,
      async () => answer,
    )(new Request('https://api.example/profiles/7', { method: 'DELETE' }));
    expect(response).toBe(answer);
  });
});
