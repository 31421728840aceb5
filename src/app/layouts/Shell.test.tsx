import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubSilentNetwork } from '../../test/silent-network';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Shell } from './Shell';
import { loadMemberParts } from './member-shell';
import { Icon } from '../../ui/icons';
import { sessionEnded, sessionStarted } from '../../state/auth';
import { resetProfileState, setProfileState } from '../../profile/store';
import { PROFILE } from '../../test/profile-fixture';
import { setRenderMode } from '../../state/render-mode';
import { navigate } from 'wouter/use-browser-location';
import { Router } from 'wouter';
import { renderToString } from 'react-dom/server';

const session = vi.hoisted(() => ({ endSession: vi.fn(async (_everywhere?: boolean) => undefined) }));
vi.mock('../../session', () => ({ loadSession: async () => session }));
// The top bar asks for the profile once a member is known: the read itself is the model's.
const reads = vi.hoisted(() => ({ fetchProfile: vi.fn(async () => null) }));
vi.mock('../../profile/store', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../profile/store')>()),
  ...reads,
}));

// A member's top bar holds the notification bell, which asks for the unread count: it never comes here.
beforeEach(stubSilentNetwork);

// A member's parts of the shell load on demand (member-shell.ts); here they are in from the start,
// as boot has them before the first render of a visit that starts signed in.
beforeAll(() => loadMemberParts());

afterEach(() => {
  act(() => {
    sessionEnded('signed-out');
    resetProfileState();
  });
  session.endSession.mockClear();
  window.history.replaceState(null, '', '/');
});

/** The account button and the menu it opens (a popover: in the page, shown by the browser). */
const accountButton = (name: string) => topBar().getByRole('button', { name: `Account: ${name}` });
const accountMenu = () => within(document.getElementById('account-menu') as HTMLElement);

const topBar = () => within(screen.getByRole('banner'));

describe('<Shell> top bar', () => {
  it('signed out: a Sign in link that comes back to this screen', () => {
    window.history.replaceState(null, '', '/settings');
    render(
      <Shell layout="sidenav">
        <p>content</p>
      </Shell>,
    );
    const link = topBar().getByRole('link', { name: 'Sign in' });
    expect(link.getAttribute('href')).toBe('/sign-in?next=%2Fsettings');
    expect(topBar().queryByRole('button', { name: 'Sign out' })).toBeNull();
  });

  it('on the sign-in screen itself the link adds no way back to it', () => {
    window.history.replaceState(null, '', '/sign-in');
    render(
      <Shell layout="home">
        <p>content</p>
      </Shell>,
    );
    expect(topBar().getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/sign-in');
  });

  it('signed in: an account button with the member’s name opens their menu: who, their profile, Sign out', async () => {
    act(() => sessionStarted({ subject: 'ada', name: 'Ada Lovelace', email: 'ada@circle.example.org' }));
    render(
      <Shell layout="home">
        <p>content</p>
      </Shell>,
    );
    const button = accountButton('Ada Lovelace');
    expect(button.querySelector('.account-button__name')?.textContent).toBe('Ada Lovelace');
    expect(button.getAttribute('popovertarget')).toBe('account-menu');
    expect(topBar().queryByRole('link', { name: 'Sign in' })).toBeNull();
    expect(accountMenu().getByText('Ada Lovelace')).toBeTruthy();
    expect(accountMenu().getByText('ada@circle.example.org')).toBeTruthy();
    expect(accountMenu().getByRole('link', { name: 'Your profile' }).getAttribute('href')).toBe('/profile');
    await userEvent.setup().click(accountMenu().getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(session.endSession).toHaveBeenCalledTimes(1));
    expect(session.endSession).toHaveBeenCalledWith(false);
  });

  it('Sign out everywhere ends the sessions of every device', async () => {
    act(() => sessionStarted({ subject: 'ada', name: 'Ada Lovelace', email: null }));
    shell('home');
    await userEvent.setup().click(accountMenu().getByRole('button', { name: 'Sign out everywhere' }));
    await waitFor(() => expect(session.endSession).toHaveBeenCalledTimes(1));
    expect(session.endSession).toHaveBeenCalledWith(true);
  });

  it('Sign out shows the sign-out icon, not the sign-in one', () => {
    act(() => sessionStarted({ subject: 'ada', name: 'Ada Lovelace', email: null }));
    shell('home');
    const path = accountMenu().getByRole('button', { name: 'Sign out' }).querySelector('svg path')?.getAttribute('d');
    const iconPath = (name: 'signIn' | 'signOut') =>
      render(<Icon name={name} />)
        .container.querySelector('path')
        ?.getAttribute('d');
    expect(path).toBe(iconPath('signOut'));
    expect(path).not.toBe(iconPath('signIn'));
  });

  it('one name for one person: the profile’s display name once there is a profile, the provider’s before', () => {
    act(() => sessionStarted({ subject: 'ada', name: 'Ada Lovelace', email: 'ada@circle.example.org' }));
    shell('sidenav');
    expect(accountButton('Ada Lovelace')).toBeTruthy();
    act(() => setProfileState('fetch:success', { profile: { ...PROFILE, displayName: 'Countess Ada', email: 'countess@example.org' } }));
    expect(accountButton('Countess Ada').querySelector('.account-button__name')?.textContent).toBe('Countess Ada');
    expect(topBar().queryByText('Ada Lovelace')).toBeNull();
    expect(accountMenu().getByText('countess@example.org')).toBeTruthy();
  });

  it('asks for the profile once the member is known, once per visit and member', async () => {
    reads.fetchProfile.mockClear();
    act(() => sessionStarted({ subject: 'grace', name: 'Grace Hopper', email: null }));
    shell('sidenav');
    await waitFor(() => expect(reads.fetchProfile).toHaveBeenCalledTimes(1));
    cleanup();
    shell('sidenav');
    expect(reads.fetchProfile).toHaveBeenCalledTimes(1);
  });

  it('follows the session: signing out shows the Sign in link again', () => {
    act(() => sessionStarted({ subject: 'grace', name: 'Grace Hopper', email: null }));
    render(
      <Shell layout="home">
        <p>content</p>
      </Shell>,
    );
    expect(accountButton('Grace Hopper')).toBeTruthy();
    act(() => sessionEnded('signed-out'));
    expect(topBar().queryByText('Grace Hopper')).toBeNull();
    expect(topBar().getByRole('link', { name: 'Sign in' })).toBeTruthy();
  });
});

describe('<Shell> prerendered (render mode static)', () => {
  afterEach(() => act(() => setRenderMode('live')));

  it('holds both variants for the stylesheet to choose, then keeps the one that fits', () => {
    const wide = vi
      .spyOn(window, 'matchMedia')
      .mockImplementation(
        (query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }) as unknown as MediaQueryList,
      );
    try {
      setRenderMode('static');
      const { container } = render(
        <Shell layout="sidenav">
          <p>content</p>
        </Shell>,
      );
      // Nothing asked the browser: the build has no viewport.
      expect(wide).not.toHaveBeenCalled();
      expect(container.querySelector('.topbar__menu')?.classList.contains('only-narrow')).toBe(true);
      // Its drawer comes with the live render: until then a press would go nowhere.
      expect(container.querySelector<HTMLButtonElement>('.topbar__menu')?.disabled).toBe(true);
      expect(container.querySelector('.drawer--side')?.classList.contains('only-wide')).toBe(true);

      act(() => setRenderMode('live'));
      // A wide window: the menu button goes, the side drawer stays, without the marks.
      expect(container.querySelector('.topbar__menu')).toBeNull();
      expect(container.querySelector('.drawer--side')?.className).toBe('drawer drawer--side');
    } finally {
      wide.mockRestore();
    }
  });
});

/** The window's width: the shell listens to the configured breakpoint (599px by default). */
async function viewport(width: number) {
  await act(async () => {
    (window as unknown as { happyDOM: { setViewport(size: { width: number }): void } }).happyDOM.setViewport({ width });
    // The media query reports the change asynchronously.
    await new Promise((r) => setTimeout(r, 0));
  });
}

function shell(layout: 'home' | 'sidenav' | 'dashboard' | 'admin') {
  return render(
    <Shell layout={layout}>
      <p>content</p>
    </Shell>,
  ).container;
}

describe('<Shell> account actions', () => {
  it('names the sign-in link even when only its icon shows, and says it in words beside it', () => {
    window.history.replaceState(null, '', '/docs/sign-in');
    shell('home');
    const link = topBar().getByRole('link', { name: 'Sign in' });
    expect(link.getAttribute('aria-label')).toBe('Sign in');
    expect(link.textContent).toBe('Sign in');
    // Only the sign-in screen itself (at the root) is no place to come back to.
    expect(link.getAttribute('href')).toBe('/sign-in?next=%2Fdocs%2Fsign-in');
  });

  it('on a phone the account is still there, named by the member, the avatar standing for them', async () => {
    await viewport(390);
    try {
      act(() => sessionStarted({ subject: 'ada', name: 'Ada Lovelace', email: null }));
      shell('sidenav');
      const button = accountButton('Ada Lovelace');
      expect(button.querySelector('.avatar--initials')?.textContent).toBe('AL');
      expect(accountMenu().getByRole('button', { name: 'Sign out' })).toBeTruthy();
    } finally {
      await viewport(1024);
    }
  });
});

describe('<Shell> layouts on a wide window', () => {
  it('home: the main menu in the side drawer too, never in the top bar, and no tab bar', () => {
    const container = shell('home');
    expect(container.querySelector('.tabbar')).toBeNull();
    expect(container.firstElementChild?.className).toBe('app app--home');
    expect(topBar().queryByRole('navigation')).toBeNull();
    const aside = container.querySelector('aside') as HTMLElement;
    expect(within(aside).getByRole('link', { name: 'Home' })).toBeTruthy();
    expect(container.querySelector('dialog')).toBeNull();
    expect(topBar().queryByRole('button', { name: 'Open menu' })).toBeNull();
  });

  it('sidenav: the main menu in a side drawer, not in the top bar, with no collections menu', () => {
    const container = shell('sidenav');
    expect(topBar().queryByRole('navigation')).toBeNull();
    const aside = container.querySelector('aside') as HTMLElement;
    expect(within(aside).getByRole('navigation', { name: 'Main' })).toBeTruthy();
    expect(within(aside).queryByRole('navigation', { name: 'Collections' })).toBeNull();
    expect(container.querySelector('dialog')).toBeNull();
  });

  it('admin: the side drawer adds the collections menu', () => {
    const container = shell('admin');
    expect(container.firstElementChild?.className).toBe('app app--admin');
    const aside = container.querySelector('aside') as HTMLElement;
    expect(within(aside).getByRole('navigation', { name: 'Collections' })).toBeTruthy();
  });

  it('a skip link leads to the content, which can take focus', () => {
    shell('dashboard');
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(skip.getAttribute('href')).toBe('#main');
    const main = screen.getByRole('main');
    expect(main.id).toBe('main');
    expect(main.tabIndex).toBe(-1);
    expect(main.className).toBe('content content--dashboard');
    expect(within(main).getByText('content')).toBeTruthy();
  });

  it('the brand leads home', () => {
    shell('sidenav');
    expect(topBar().getByRole('link', { name: 'Circle' }).getAttribute('href')).toBe('/home');
  });

  it('draws the logo in the theme’s colours, with no colour of its own that another theme’s bar would show as a tile', () => {
    shell('sidenav');
    const logo = topBar().getByRole('link', { name: 'Circle' }).querySelector('svg')!;
    expect(logo.getAttribute('aria-hidden')).toBe('true');
    const painted = [...logo.querySelectorAll('*')].flatMap((part) => [part.getAttribute('fill'), part.getAttribute('stroke')]);
    expect(painted.filter((colour) => colour && colour !== 'none' && colour !== 'currentColor')).toEqual([]);
    expect(logo.querySelector('rect')).toBeNull();
    expect(logo.querySelector('.topbar__logo-dot')).not.toBeNull();
  });
});

describe('<Shell> on a narrow window', () => {
  afterEach(() => viewport(1024));

  const menuButton = () => topBar().getByRole('button', { name: 'Open menu' });
  const drawer = (container: HTMLElement) => container.querySelector('dialog') as HTMLDialogElement;

  /** The shell on a phone, once the code of its drawer (loaded after the first render) is in. */
  async function narrowShell(layout: 'home' | 'sidenav' | 'admin') {
    await viewport(400);
    const container = shell(layout);
    await waitFor(() => expect(drawer(container)).not.toBeNull());
    return container;
  }

  it('home: no menu in the top bar and no side drawer, a closed modal drawer behind a menu button, as everywhere', async () => {
    const container = await narrowShell('home');
    expect(topBar().queryByRole('navigation')).toBeNull();
    expect(container.querySelector('aside')).toBeNull();
    expect(menuButton().getAttribute('aria-expanded')).toBe('false');
    expect(drawer(container).open).toBe(false);
  });

  it('the menu button opens a modal drawer with the main menu, and its close button closes it', async () => {
    const container = await narrowShell('sidenav');
    expect(container.querySelector('aside')).toBeNull();
    const user = userEvent.setup();
    await user.click(menuButton());

    expect(menuButton().getAttribute('aria-expanded')).toBe('true');
    const dialog = screen.getByRole('dialog', { name: 'Main' });
    expect(drawer(container).open).toBe(true);
    expect(within(dialog).getByRole('navigation', { name: 'Main' })).toBeTruthy();
    expect(within(dialog).queryByRole('navigation', { name: 'Collections' })).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Close menu' }));
    expect(drawer(container).open).toBe(false);
    expect(menuButton().getAttribute('aria-expanded')).toBe('false');
  });

  it('admin: the modal drawer holds the collections menu too', async () => {
    await narrowShell('admin');
    await userEvent.setup().click(menuButton());
    expect(within(screen.getByRole('dialog')).getByRole('navigation', { name: 'Collections' })).toBeTruthy();
  });

  it('a click on the backdrop closes the drawer, a click inside it does not', async () => {
    const container = await narrowShell('sidenav');
    const user = userEvent.setup();
    await user.click(menuButton());

    await user.click(container.querySelector('.drawer__inner') as HTMLElement);
    expect(drawer(container).open).toBe(true);

    await user.click(drawer(container));
    expect(drawer(container).open).toBe(false);
    expect(menuButton().getAttribute('aria-expanded')).toBe('false');
  });

  it('following a link in the drawer closes it, even to the screen already shown', async () => {
    window.history.replaceState(null, '', '/home');
    const container = await narrowShell('sidenav');
    const user = userEvent.setup();
    await user.click(menuButton());
    await user.click(within(screen.getByRole('dialog')).getByRole('link', { name: 'Home' }));
    expect(drawer(container).open).toBe(false);
    expect(menuButton().getAttribute('aria-expanded')).toBe('false');
  });

  it('the drawer closes when the screen changes by other means (a link in the page, back)', async () => {
    window.history.replaceState(null, '', '/home');
    const container = await narrowShell('sidenav');
    await userEvent.setup().click(menuButton());
    act(() => navigate('/settings'));
    expect(drawer(container).open).toBe(false);
    expect(menuButton().getAttribute('aria-expanded')).toBe('false');
  });

  it('a tab bar of the main places, the current one marked, on every layout', async () => {
    window.history.replaceState(null, '', '/dashboard');
    const container = await narrowShell('home');
    const tabs = container.querySelector('nav.tabbar') as HTMLElement;
    expect(tabs.getAttribute('aria-label')).toBe('Main');
    expect(tabs.querySelector('ul')?.className).toBe('nav-list nav-list--bar');
    const links = within(tabs).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Home', '/home'],
      ['Profile', '/profile'],
      ['Settings', '/settings'],
      ['Dashboard', '/dashboard'],
    ]);
    expect(within(tabs).getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page');
  });

  it('growing past the breakpoint trades the modal drawer for the side drawer', async () => {
    const container = await narrowShell('sidenav');
    expect(menuButton().hasAttribute('disabled')).toBe(false);
    await viewport(1024);
    expect(container.querySelector('dialog')).toBeNull();
    expect(container.querySelector('aside')).not.toBeNull();
    // And the tab bar for the side menu, which has the same places.
    expect(container.querySelector('.tabbar')).toBeNull();
  });
});

describe('<Shell> prerendered home', () => {
  afterEach(() => act(() => setRenderMode('live')));

  it('holds the side drawer for wide windows only and the menu button for narrow ones, as every layout', () => {
    act(() => setRenderMode('static'));
    const container = shell('home');
    expect(topBar().queryByRole('navigation')).toBeNull();
    expect(container.querySelector('.topbar__menu')?.className).toBe('icon-button topbar__menu only-narrow');
    expect(container.querySelector('aside')?.className).toBe('drawer drawer--side only-wide');
    expect(container.querySelector('dialog')).toBeNull();
    // The phone's tab bar too: the stylesheet shows it under the breakpoint only.
    expect(container.querySelector('nav.tabbar')).not.toBeNull();
  });

  it('the built page says the menu is closed: no effect runs before it is shown', () => {
    setRenderMode('static');
    const html = renderToString(
      <Router ssrPath="/settings">
        <Shell layout="sidenav">
          <p>content</p>
        </Shell>
      </Router>,
    );
    const page = new DOMParser().parseFromString(html, 'text/html');
    const menu = page.querySelector('.topbar__menu');
    expect(menu?.getAttribute('aria-expanded')).toBe('false');
    expect(menu?.hasAttribute('disabled')).toBe(true);
    expect(page.querySelector('dialog')).toBeNull();
  });
});
