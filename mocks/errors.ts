/** The one error body of the API: { status, error, message }. */
const REASONS: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  422: 'Unprocessable Entity',
  500: 'Internal Server Error',
};

/** Error.message's maxLength in openapi.yaml: a message that echoes a long id, path or field name is cut. */
const MAX_MESSAGE = 1000;

export function errorBody(status: number, message: string) {
  const points = Array.from(message);
  const text = points.length > MAX_MESSAGE ? `${points.slice(0, MAX_MESSAGE - 1).join('')}…` : message;
  return { status, error: REASONS[status] ?? 'Error', message: text };
}

export function errorResponse(status: number, message: string, headers?: HeadersInit): Response {
  const h = new Headers(headers);
  h.set('content-type', 'application/json');
  return new Response(JSON.stringify(errorBody(status, message)), { status, headers: h });
}

/** Thrown inside a handler to answer an error; caught once at the edge of the mock. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers?: HeadersInit,
  ) {
    super(message);
  }
}

export function json(body: unknown, status = 200, headers?: HeadersInit): Response {
  const h = new Headers(headers);
  h.set('content-type', 'application/json');
  return new Response(JSON.stringify(body), { status, headers: h });
}
