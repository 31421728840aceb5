import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';

const server = vi.hoisted(() => ({
  unreadCount: vi.fn<() => Promise<number>>(),
  markRead: vi.fn<(id: string) => Promise<number>>(),
  list: vi.fn(),
}));
vi.mock('../../api/instance', () => ({ api: { inbox: () => server } }));

let NotificationBell: typeof import('./NotificationBell').default;
let inbox: typeof import('../../state/inbox');
let profile: typeof import('../../profile/store');
beforeEach(async () => {
  vi.resetModules();
  inbox = await import('../../state/inbox');
  profile = await import('../../profile/store');
  ({ default: NotificationBell } = await import('./NotificationBell'));
});
afterEach(() => {
  for (const fn of Object.values(server)) fn.mockReset();
  localStorage.clear();
});

const renderAt = (path: string) =>
  render(
    <Router hook={memoryLocation({ path }).hook}>
      <NotificationBell />
    </Router>,
  );
const bell = () => screen.getByRole('link');

describe('<NotificationBell>', () => {
  it('reads the unread count and shows it, its name saying it in words; leads to the inbox', async () => {
    server.unreadCount.mockResolvedValue(3);
    renderAt('/home');
    expect(bell().getAttribute('aria-label')).toBe('Notifications');
    await vi.waitFor(() => expect(bell().getAttribute('aria-label')).toBe('3 unread notifications'));
    expect(bell().getAttribute('href')).toBe('/notifications');
    expect(bell().getAttribute('aria-current')).toBeNull();
    expect(bell().querySelector('.bell__count')?.textContent).toBe('3');
    // The first count is in the name, not said out loud.
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('says a change of the count out loud, and shows no number at none', async () => {
    server.unreadCount.mockResolvedValue(1);
    server.markRead.mockResolvedValue(0);
    renderAt('/notifications');
    await vi.waitFor(() => expect(bell().getAttribute('aria-label')).toBe('1 unread notification'));
    expect(bell().getAttribute('aria-current')).toBe('page');
    await inbox.markNotification('n1', true);
    await vi.waitFor(() => expect(screen.getByRole('status').textContent).toBe('No unread notifications'));
    expect(bell().getAttribute('aria-label')).toBe('No unread notifications');
    expect(bell().querySelector('.bell__count')).toBeNull();
  });

  it('shows 99+ past 99', async () => {
    server.unreadCount.mockResolvedValue(100);
    renderAt('/home');
    await vi.waitFor(() => expect(bell().querySelector('.bell__count')?.textContent).toBe('99+'));
  });

  it('reads the count again when the member’s profile comes: the welcome is no longer counted', async () => {
    server.unreadCount.mockResolvedValueOnce(2).mockResolvedValueOnce(1);
    renderAt('/home');
    await vi.waitFor(() => expect(bell().getAttribute('aria-label')).toBe('2 unread notifications'));
    act(() =>
      profile.setProfileState('fetch:success', {
        profile: { id: 'p-1', displayName: 'Ada', username: 'ada', email: 'a@example.org', interests: [], createdAt: '', updatedAt: '' },
      }),
    );
    await vi.waitFor(() => expect(bell().getAttribute('aria-label')).toBe('1 unread notification'));
    expect(server.unreadCount).toHaveBeenCalledTimes(2);
  });
});
