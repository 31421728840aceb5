import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import CallbackScreen from './CallbackScreen';

const session = vi.hoisted(() => ({
  finishSignIn: vi.fn<(url: URL) => Promise<string>>(),
  beginSignIn: vi.fn(async (_next: string) => undefined),
}));
vi.mock('../../state/session', () => session);

/** The provider's way back, each test with its own URL (a callback URL is completed once only). */
function arriveAt(query: string) {
  window.history.replaceState(null, '', `/auth/callback?${query}`);
  render(<CallbackScreen />);
}

afterEach(() => {
  session.finishSignIn.mockReset();
  session.beginSignIn.mockClear();
  window.history.replaceState(null, '', '/');
});

describe('<CallbackScreen>', () => {
  it('says it is signing the member in, then goes on to where they were going', async () => {
    let done: (next: string) => void = () => undefined;
    session.finishSignIn.mockImplementationOnce(() => new Promise((resolve) => (done = resolve)));
    arriveAt('code=c-1&state=s-1');
    expect(screen.getByRole('status').textContent).toContain('Signing you in…');
    await waitFor(() => expect(session.finishSignIn).toHaveBeenCalledWith(new URL(`${location.origin}/auth/callback?code=c-1&state=s-1`)));
    done('/profile');
    await waitFor(() => expect(location.pathname).toBe('/profile'));
  });

  it('never goes on to another site, whatever the stored path says', async () => {
    session.finishSignIn.mockResolvedValueOnce('//evil.example/steal');
    arriveAt('code=c-2&state=s-2');
    await waitFor(() => expect(location.pathname).toBe('/home'));
  });

  it('a failed exchange is said plainly, with a retry that starts a new sign-in', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    session.finishSignIn.mockRejectedValueOnce(Object.assign(new Error('state mismatch'), { code: null }));
    arriveAt('code=c-3&state=forged');
    expect((await screen.findByRole('alert')).textContent).toContain('The sign-in could not be completed. Try again.');
    expect(location.pathname).toBe('/auth/callback');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(session.beginSignIn).toHaveBeenCalledWith('/home'));
    expect(screen.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/home');
  });

  it('a sign-in the member cancelled at the provider says so', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    session.finishSignIn.mockRejectedValueOnce(Object.assign(new Error('User cancelled'), { code: 'access_denied' }));
    arriveAt('error=access_denied&state=s-4');
    expect((await screen.findByRole('alert')).textContent).toContain('The sign-in was cancelled.');
  });

  it('a provider that cannot be reached is told apart', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    session.finishSignIn.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    arriveAt('code=c-5&state=s-5');
    expect((await screen.findByRole('alert')).textContent).toContain('The sign-in service cannot be reached.');
  });
});
