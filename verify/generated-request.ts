/**
 * A request generated from an OpenAPI document (./request-generator.ts makes them): its path values,
 * query, body and files, and the channel it goes by. Two channels, for the contract test that throws
 * them at the mock (contract-tests/generated-input.test.ts):
 * - `proxy`: `prism proxy openapi.yaml <server>/api --errors` in front of the Node mock.
 * - `direct`: the Node mock itself. A share of the requests goes this way to reach the mock's own
 *   defences, which Prism shields; so does everything Prism (5.16) cannot carry (see mustGoDirect):
 *   - binary bodies: the proxy re-encodes them as UTF-8;
 *   - a body that is not JSON under a JSON content type: Prism never answers it;
 *   - a path segment with a malformed %-escape, a malformed multipart body, a multipart field name
 *     with `;` or `=`, JSON nested thousands deep: each one kills the Prism process;
 *   - multipart values with `%`: Prism %-decodes them before validating;
 *   - chunked bodies: Prism forwards Transfer-Encoding: chunked next to its own Content-Length,
 *     which Node's HTTP parser refuses.
 */
import { Repeated, textOf, type Text } from '../openapi-kit/index.ts';

export type Channel = 'proxy' | 'direct';

/** A path parameter: the id of a record that exists after the setup, or a literal (sent %-encoded or as is). */
export type PathValue = { kind: 'existing' } | { kind: 'literal'; value: Text; encode: boolean };

export type Query = { kind: 'params'; entries: Array<[string, Text]> } | { kind: 'raw'; text: string };

/**
 * `png-big`: a PNG signature padded with zeros to `bytes`, for the size limits; `altered`: the file
 * `from` with its byte `at` flipped (an image whose signature is one byte off).
 */
export type FileContent = 'png' | 'jpeg' | 'webp' | 'svg' | 'garbage' | 'empty' | 'png-big' | 'altered';

export interface FilePart {
  file: FileContent;
  type: string;
  filename: string;
  /** The size of a `png-big` file. */
  bytes?: number;
  /** What an `altered` file is made from, and the byte flipped. */
  from?: FileContent;
  at?: number;
}

export type FormField = [name: string, value: Text | FilePart];

export type Body =
  | { kind: 'none' }
  | { kind: 'json'; contentType: string; value: unknown; note: string; padding?: number; idFromPath?: boolean }
  | { kind: 'text'; contentType: string | null; text: Text; note: string }
  | { kind: 'bytes'; contentType: string | null; bytes: number[]; note: string }
  | { kind: 'form'; fields: FormField[]; note: string };

export interface GeneratedRequest {
  op: string;
  via: Channel;
  method: string;
  path: Record<string, PathValue>;
  query: Query;
  body: Body;
  /** Sent as a stream (chunked, no Content-Length), so that only counting the bytes can stop it. */
  chunked?: boolean;
}

/** State set up (straight on the mock, after a reset) before a batch is sent. */
export type Setup = 'seed' | 'empty' | 'extra' | 'no-own-record' | 'own-record' | 'own-record-with-file' | 'no-build' | 'build';

export interface Batch {
  setup: Setup;
  requests: GeneratedRequest[];
}

export const isFile = (v: Text | FilePart): v is FilePart => typeof v === 'object' && 'file' in v;

const BINARY_FILES: ReadonlySet<FileContent> = new Set(['png', 'jpeg', 'webp', 'png-big', 'altered']);

/** The media type each generated file's content really is (the declared type may say otherwise). */
export const FILE_CONTENT_TYPE: Record<FileContent, string | null> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  garbage: null,
  empty: null,
  'png-big': 'image/png',
  altered: null,
};

export const formatBytes = (n: number) => (n >= 1024 * 1024 ? `${+(n / (1024 * 1024)).toFixed(2)} MB` : `${+(n / 1024).toFixed(1)} KB`);

export const isJsonMedia = (contentType: string | null) => {
  const media = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return media === 'application/json' || media.endsWith('+json');
};

/** Percent-encodes every byte but the unreserved ones; lone surrogates become U+FFFD, as in a URL. */
/**
 * A path segment `.` or `..` cannot be sent as a value: URLs drop dot-segments (RFC 3986 §5.2.4,
 * and the WHATWG URL parser even when they are written %2E), so the request would name another
 * resource. The generators leave such values out.
 */
export function isDotSegment(text: string): boolean {
  return text === '.' || text === '..';
}

export function percentEncode(s: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(s)) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** How deeply arrays and objects nest in a JSON text (strings skipped). */
function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') max = Math.max(max, ++depth);
    else if (c === ']' || c === '}') depth--;
  }
  return max;
}

const hasMalformedEscape = (s: string) => {
  try {
    decodeURIComponent(s);
    return false;
  } catch {
    return true;
  }
};

/** Prism cannot carry some requests (see the top of this file): those go straight to the mock. */
export function mustGoDirect(r: GeneratedRequest): string | null {
  if (r.chunked) return 'Prism forwards Transfer-Encoding: chunked next to its own Content-Length, which Node refuses to parse';
  for (const v of Object.values(r.path)) {
    if (v.kind === 'literal' && !v.encode && hasMalformedEscape(textOf(v.value))) return 'a malformed %-escape in the path kills Prism';
  }
  const b = r.body;
  if (b.kind === 'form' && b.fields.some(([, v]) => isFile(v) && BINARY_FILES.has(v.file)))
    return 'Prism re-encodes binary bodies as UTF-8';
  // Prism's multipart parser splits Content-Disposition on ';' and '=' and dies on what it cannot split.
  const plain = /^[\w./-]*$/;
  if (b.kind === 'form' && b.fields.some(([name, v]) => !plain.test(name) || (isFile(v) && !plain.test(v.filename))))
    return 'an odd multipart field name kills Prism';
  // Prism %-decodes multipart text values before validating them ('%00' counts as one character).
  if (b.kind === 'form' && b.fields.some(([, v]) => !isFile(v) && textOf(v).includes('%'))) return 'Prism %-decodes multipart values';
  if (b.kind === 'bytes' && isJsonMedia(b.contentType)) return 'Prism never answers a JSON content type with a body that is not JSON';
  if ((b.kind === 'text' || b.kind === 'bytes') && /^multipart\//i.test(b.contentType ?? '')) return 'malformed multipart kills Prism';
  if (b.kind === 'text' && isJsonMedia(b.contentType)) {
    try {
      JSON.parse(textOf(b.text));
    } catch {
      return 'Prism never answers a JSON content type with a body that is not JSON';
    }
    if (jsonDepth(textOf(b.text)) > 100) return "deeply nested JSON kills Prism's logger";
  }
  return null;
}

/** A generated value as it goes into a URL or a form field. */
export function stringify(v: unknown): string {
  return textOf(stringifyText(v));
}

export function stringifyText(v: unknown): Text {
  if (v instanceof Repeated) return v;
  if (typeof v === 'string') return v;
  if (v === undefined) return '';
  return typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
}
