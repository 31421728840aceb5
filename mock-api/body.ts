import { httpError } from './errors.ts';

/**
 * The largest avatar, as a number for tests that build one just over it. The mock itself reads
 * the limit from openapi.yaml (the avatar's `maxLength`); limits.test.ts holds the two equal.
 */
export const MAX_AVATAR_BYTES = 2 * 1024 * 1024;

export function mediaType(request: Request): string {
  return (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

export function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${n / (1024 * 1024)} MB` : `${n / 1024} KB`;
}

async function readLimited(request: Request, limit: number, what: string): Promise<ArrayBuffer> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) throw httpError(413, `${what} must be at most ${formatBytes(limit)}`);
  const buffer = await request.arrayBuffer();
  if (buffer.byteLength > limit) throw httpError(413, `${what} must be at most ${formatBytes(limit)}`);
  return buffer;
}

/** Reads a JSON body of at most `limit` bytes: 415 when it is not JSON, 413 when larger, 400 when malformed. */
export async function readJson(request: Request, limit: number): Promise<unknown> {
  if (mediaType(request) !== 'application/json') {
    throw httpError(415, 'The body must be JSON (Content-Type: application/json)');
  }
  const buffer = await readLimited(request, limit, 'A JSON body');
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(buffer));
  } catch {
    throw httpError(400, 'The body is not valid JSON');
  }
}

/**
 * The value of each part of a multipart body as sent, in order, read as text: the boundaries and
 * part headers are ASCII, which UTF-8 decoding leaves as it is even around a file's bytes, and a
 * mark that is not the body's first character is kept as U+FEFF.
 */
function sentValues(buffer: ArrayBuffer, contentType: string): string[] {
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  // Stryker disable next-line ArrayDeclaration: with no boundary nothing is compared; a made-up value starts with no mark either
  if (!boundary) return [];
  // Between the first delimiter and the closing one; each value ends with the line break before the next.
  const parts = new TextDecoder()
    .decode(buffer)
    .split(`--${boundary[1] ?? boundary[2]}`)
    .slice(1, -1);
  return parts.map((part) => part.slice(part.indexOf('\r\n\r\n') + 4, -2));
}

/**
 * Node 22's form parser drops the byte order marks that start a text field (later lines keep them):
 * characters the client sent would be lost, and a value at its minimum length refused. The parser
 * keeps the parts in order, so each text field is compared with its part as sent, and given as
 * sent when only such marks are missing from its start.
 */
export function withMarksKept(form: FormData, buffer: ArrayBuffer, contentType: string): FormData {
  const sent = sentValues(buffer, contentType);
  if (!sent.some((value) => value.startsWith('\uFEFF'))) return form;
  const kept = new FormData();
  [...form].forEach(([name, value], index) => {
    // Stryker disable next-line StringLiteral: the parser gives one entry per part, so every entry has its part
    const asSent = sent[index] ?? '';
    const dropped = typeof value === 'string' && asSent.endsWith(value) && /^\uFEFF+$/.test(asSent.slice(0, asSent.length - value.length));
    kept.append(name, dropped ? asSent : value);
  });
  return kept;
}

/** Reads a multipart body of at most `limit` bytes: 413 when larger, 400 when malformed. */
export async function readForm(request: Request, limit: number): Promise<FormData> {
  const buffer = await readLimited(request, limit, 'A form body');
  const contentType = request.headers.get('content-type')!;
  let form: FormData;
  try {
    form = await new Response(buffer, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw httpError(400, 'The body is not valid multipart/form-data');
  }
  return withMarksKept(form, buffer, contentType);
}
