/**
 * A fetch that reports transfer progress and honours AbortSignal, for openapi-fetch's `fetch`
 * option. fetch() cannot report upload progress, so browsers go through XMLHttpRequest; where
 * there is none (Node), the body is streamed through a counter instead.
 */
import type { ProgressListener } from './progress';
export type { TransferEvent, ProgressListener } from './progress';

export type FetchLike = (request: Request) => Promise<Response>;

function abortError(): DOMException {
  return new DOMException('The request was cancelled', 'AbortError');
}

function parseHeaders(raw: string): Headers {
  const headers = new Headers();
  // Stryker disable next-line Regex,MethodExpression: the empty lines a single-break split or an untrimmed end leave have no colon, and are skipped below
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const at = line.indexOf(':');
    if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return headers;
}

async function xhrFetch(request: Request, onProgress: ProgressListener): Promise<Response> {
  if (request.signal.aborted) throw abortError();
  const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.blob();
  return new Promise<Response>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(request.method, request.url, true);
    xhr.responseType = 'arraybuffer';
    xhr.withCredentials = request.credentials === 'include';
    request.headers.forEach((value, key) => {
      xhr.setRequestHeader(key, value);
    });
    const onAbort = () => xhr.abort();
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: a signal aborts once, and done() removes the listener whichever way the request ends
    request.signal.addEventListener('abort', onAbort, { once: true });
    const done = () => request.signal.removeEventListener('abort', onAbort);
    xhr.upload.onprogress = (e) => onProgress({ type: 'upload', loaded: e.loaded, total: e.lengthComputable ? e.total : 0 });
    xhr.onprogress = (e) => onProgress({ type: 'download', loaded: e.loaded, total: e.lengthComputable ? e.total : 0 });
    xhr.onload = () => {
      done();
      const nullBody = xhr.status === 204 || xhr.status === 304;
      resolve(
        new Response(nullBody ? null : (xhr.response as ArrayBuffer), {
          status: xhr.status,
          statusText: xhr.statusText,
          headers: parseHeaders(xhr.getAllResponseHeaders()),
        }),
      );
    };
    xhr.onerror = () => {
      done();
      reject(new TypeError('Network request failed'));
    };
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => {
      done();
      reject(abortError());
    };
    onProgress({ type: 'sent' });
    xhr.send(body);
  });
}

/** Counts bytes as a stream is read, reporting each step. */
function counted(stream: ReadableStream<Uint8Array>, total: number, report: (loaded: number, total: number) => void) {
  let loaded = 0;
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        loaded += chunk.byteLength;
        report(loaded, total);
        controller.enqueue(chunk);
      },
    }),
  );
}

async function streamFetch(request: Request, onProgress: ProgressListener, base: FetchLike): Promise<Response> {
  let upload: Request = request;
  if (request.body) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    const total = bytes.byteLength;
    const CHUNK = 16 * 1024;
    let offset = 0;
    // Pulled one chunk at a time (no read-ahead), so a chunk counts once the request takes it.
    const source = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (offset >= total) {
            controller.close();
            return;
          }
          const chunk = bytes.subarray(offset, offset + CHUNK);
          offset += chunk.byteLength;
          controller.enqueue(chunk);
          onProgress({ type: 'upload', loaded: offset, total });
        },
      },
      { highWaterMark: 0 },
    );
    const headers = new Headers(request.headers);
    headers.set('content-length', String(total));
    upload = new Request(request.url, {
      method: request.method,
      headers,
      signal: request.signal,
      body: source,
      duplex: 'half',
    } as RequestInit & { duplex: 'half' });
  }
  onProgress({ type: 'sent' });
  // A listener may cancel at 'sent'. fetch() would still pull the body before it notices (Node 24's
  // undici reads the stream first), and each pull reports upload progress for bytes never sent.
  if (request.signal.aborted) throw abortError();
  const response = await base(upload);
  if (!response.body) return response;
  const total = Number(response.headers.get('content-length') ?? 0);
  const body = counted(response.body, total, (loaded) => onProgress({ type: 'download', loaded, total }));
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** A fetch for openapi-fetch that reports every transfer event to `onProgress`. */
export function progressFetch(onProgress: ProgressListener, base: FetchLike = (r) => fetch(r)): FetchLike {
  return (request) => (typeof XMLHttpRequest === 'function' ? xhrFetch(request, onProgress) : streamFetch(request, onProgress, base));
}
