import 'fake-indexeddb/auto';
import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import ProfileScreen from './ProfileScreen';
import { configureApi } from '../api/instance';
import { setTokenKeeper } from '../api/credentials';
import { resetProfileState } from './store';

/*
 * The profile screen over the real profile model and API client, only the network faked, in
 * React's StrictMode as `npm run dev` runs it: each effect runs twice, so the screen's read is
 * started twice and the first one cancelled.
 */

beforeEach(() => {
  setTokenKeeper({ accessToken: async () => 'tok-ada' });
  configureApi('http://localhost:3000/api/');
  // The server answers a while later, and honours the request's cancel as a browser does.
  vi.stubGlobal(
    'fetch',
    vi.fn(
      (request: Request) =>
        new Promise<Response>((resolve, reject) => {
          if (request.signal.aborted) return reject(request.signal.reason);
          request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
          // A member just signed in, with no profile yet.
          setTimeout(() => resolve(new Response(null, { status: 204 })), 20);
        }),
    ),
  );
});

afterEach(() => {
  act(() => resetProfileState());
  setTokenKeeper({ accessToken: async () => null });
});

describe('<ProfileScreen> in StrictMode (the dev server)', () => {
  it('a read replaced by the second run of the effect is no error: the new member is offered the form', async () => {
    render(
      <StrictMode>
        <ProfileScreen />
      </StrictMode>,
    );
    expect(await screen.findByRole('form', { name: 'Create your profile' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/Could not load this/)).toBeNull();
  });
});
