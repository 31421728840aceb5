import { afterEach, describe, expect, it, vi } from 'vitest';
import { StrictMode } from 'react';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import CallbackScreen from './CallbackScreen';

const session = vi.hoisted(() => ({
  finishSignIn: vi.fn<(url: URL) => Promise<string>>(),
  beginSignIn: vi.fn(async (_next: string) => undefined),
}));
vi.mock('../../session', () => ({ loadSession: async () => session }));

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

  it('is titled as the sign-in, its title focusable by script only', () => {
    session.finishSignIn.mockImplementationOnce(() => new Promise(() => undefined));
    arriveAt('code=c-6&state=s-6');
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in' }).tabIndex).toBe(-1);
  });

  it('exchanges a code once, however often the screen mounts', async () => {
    session.finishSignIn.mockResolvedValue('/profile');
    window.history.replaceState(null, '', '/auth/callback?code=c-7&state=s-7');
    render(
      <StrictMode>
        <CallbackScreen />
      </StrictMode>,
    );
    await waitFor(() => expect(location.pathname).toBe('/profile'));
    expect(session.finishSignIn).toHaveBeenCalledTimes(1);
  });

  it('replaces the callback in the history: Back does not return to a used code', async () => {
    session.finishSignIn.mockResolvedValueOnce('/profile');
    const before = history.length;
    arriveAt('code=c-8&state=s-8');
    await waitFor(() => expect(location.pathname).toBe('/profile'));
    expect(history.length).toBe(before);
  });

  it('a member who left the screen meanwhile is not taken anywhere', async () => {
    let done: (next: string) => void = () => undefined;
    session.finishSignIn.mockImplementationOnce(() => new Promise((resolve) => (done = resolve)));
    window.history.replaceState(null, '', '/auth/callback?code=c-9&state=s-9');
    const { unmount } = render(<CallbackScreen />);
    await waitFor(() => expect(session.finishSignIn).toHaveBeenCalled());
    unmount();
    await act(async () => done('/profile'));
    expect(location.pathname).toBe('/auth/callback');
  });

  it('a failure with nothing to tell it by is still said, and logged for the developer', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    session.finishSignIn.mockRejectedValueOnce(null);
    arriveAt('code=c-10&state=s-10');
    expect((await screen.findByRole('alert')).textContent).toContain('The sign-in could not be completed. Try again.');
    expect(warn).toHaveBeenCalledWith('Sign-in failed', null);
  });
});
