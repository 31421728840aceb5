import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Profile } from '../../profile';
import type { BeforeInstallPromptEvent } from '../../state/app';

type Notification = { id: string; title: string; body: string; level: 'info' | 'warning'; read: boolean; createdAt: string };

const backend = vi.hoisted(() => ({
  list: vi.fn<(language: string, signal?: AbortSignal) => Promise<Notification[]>>(),
  markRead: vi.fn<(id: string) => Promise<number>>(),
  read: vi.fn<(signal?: AbortSignal) => Promise<{ profile: Profile | null; etag: string | null }>>(),
}));
vi.mock('../../api/instance', () => ({
  api: {
    inbox: () => ({
      // A test's list ends with it: a read after (the sign-out of the clean-up) finds none.
      list: async (language: string, signal?: AbortSignal) => ({ items: (await backend.list(language, signal)) ?? [], language }),
      markRead: backend.markRead,
    }),
    client: () => ({}),
  },
}));
vi.mock('../../profile/requests', () => ({ profileApi: () => ({ read: backend.read }) }));
// A session is stored: the profile is asked of the server.
vi.mock('../../api/credentials', () => ({ authorizationHeader: async () => ({ Authorization: 'Bearer t' }) }));

const PROFILE: Profile = {
  id: 'p-1',
  displayName: 'Ada Lovelace',
  username: 'ada',
  email: 'ada@example.org',
  interests: [],
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-02T00:00:00Z',
};

const note = (id: string, title: string): Notification => ({
  id,
  title,
  body: '',
  level: 'info',
  read: true,
  createdAt: '2024-01-01T00:00:00Z',
});

// The lazy parts are set up when the module loads: each test reads a fresh copy, with the state it reads.
let HomeScreen: typeof import('./HomeScreen').default;
let app: typeof import('../../state/app');
let auth: typeof import('../../state/auth');
let store: typeof import('../../profile/store');
beforeEach(async () => {
  vi.resetModules();
  ({ default: HomeScreen } = await import('./HomeScreen'));
  app = await import('../../state/app');
  auth = await import('../../state/auth');
  store = await import('../../profile/store');
  backend.read.mockResolvedValue({ profile: null, etag: null });
});

afterEach(() => {
  backend.list.mockReset();
  backend.markRead.mockReset();
  backend.read.mockReset();
  localStorage.clear();
  act(() => auth.sessionEnded('signed-out'));
});

/** A member whose profile the server holds (or not). */
function signIn(profile: Profile | null) {
  backend.read.mockResolvedValue({ profile, etag: '"1"' });
  act(() => auth.sessionStarted({ subject: 'ada', name: 'Ada', email: null }));
}

const profileSection = () => screen.getByRole('region', { name: 'Profile' });

describe('<HomeScreen>', () => {
  it('greets a visitor and asks them to sign in for a profile; "Online" is left to the top bar', async () => {
    backend.list.mockImplementation(() => new Promise(() => undefined));
    render(<HomeScreen />);
    const title = screen.getByRole('heading', { level: 1, name: 'Welcome to Circle' });
    expect(title.tabIndex).toBe(-1);
    expect(screen.getByRole('region', { name: 'Welcome to Circle' })).toBeTruthy();
    // The art is the stylesheet's decoration: no image to fetch, nothing for assistive technology.
    const art = screen.getByRole('region', { name: 'Welcome to Circle' }).querySelector('.hero__art');
    expect(art?.getAttribute('aria-hidden')).toBe('true');
    expect(art?.childNodes).toHaveLength(0);
    expect(document.querySelector('img')).toBeNull();
    expect(
      screen.getByText(
        'Meet people who learn what you learn. Keep your profile up to date, follow the news of your circle and pick up where you left off, even on a train.',
      ),
    ).toBeTruthy();
    expect(screen.queryByTestId('home-online')).toBeNull();
    expect(screen.queryByText('Online')).toBeNull();
    // Signed out, the card is titled for what it offers: signing in to one's profile, not creating one.
    expect(profileSection().querySelector('h2')?.textContent).toBe('Your profile');
    expect(screen.getByText('Sign in to see and edit your profile.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/sign-in?next=%2Fprofile');
    expect(screen.queryByRole('button', { name: 'Install app' })).toBeNull();
    expect(screen.queryByText('Circle is installed on this device.')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Latest notifications' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See all on the dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(screen.getByRole('region', { name: 'Latest notifications' }).textContent).toContain('Loading…');
    // Still loading is no failure: nothing is announced.
    expect(screen.queryByRole('alert')).toBeNull();
    await waitFor(() => expect(backend.list).toHaveBeenCalled());
    // In the language on screen.
    expect(backend.list.mock.calls[0]![0]).toBe('en');
    await act(async () => undefined);
    expect(backend.read).not.toHaveBeenCalled();
  });

  it('never shows a profile left in memory to a visitor signed out', () => {
    backend.list.mockResolvedValue([]);
    act(() => store.setProfileState('fetch:success', { profile: PROFILE }));
    render(<HomeScreen />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Welcome to Circle');
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeTruthy();
  });

  it('offline, says what that means', () => {
    backend.list.mockResolvedValue([]);
    act(() => app.setOnline(false));
    render(<HomeScreen />);
    expect(screen.getByTestId('home-online').textContent).toBe(
      'You are offline. What you saw last is shown; your profile changes are saved on this device and sent when you are back online.',
    );
  });

  it('offers the install where the browser allows it, and says when installed', () => {
    backend.list.mockResolvedValue([]);
    act(() => app.storeInstallPrompt(new Event('beforeinstallprompt') as BeforeInstallPromptEvent));
    render(<HomeScreen />);
    expect(screen.getByText('Install Circle to open it from your home screen, even offline.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Install app' })).toBeTruthy();
    act(() => app.markInstalled());
    expect(screen.queryByText('Install Circle to open it from your home screen, even offline.')).toBeNull();
    expect(screen.getByText('Circle is installed on this device.')).toBeTruthy();
  });

  it('welcomes a member back by name with their card and a link to their profile, reading it afresh', async () => {
    backend.list.mockResolvedValue([]);
    signIn(PROFILE);
    render(<HomeScreen />);
    expect(await screen.findByRole('heading', { name: 'Ada Lovelace' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Welcome back, Ada Lovelace!');
    expect(backend.read).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('link', { name: 'View your profile' }).getAttribute('href')).toBe('/profile');
    expect(screen.queryByRole('link', { name: 'Sign in' })).toBeNull();
  });

  it('a member without a profile is asked to create one; while it is read, it says it is loading', async () => {
    backend.list.mockImplementation(() => new Promise(() => undefined));
    signIn(null);
    render(<HomeScreen />);
    await waitFor(() => expect(profileSection().querySelector('h2')?.textContent).toBe('Create your profile'));
    expect(screen.getByText('Tell the community who you are: a name, a photo and what you are interested in.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create your profile' }).getAttribute('href')).toBe('/profile');
    act(() => store.setProfileState('fetch:start', { loading: true }));
    // Not the sign-in invitation: the member is signed in.
    expect(screen.queryByRole('link', { name: 'Sign in' })).toBeNull();
    expect(profileSection().textContent).toBe('Loading…');
  });

  it('reads the profile when a session starts while it is shown', async () => {
    backend.list.mockResolvedValue([]);
    render(<HomeScreen />);
    await screen.findByText('No notifications yet. News from your circle will show here.');
    expect(backend.read).not.toHaveBeenCalled();
    act(() => auth.sessionStarted({ subject: 'ada', name: 'Ada', email: null }));
    await waitFor(() => expect(backend.read).toHaveBeenCalledTimes(1));
  });

  it('a failed profile read is no error of the screen', async () => {
    backend.list.mockResolvedValue([]);
    signIn(null);
    backend.read.mockRejectedValue(new Error('down'));
    render(<HomeScreen />);
    await act(async () => undefined);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the three latest notifications', async () => {
    backend.list.mockResolvedValue([note('n1', 'First'), note('n2', 'Second'), note('n3', 'Third'), note('n4', 'Fourth')]);
    render(<HomeScreen />);
    expect(await screen.findByRole('heading', { name: 'First' })).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['First', 'Second', 'Third']);
    expect(screen.getByRole('region', { name: 'Latest notifications' }).textContent).not.toContain('Loading…');
    expect(screen.queryByText('No notifications yet. News from your circle will show here.')).toBeNull();
  });

  it('says when there are none', async () => {
    backend.list.mockResolvedValue([]);
    render(<HomeScreen />);
    expect(await screen.findByText('No notifications yet. News from your circle will show here.')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Latest notifications' }).textContent).not.toContain('Loading…');
  });

  it('a failed list says why, and Retry lists again', async () => {
    const user = userEvent.setup();
    backend.list.mockRejectedValueOnce(new Error('down')).mockResolvedValueOnce([note('n1', 'First')]);
    render(<HomeScreen />);
    expect((await screen.findByRole('alert')).textContent).toContain('Could not load this: down');
    expect(screen.getByRole('region', { name: 'Latest notifications' }).textContent).not.toContain('Loading…');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'First' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a member marks one read there, and finds the rest in their inbox; a visitor only reads them', async () => {
    const user = userEvent.setup();
    backend.list.mockResolvedValue([{ ...note('n1', 'First'), read: false }, note('n2', 'Second')]);
    backend.markRead.mockResolvedValue(0);
    signIn(PROFILE);
    render(<HomeScreen />);
    await user.click(await screen.findByRole('button', { name: 'Mark as read: First' }));
    expect(backend.markRead).toHaveBeenCalledWith('n1');
    expect(await screen.findByRole('button', { name: 'Mark as unread: First' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'All your notifications' }).getAttribute('href')).toBe('/notifications');
    act(() => auth.sessionEnded('signed-out'));
    await screen.findByRole('link', { name: 'See all on the dashboard' });
    expect(screen.queryByRole('button', { name: /^Mark as/ })).toBeNull();
  });
});
