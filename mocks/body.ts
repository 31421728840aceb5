import { HttpError } from './errors.ts';

/** Largest JSON body the API accepts. */
export const MAX_JSON_BYTES = 64 * 1024;
/** Largest avatar image, and the multipart body that carries it. */
export const MAX_AVATAR_BYTES = 2 * 1024 * 1024;
export const MAX_FORM_BYTES = MAX_AVATAR_BYTES + 64 * 1024;

export function mediaType(request: Request): string {
  return (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

async function readLimited(request: Request, limit: number, what: string): Promise<ArrayBuffer> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > limit) throw new HttpError(413, `${what} must be at most ${formatBytes(limit)}`);
  const buffer = await request.arrayBuffer();
  if (buffer.byteLength > limit) throw new HttpError(413, `${what} must be at most ${formatBytes(limit)}`);
  return buffer;
}

export function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${n / (1024 * 1024)} MB` : `${n / 1024} KB`;
}

/** Reads a JSON body: 415 when it is not JSON, 413 when too large, 400 when malformed. */
export async function readJson(request: Request): Promise<unknown> {
  if (mediaType(request) !== 'application/json') {
    throw new HttpError(415, 'The body must be JSON (Content-Type: application/json)');
  }
  const buffer = await readLimited(request, MAX_JSON_BYTES, 'A JSON body');
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(buffer));
  } catch {
    throw new HttpError(400, 'The body is not valid JSON');
  }
}

/** Reads a multipart body: 413 when too large, 400 when malformed. */
export async function readForm(request: Request): Promise<FormData> {
  const buffer = await readLimited(request, MAX_FORM_BYTES, 'A form body');
  try {
    return await new Response(buffer, { headers: { 'content-type': request.headers.get('content-type')! } }).formData();
  } catch {
    throw new HttpError(400, 'The body is not valid multipart/form-data');
  }
}
