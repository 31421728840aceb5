import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { ReactNode } from 'react';
import { MainNav } from './NavLinks';
import { AdminNav } from './AdminNav';
import { sessionEnded, sessionStarted } from '../../state/auth';

afterEach(() => act(() => sessionEnded('signed-out')));

function at(path: string, ui: ReactNode) {
  const location = memoryLocation({ path, record: true });
  render(<Router hook={location.hook}>{ui}</Router>);
  return location;
}

/** The links that say they are the current page, by name. */
const current = () =>
  screen
    .getAllByRole('link')
    .filter((l) => l.getAttribute('aria-current') !== null)
    .map((l) => [l.textContent, l.getAttribute('aria-current')]);

const signIn = (roles = ['member', 'admin']) => act(() => sessionStarted({ subject: 'ada', name: 'Ada', email: null, roles }));

describe('MainNav', () => {
  it('lists the main screens in order, by name and address', () => {
    at('/home', <MainNav variant="bar" />);
    expect(screen.getAllByRole('link').map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['Home', '/home'],
      ['Profile', '/profile'],
      ['Settings', '/settings'],
      ['Dashboard', '/dashboard'],
    ]);
    expect(screen.getByRole('list').className).toBe('nav-list nav-list--bar');
  });

  it('marks the screen shown as the current page', () => {
    at('/settings', <MainNav variant="drawer" />);
    expect(current()).toEqual([['Settings', 'page']]);
    expect(screen.getByRole('list').className).toBe('nav-list nav-list--drawer');
  });

  it('marks no main link on a screen below one (a main link matches its own address only)', () => {
    at('/profile/edit', <MainNav variant="bar" />);
    expect(current()).toEqual([]);
  });

  it('offers Admin only to an admin: not signed out, not to a member', () => {
    at('/home', <MainNav variant="bar" />);
    expect(screen.queryByRole('link', { name: 'Admin' })).toBeNull();
    signIn(['member']);
    expect(screen.queryByRole('link', { name: 'Admin' })).toBeNull();
    signIn();
    expect(screen.getByRole('link', { name: 'Admin' }).getAttribute('href')).toBe('/admin');
  });

  it.each([
    ['/admin', true],
    ['/admin/accounts', true],
    ['/admin/accounts/42', true],
    ['/administrators', false],
    ['/home/admin/', false],
  ])('marks Admin as current at %s: %s (the admin screen and every screen below it)', (path, isCurrent) => {
    signIn();
    at(path, <MainNav variant="drawer" />);
    expect(screen.getByRole('link', { name: 'Admin' }).getAttribute('aria-current')).toBe(isCurrent ? 'page' : null);
  });

  it('tells the caller when a link is followed, and goes there', async () => {
    signIn();
    const onNavigate = vi.fn();
    const location = at('/home', <MainNav variant="drawer" onNavigate={onNavigate} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('link', { name: 'Settings' }));
    await user.click(screen.getByRole('link', { name: 'Admin' }));
    expect(onNavigate).toHaveBeenCalledTimes(2);
    expect(location.history).toEqual(['/home', '/settings', '/admin']);
  });
});

describe('AdminNav', () => {
  it('is a titled menu of every collection', () => {
    at('/admin', <AdminNav />);
    const menu = screen.getByRole('navigation', { name: 'Collections' });
    expect(within(menu).getByRole('heading', { name: 'Collections' })).toBeTruthy();
    expect(
      within(menu)
        .getAllByRole('link')
        .map((l) => [l.textContent, l.getAttribute('href')]),
    ).toEqual([
      ['accounts', '/admin/accounts'],
      ['notifications', '/admin/notifications'],
      ['subscription', '/admin/subscription'],
      ['symbols', '/admin/symbols'],
    ]);
  });

  it('marks the collection shown, and tells the caller when one is chosen', async () => {
    const onNavigate = vi.fn();
    const location = at('/admin/symbols', <AdminNav onNavigate={onNavigate} />);
    expect(current()).toEqual([['symbols', 'page']]);
    await userEvent.setup().click(screen.getByRole('link', { name: 'accounts' }));
    expect(onNavigate).toHaveBeenCalledTimes(1);
    expect(location.history.at(-1)).toBe('/admin/accounts');
  });
});

describe('MainNav, as loaded', () => {
  it('lists the main screens with their icons when the module is freshly loaded', async () => {
    // The list is built when the module loads: a fresh load sees it as the code has it.
    vi.resetModules();
    const testing = await import('@testing-library/react');
    const { MainNav: FreshMainNav } = await import('./NavLinks');
    const { Icon } = await import('../../ui/icons');
    const iconOf = (name: 'home' | 'profile' | 'settings' | 'dashboard') => testing.render(<Icon name={name} />).container.innerHTML;
    const expectedIcons = [iconOf('home'), iconOf('profile'), iconOf('settings'), iconOf('dashboard')];
    testing.cleanup();
    window.history.replaceState(null, '', '/home');
    const { container } = testing.render(<FreshMainNav variant="bar" />);
    try {
      const links = testing.screen.getAllByRole('link');
      expect(links.map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
        ['Home', '/home'],
        ['Profile', '/profile'],
        ['Settings', '/settings'],
        ['Dashboard', '/dashboard'],
      ]);
      expect(links.map((l) => l.getAttribute('aria-current'))).toEqual(['page', null, null, null]);
      expect([...container.querySelectorAll('svg')].map((svg) => svg.outerHTML)).toEqual(expectedIcons);
    } finally {
      testing.cleanup();
      window.history.replaceState(null, '', '/');
    }
  });
});
