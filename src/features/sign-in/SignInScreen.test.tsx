import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import SignInScreen from './SignInScreen';
import { setRenderMode } from '../../state/render-mode';
import { sessionEnded, sessionStarted } from '../../state/auth';
import { setProfileState } from '../../profile/store';
import { resetProfileState } from '../../profile/store';
import { PROFILE } from '../../test/profile-fixture';

const session = vi.hoisted(() => ({
  beginSignIn: vi.fn<(next: string) => Promise<void>>(),
  endSession: vi.fn<() => Promise<void>>(),
}));
vi.mock('../../session', () => ({ loadSession: async () => session }));

function visit(path: string) {
  const location = memoryLocation({ path });
  render(
    <Router hook={location.hook} searchHook={location.searchHook}>
      <SignInScreen />
    </Router>,
  );
}

afterEach(() => {
  session.beginSignIn.mockReset();
  session.endSession.mockReset();
  act(() => sessionEnded('signed-out'));
});

const signInButton = () => screen.getByRole('button', { name: 'Sign in' }) as HTMLButtonElement;

describe('<SignInScreen>', () => {
  it('says where the member signs in, and nothing more, when nothing asked for it', () => {
    visit('/sign-in');
    const title = screen.getByRole('heading', { level: 1, name: 'Sign in' });
    expect(title.tabIndex).toBe(-1);
    expect(screen.getByText('Sign in with your Circle account.')).toBeTruthy();
    expect(screen.getByText(`You sign in at ${location.host}.`)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    // Only the polite region that will say the page is opening, empty for now.
    expect(screen.getAllByRole('status').map((s) => s.textContent)).toEqual(['']);
    expect(signInButton().disabled).toBe(false);
  });

  it('renders its words but the host where the page is prerendered: the host, known only in the browser, comes with the app', () => {
    const html = renderToString(
      <Router ssrPath="/sign-in">
        <SignInScreen />
      </Router>,
    );
    expect(html).toContain('Sign in with your Circle account.');
    expect(html).not.toContain(location.host);
    expect(html).not.toContain('sign-in__issuer');
  });

  it('offers Sign in only once the app runs: the prerendered button is disabled while the page hydrates', () => {
    setRenderMode('static');
    try {
      visit('/sign-in');
      expect(signInButton().disabled).toBe(true);
      act(() => setRenderMode('live'));
      expect(signInButton().disabled).toBe(false);
    } finally {
      setRenderMode('live');
    }
  });

  it('signs in, saying the page is opening, and goes on to the home screen by default', async () => {
    const user = userEvent.setup();
    session.beginSignIn.mockImplementation(() => new Promise(() => undefined));
    visit('/sign-in');
    await user.click(signInButton());
    expect(screen.getByRole('status').textContent).toBe('Opening the sign-in page…');
    expect(signInButton().disabled).toBe(true);
    await waitFor(() => expect(session.beginSignIn).toHaveBeenCalledWith('/home'));
  });

  it('goes on to where the member was going, and says why a sign-in is needed there', async () => {
    const user = userEvent.setup();
    session.beginSignIn.mockResolvedValue(undefined);
    visit('/sign-in?next=%2Fadmin%2Fsymbols');
    expect(screen.getByText('Sign in to open the admin screens.').getAttribute('role')).toBe('status');
    expect(screen.queryByText('Sign in to see and edit your profile.')).toBeNull();
    await user.click(signInButton());
    await waitFor(() => expect(session.beginSignIn).toHaveBeenCalledWith('/admin/symbols'));
  });

  it('for the profile, says the profile needs it', () => {
    visit('/sign-in?next=%2Fprofile');
    expect(screen.getByText('Sign in to see and edit your profile.').getAttribute('role')).toBe('status');
    expect(screen.queryByText('Sign in to open the admin screens.')).toBeNull();
  });

  it('a path that only ends like one of those says nothing of them', () => {
    visit('/sign-in?next=%2Fhome%2Fadmin');
    expect(screen.queryByText('Sign in to open the admin screens.')).toBeNull();
    visit('/sign-in?next=%2Fhome%2Fprofile');
    expect(screen.queryByText('Sign in to see and edit your profile.')).toBeNull();
  });

  it('never goes on to another site', async () => {
    const user = userEvent.setup();
    session.beginSignIn.mockResolvedValue(undefined);
    visit('/sign-in?next=%2F%2Fevil.example');
    await user.click(signInButton());
    await waitFor(() => expect(session.beginSignIn).toHaveBeenCalledWith('/home'));
  });

  it('an expired session is said', () => {
    act(() => {
      sessionStarted({ subject: 'ada', name: 'Ada', email: null });
      sessionEnded('expired');
    });
    visit('/sign-in');
    expect(screen.getByRole('alert').textContent).toBe('Your session has ended. Sign in again to save; what you typed is kept.');
  });

  it('a provider that cannot be reached is said, and the button tries again', async () => {
    const user = userEvent.setup();
    session.beginSignIn.mockRejectedValueOnce(new TypeError('Failed to fetch')).mockImplementationOnce(() => new Promise(() => undefined));
    visit('/sign-in');
    await user.click(signInButton());
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The sign-in service cannot be reached. Check your connection and try again.',
    );
    expect(screen.getByRole('status').textContent).toBe('');
    const retry = screen.getByRole('button', { name: 'Try again' }) as HTMLButtonElement;
    expect(retry.disabled).toBe(false);
    await user.click(retry);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Opening the sign-in page…');
    await waitFor(() => expect(session.beginSignIn).toHaveBeenCalledTimes(2));
  });

  it('signed in with a profile, names the member by the profile, not by the provider', () => {
    act(() => {
      sessionStarted({ subject: 'ada', name: 'Ada Lovelace', email: null });
      setProfileState('test', { profile: { ...PROFILE, displayName: 'Countess Ada' } });
    });
    visit('/sign-in');
    expect(screen.getByText('Signed in as Countess Ada.')).toBeTruthy();
    expect(screen.queryByText(/Ada Lovelace/)).toBeNull();
    act(() => resetProfileState());
  });

  it('signed in, says as whom and offers to sign out', async () => {
    const user = userEvent.setup();
    session.endSession.mockResolvedValue(undefined);
    act(() => sessionStarted({ subject: 'ada', name: 'Ada Lovelace', email: null }));
    visit('/sign-in');
    expect(screen.getByRole('heading', { level: 1, name: 'Sign out' })).toBeTruthy();
    expect(screen.getByText('Signed in as Ada Lovelace.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(session.endSession).toHaveBeenCalledTimes(1));
  });
});
