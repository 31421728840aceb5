// @vitest-environment node
/** The one error body of the API, { status, error, message }, and the answer that carries it. */
import { describe, expect, it } from 'vitest';
import { errorBody, httpError, MAX_MESSAGE } from './errors.ts';

describe('errorBody', () => {
  it('carries the status, its reason phrase and the message as given', () => {
    expect(errorBody(404, "No profile 'p-9'")).toEqual({ status: 404, error: 'Not Found', message: "No profile 'p-9'" });
  });

  it("names a status without a known phrase 'Error'", () => {
    expect(errorBody(418, 'short and stout')).toEqual({ status: 418, error: 'Error', message: 'short and stout' });
  });

  it('keeps a message of exactly the largest length whole', () => {
    const message = 'm'.repeat(MAX_MESSAGE);
    expect(errorBody(400, message).message).toBe(message);
  });

  it('cuts a longer message to the largest length, ending it with an ellipsis', () => {
    const message = `${'a'.repeat(MAX_MESSAGE - 1)}bc`;
    expect(errorBody(400, message).message).toBe(`${'a'.repeat(MAX_MESSAGE - 1)}…`);
  });

  it('counts characters, not UTF-16 units, so that no emoji is cut in half', () => {
    const message = '😀'.repeat(MAX_MESSAGE + 1);
    const cut = errorBody(400, message).message;
    expect(Array.from(cut)).toHaveLength(MAX_MESSAGE);
    expect(cut).toBe(`${'😀'.repeat(MAX_MESSAGE - 1)}…`);
    expect(errorBody(400, '😀'.repeat(MAX_MESSAGE)).message).toBe('😀'.repeat(MAX_MESSAGE));
  });
});

describe('httpError', () => {
  it('is a JSON answer with the error body, keeping the headers given', async () => {
    const answer = httpError(429, 'Slow down', { 'retry-after': '3', 'content-type': 'text/plain' });
    expect(answer.status).toBe(429);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('retry-after')).toBe('3');
    expect(await answer.json()).toEqual({ status: 429, error: 'Too Many Requests', message: 'Slow down' });
  });
});
