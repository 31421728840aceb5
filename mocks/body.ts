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

/** Reads a multipart body of at most `limit` bytes: 413 when larger, 400 when malformed. */
export async function readForm(request: Request, limit: number): Promise<FormData> {
  const buffer = await readLimited(request, limit, 'A form body');
  try {
    return await new Response(buffer, { headers: { 'content-type': request.headers.get('content-type')! } }).formData();
  } catch {
    throw httpError(400, 'The body is not valid multipart/form-data');
  }
}
