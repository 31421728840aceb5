/** A generated request as it goes on the wire: its URL, headers and body bytes, and the record of what was sent. */
import { isRecord, textOf, withKey, type MediaSpec, type OperationSpec } from '../openapi-kit/index.ts';
import { makePng } from '../openapi-kit/node.ts';
import { isFile, percentEncode, type FilePart, type Body, type GeneratedRequest } from './generated-request.ts';

export interface Endpoints {
  /** `prism proxy … <server>/api`: the API paths, without /api. */
  proxy: string;
  /** `prism proxy … <server>`: for operations at the origin's root. */
  rootProxy: string;
  /** The Node mock server's origin. */
  server: string;
  /** Headers each request of `op` carries besides its own (see Bases.headers). */
  headers?: (op: OperationSpec) => Record<string, string>;
}

export interface Built {
  url: string;
  init: RequestInit;
  /** The path as the contract writes it (no base path), after the URL's normalisation. */
  contractPath: string;
  /** Bytes of the body, for the record. */
  bodyBytes: number;
  /** The body as sent, for the record. */
  sent: SentBody;
}

const SMALL_IMAGES: readonly FilePart[] = [
  { file: 'png', type: 'image/png', filename: 'a.png' },
  { file: 'jpeg', type: 'image/jpeg', filename: 'a.jpg' },
  { file: 'webp', type: 'image/webp', filename: 'a.webp' },
];

/** Small files whose content is what they declare, of the types a file field accepts (a PNG when none is stated). */
export function goodFiles(media: MediaSpec, field: string): FilePart[] {
  const accepted = media.fileTypes[field] ?? [];
  const fitting = SMALL_IMAGES.filter((f) => accepted.includes(f.type));
  return fitting.length > 0 ? fitting : [SMALL_IMAGES[0]!];
}

let pngCache: Uint8Array<ArrayBuffer> | undefined;

/** The bytes of a generated file. */
export function fileBytes(part: FilePart): Uint8Array<ArrayBuffer> {
  pngCache ??= makePng(8);
  switch (part.file) {
    case 'png':
      return pngCache;
    case 'jpeg':
      return Uint8Array.from([
        0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9,
      ]);
    case 'webp':
      return Uint8Array.from(
        [...'RIFF']
          .map((c) => c.charCodeAt(0))
          .concat(
            [0x1a, 0, 0, 0],
            [...'WEBPVP8L'].map((c) => c.charCodeAt(0)),
            [0x0d, 0, 0, 0, 0x2f, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07, 0],
          ),
      );
    case 'svg':
      return new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>');
    case 'garbage':
      return new TextEncoder().encode('this is not an image at all');
    case 'empty':
      return new Uint8Array(0);
    case 'png-big': {
      const big = new Uint8Array(part.bytes ?? 0);
      big.set(pngCache.subarray(0, Math.min(8, big.length)));
      return big;
    }
    case 'altered': {
      const bytes = fileBytes({ ...part, file: part.from ?? 'png' }).slice();
      const at = part.at ?? 0;
      bytes[at] = (bytes[at] ?? 0) ^ 0xff;
      return bytes;
    }
  }
}

/** The body as sent: with the URL's id put in when the body asks for it. */
export function effectiveBody(r: GeneratedRequest, existing: string): Body {
  const b = r.body;
  if (b.kind !== 'json' || !b.idFromPath || !isRecord(b.value)) return b;
  const v = r.path.id ?? { kind: 'existing' };
  return { ...b, value: withKey(b.value, 'id', v.kind === 'existing' ? existing : textOf(v.value)) };
}

export function resolvePath(op: OperationSpec, r: GeneratedRequest, existing: string): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = r.path[name] ?? { kind: 'existing' };
    if (v.kind === 'existing') return percentEncode(existing);
    return v.encode ? percentEncode(textOf(v.value)) : textOf(v.value);
  });
}

export function build(op: OperationSpec, r: GeneratedRequest, endpoints: Endpoints, existing: string): Built {
  const bases =
    r.via === 'proxy' ? { api: endpoints.proxy, root: endpoints.rootProxy } : { api: `${endpoints.server}/api`, root: endpoints.server };
  return buildAt(op, r, endpoints.headers ? { ...bases, headers: endpoints.headers } : bases, existing);
}

/** Where a request goes: the API base URL (the document's `servers` URL, resolved) and the origin's root. */
export interface Bases {
  api: string;
  root: string;
  /** Headers a request of `op` carries besides its own, e.g. the credentials of a secured operation. */
  headers?: (op: OperationSpec) => Record<string, string>;
}

/**
 * The header parameters an operation requires, each with a value that never refuses the request
 * by itself: If-Match `*` (whatever the resource's current tag is). Generated requests vary the
 * body, path and query; what their headers must be is not what they test.
 */
function requiredHeaders(op: OperationSpec): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of op.params) if (p.in === 'header' && p.required && p.name.toLowerCase() === 'if-match') out[p.name] = '*';
  return out;
}

/** A request as sent, for the record (e.g. a curl line). */
export type SentBody =
  | { kind: 'none' }
  | { kind: 'bytes'; bytes: Uint8Array; chunked: boolean }
  | {
      kind: 'form';
      parts: Array<{ name: string; value: string } | { name: string; file: Uint8Array; type: string; filename: string }>;
      chunked: boolean;
    };

/** Builds a generated request for the bases given: the URL, the fetch init, and what the contract sees of it. */
export function buildAt(op: OperationSpec, r: GeneratedRequest, bases: Bases, existing: string): Built {
  const base = (op.root ? bases.root : bases.api).replace(/\/$/, '');
  let search = '';
  if (r.query.kind === 'raw') search = `?${r.query.text}`;
  else if (r.query.entries.length > 0) search = `?${new URLSearchParams(r.query.entries.map(([k, v]) => [k, textOf(v)])).toString()}`;
  const url = base + resolvePath(op, r, existing) + search;
  const headers = new Headers({ ...requiredHeaders(op), ...bases.headers?.(op) });
  let body: BodyInit | undefined;
  let bodyBytes = 0;
  let sent: SentBody = { kind: 'none' };
  const chunked = r.chunked === true;
  const b = effectiveBody(r, existing);
  switch (b.kind) {
    case 'none':
      break;
    case 'json': {
      const text = JSON.stringify(b.value) + ' '.repeat(b.padding ?? 0);
      headers.set('content-type', b.contentType);
      const bytes = new TextEncoder().encode(text);
      body = bytes;
      bodyBytes = bytes.byteLength;
      sent = { kind: 'bytes', bytes, chunked };
      break;
    }
    case 'text': {
      const bytes = new TextEncoder().encode(textOf(b.text));
      if (b.contentType !== null) headers.set('content-type', b.contentType);
      body = bytes;
      bodyBytes = bytes.byteLength;
      sent = { kind: 'bytes', bytes, chunked };
      break;
    }
    case 'bytes': {
      if (b.contentType !== null) headers.set('content-type', b.contentType);
      const bytes = Uint8Array.from(b.bytes);
      body = bytes;
      bodyBytes = b.bytes.length;
      sent = { kind: 'bytes', bytes, chunked };
      break;
    }
    case 'form': {
      const form = new FormData();
      const parts: Extract<SentBody, { kind: 'form' }>['parts'] = [];
      for (const [name, value] of b.fields) {
        if (isFile(value)) {
          const bytes = fileBytes(value);
          bodyBytes += bytes.byteLength;
          form.append(name, new Blob([bytes], { type: value.type }), value.filename);
          parts.push({ name, file: bytes, type: value.type, filename: value.filename });
        } else {
          const text = textOf(value);
          bodyBytes += Buffer.byteLength(text);
          form.append(name, text);
          parts.push({ name, value: text });
        }
      }
      body = form;
      sent = { kind: 'form', parts, chunked };
      break;
    }
  }
  let init: RequestInit = { method: r.method, headers, body, redirect: 'manual' };
  if (r.chunked && body !== undefined) {
    // A stream has no length: Node's fetch sends it chunked (and needs `duplex`, which the DOM types lack).
    const carrier = new Response(body, { headers });
    const type = carrier.headers.get('content-type');
    if (type !== null) headers.set('content-type', type);
    init = { ...init, headers, body: carrier.body, duplex: 'half' } as RequestInit;
  }
  const pathname = new URL(url).pathname;
  const prefix = new URL(base).pathname.replace(/\/$/, '');
  const contractPath = prefix && pathname.startsWith(prefix) ? pathname.slice(prefix.length) : prefix ? '' : pathname;
  return { url, init, contractPath, bodyBytes, sent };
}
