import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Shell } from './Shell';
import { sessionEnded, sessionStarted } from '../../state/auth';
import { setRenderMode } from '../../state/render-mode';

const session = vi.hoisted(() => ({ endSession: vi.fn(async () => undefined) }));
vi.mock('../../state/session', () => session);

afterEach(() => {
  act(() => sessionEnded('signed-out'));
  session.endSession.mockClear();
  window.history.replaceState(null, '', '/');
});

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

  it('signed in: the member’s name and a Sign out action that ends the session', async () => {
    act(() => sessionStarted({ subject: 'ada', name: 'Ada Lovelace', email: 'ada@circle.example.org' }));
    render(
      <Shell layout="home">
        <p>content</p>
      </Shell>,
    );
    expect(topBar().getByText('Ada Lovelace')).toBeTruthy();
    expect(topBar().queryByRole('link', { name: 'Sign in' })).toBeNull();
    await userEvent.setup().click(topBar().getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(session.endSession).toHaveBeenCalledTimes(1));
  });

  it('follows the session: signing out shows the Sign in link again', () => {
    act(() => sessionStarted({ subject: 'grace', name: 'Grace Hopper', email: null }));
    render(
      <Shell layout="home">
        <p>content</p>
      </Shell>,
    );
    expect(topBar().getByText('Grace Hopper')).toBeTruthy();
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
