/** The one error body of the API: { status, error, message }. */

/** The reason phrase of each status, as openapi.yaml's error examples give it (limits.test.ts holds them to it). */
export const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  421: 'Misdirected Request',
  422: 'Unprocessable Entity',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** Error.message's maxLength in openapi.yaml (limits.test.ts holds it to it): a message that echoes a long id, path or field name is cut. */
export const MAX_MESSAGE = 1000;

export function errorBody(status: number, message: string) {
  const points = Array.from(message);
  const text = points.length > MAX_MESSAGE ? `${points.slice(0, MAX_MESSAGE - 1).join('')}…` : message;
  return { status, error: REASONS[status] ?? 'Error', message: text };
}

/**
 * An error answer. Thrown from anywhere below a handler it is still the answer: MSW answers a
 * thrown Response as is, so a helper deep in a resolver refuses a request without its callers
 * passing the refusal up.
 */
export function httpError(status: number, message: string, headers?: HeadersInit): Response {
  const h = new Headers(headers);
  h.set('content-type', 'application/json');
  return new Response(JSON.stringify(errorBody(status, message)), { status, headers: h });
}

/** A data, scenario or options file the mock cannot start with: the message is one line that names the file and the problem. */
export class ConfigError extends Error {}
