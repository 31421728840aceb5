import type { components } from './schema';

export type ErrorBody = components['schemas']['Error'];

/** An answer of the API that is not a success, with the contract's error body when it sent one. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody;

  constructor(status: number, body: ErrorBody) {
    super(body.message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** Reads any error payload into the contract's shape, so a foreign body never breaks the caller. */
export function toErrorBody(status: number, payload: unknown, statusText = ''): ErrorBody {
  if (payload && typeof payload === 'object') {
    const p = payload as Partial<Record<keyof ErrorBody, unknown>>;
    return {
      status: typeof p.status === 'number' ? p.status : status,
      error: typeof p.error === 'string' ? p.error : statusText || 'Error',
      message: typeof p.message === 'string' ? p.message : JSON.stringify(payload).slice(0, 200),
    };
  }
  const text = typeof payload === 'string' && payload ? payload.slice(0, 200) : statusText || `HTTP ${status}`;
  return { status, error: statusText || 'Error', message: text };
}

/** The profile service's error strings, as the app shows and stores them. */
export function profileErrorMessage(error: unknown): string {
  if (error instanceof ApiError) return `Backend returned code ${error.status}, with body ${error.body.message}`;
  const message = error instanceof Error ? error.message : String(error);
  return `An error occurred: ${message}`;
}
