// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { rejectAll, unauthorized } from './auth.ts';

describe('401 answers', () => {
  it('without an error code: the bare challenge, and the message in the API’s error body', async () => {
    const answer = unauthorized('Sign in first');
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="circle"');
    expect(await answer.json()).toEqual({ status: 401, error: 'Unauthorized', message: 'Sign in first' });
  });

  it('with an error code: the RFC 6750 challenge, quotes and backslashes left out of its description', async () => {
    const answer = unauthorized('Not "yours" \\ expired', 'invalid_token');
    expect(answer.headers.get('www-authenticate')).toBe(
      'Bearer realm="circle", error="invalid_token", error_description="Not yours  expired"',
    );
    expect(((await answer.json()) as { message: string }).message).toBe('Not "yours" \\ expired');
  });

  it('without an identity provider, every secured operation asks for a token', async () => {
    const refusal = await rejectAll(new Request('http://circle.example/api/user/profile/myprofile')).catch((thrown: unknown) => thrown);
    expect(refusal).toBeInstanceOf(Response);
    const answer = refusal as Response;
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="circle"');
    expect(await answer.json()).toEqual({
      status: 401,
      error: 'Unauthorized',
      message: 'Sign in: this operation needs a bearer access token',
    });
  });
});
