import { describe, expect, it } from 'vitest';
import { ApiError, isAbort, profileErrorMessage, toErrorBody } from './errors';

describe('an error answer read as the contract says', () => {
  it("keeps the contract's body as it is", () => {
    expect(toErrorBody(409, { status: 409, error: 'Conflict', message: 'Username taken' }, 'Conflict!')).toEqual({
      status: 409,
      error: 'Conflict',
      message: 'Username taken',
    });
  });

  it("takes the status the body states over the answer's own, as a gateway passing on an upstream error sends it", () => {
    expect(toErrorBody(502, { status: 503, error: 'Service Unavailable', message: 'Upstream down' }, 'Bad Gateway')).toEqual({
      status: 503,
      error: 'Service Unavailable',
      message: 'Upstream down',
    });
  });

  it('fills what a foreign object body leaves out from the answer itself', () => {
    expect(toErrorBody(502, { status: '502', error: 7, detail: 'upstream down' }, 'Bad Gateway')).toEqual({
      status: 502,
      error: 'Bad Gateway',
      message: '{"status":"502","error":7,"detail":"upstream down"}',
    });
    expect(toErrorBody(500, { message: ['no'] })).toEqual({ status: 500, error: 'Error', message: '{"message":["no"]}' });
  });

  it('keeps no more than 200 characters of a foreign body', () => {
    const long = 'x'.repeat(300);
    expect(toErrorBody(500, { detail: long }).message).toBe(JSON.stringify({ detail: long }).slice(0, 200));
    expect(toErrorBody(500, long).message).toBe('x'.repeat(200));
  });

  it('shows a text body as the message', () => {
    expect(toErrorBody(503, 'Service down for maintenance', 'Service Unavailable')).toEqual({
      status: 503,
      error: 'Service Unavailable',
      message: 'Service down for maintenance',
    });
    expect(toErrorBody(503, 'Down')).toEqual({ status: 503, error: 'Error', message: 'Down' });
  });

  it('says what it can without a body', () => {
    expect(toErrorBody(404, undefined, 'Not Found')).toEqual({ status: 404, error: 'Not Found', message: 'Not Found' });
    expect(toErrorBody(500, '')).toEqual({ status: 500, error: 'Error', message: 'HTTP 500' });
    expect(toErrorBody(500, null)).toEqual({ status: 500, error: 'Error', message: 'HTTP 500' });
    expect(toErrorBody(418, 0)).toEqual({ status: 418, error: 'Error', message: 'HTTP 418' });
    expect(toErrorBody(418, 42, 'Teapot')).toEqual({ status: 418, error: 'Teapot', message: 'Teapot' });
  });
});

describe('a cancelled request', () => {
  it('is told from other failures', () => {
    expect(isAbort(new DOMException('The request was cancelled', 'AbortError'))).toBe(true);
    expect(isAbort(new DOMException('Quota', 'QuotaExceededError'))).toBe(false);
    expect(isAbort(Object.assign(new Error('cancelled'), { name: 'AbortError' }))).toBe(false);
    expect(isAbort({ name: 'AbortError' })).toBe(false);
    expect(isAbort(new TypeError('Failed to fetch'))).toBe(false);
  });
});

describe('the profile error message', () => {
  it('names the code and the message of an API error, or the message of any other failure', () => {
    const error = new ApiError(412, { status: 412, error: 'Precondition Failed', message: 'Changed elsewhere' });
    expect(error.message).toBe('Changed elsewhere');
    expect(error.name).toBe('ApiError');
    expect(profileErrorMessage(error)).toBe('Backend returned code 412, with body Changed elsewhere');
    expect(profileErrorMessage(new TypeError('Failed to fetch'))).toBe('An error occurred: Failed to fetch');
    expect(profileErrorMessage('offline')).toBe('An error occurred: offline');
  });
});
