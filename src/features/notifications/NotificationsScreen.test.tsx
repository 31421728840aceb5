import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Notification } from '../../state/inbox';

const server = vi.hoisted(() => ({
  list: vi.fn<(language: string) => Promise<{ items: Notification[]; language: string }>>(),
  markRead: vi.fn<(id: string) => Promise<number>>(),
  markUnread: vi.fn<(id: string) => Promise<number>>(),
  markAllRead: vi.fn<(lastReadAt?: string) => Promise<number>>(),
  unreadCount: vi.fn<() => Promise<number>>(),
}));
vi.mock('../../api/instance', () => ({ api: { inbox: () => server } }));

const note = (id: string, title: string, read: boolean, createdAt: string): Notification => ({
  id,
  title,
  body: '',
  level: 'info',
  read,
  createdAt,
});
const LIST = [note('2', 'New study group', false, '2026-11-19T17:30:00Z'), note('1', 'Welcome to Circle', false, '2026-11-18T09:00:00Z')];

// The inbox keeps its state in its module: each test starts with a fresh one.
let NotificationsScreen: typeof import('./NotificationsScreen').default;
let connectivity: typeof import('../../lib/connectivity');
let i18n: typeof import('../../i18n');
beforeEach(async () => {
  vi.resetModules();
  connectivity = await import('../../lib/connectivity');
  i18n = await import('../../i18n');
  ({ default: NotificationsScreen } = await import('./NotificationsScreen'));
  server.list.mockImplementation(async (language) => ({ items: LIST, language }));
});
afterEach(() => {
  for (const fn of Object.values(server)) fn.mockReset();
  localStorage.clear();
});

const list = () => screen.getByRole('list');

describe('<NotificationsScreen>', () => {
  it('lists every notification under the screen title, with the unread count and a way to mark them all', async () => {
    render(<NotificationsScreen />);
    expect(screen.getByRole('heading', { level: 1, name: 'Notifications' }).tabIndex).toBe(-1);
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(await screen.findByText('2 unread notifications')).toBeTruthy();
    expect(
      within(list())
        .getAllByRole('heading', { level: 2 })
        .map((h) => h.textContent),
    ).toEqual(['New study group', 'Welcome to Circle']);
    expect(screen.getByRole('button', { name: 'Mark all as read' })).toBeTruthy();
  });

  it('marks one read; marks all read and puts the focus on what says so, the button gone', async () => {
    const user = userEvent.setup();
    server.markRead.mockResolvedValue(1);
    server.markAllRead.mockResolvedValue(0);
    render(<NotificationsScreen />);
    await user.click(await screen.findByRole('button', { name: 'Mark as read: New study group' }));
    expect(server.markRead).toHaveBeenCalledWith('2');
    expect(screen.getByText('1 unread notification')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Mark all as read' }));
    expect(server.markAllRead).toHaveBeenCalledWith('2026-11-19T17:30:00Z');
    const summary = screen.getByText('You have read everything.');
    expect(document.activeElement).toBe(summary);
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
  });

  it('says how many marks wait on the device while offline, and nothing once they are sent', async () => {
    const user = userEvent.setup();
    render(<NotificationsScreen />);
    await screen.findByText('2 unread notifications');
    act(() => {
      connectivity.setConnectivity(false);
    });
    await user.click(screen.getByRole('button', { name: 'Mark as read: Welcome to Circle' }));
    expect(screen.getByText('1 mark waits on this device: it is sent when you are back online.')).toBeTruthy();
    expect(server.markRead).not.toHaveBeenCalled();
    server.markRead.mockResolvedValue(1);
    act(() => {
      connectivity.setConnectivity(true);
    });
    await vi.waitFor(() => expect(screen.queryByText(/waits on this device/)).toBeNull());
    expect(server.markRead).toHaveBeenCalledWith('1');
  });

  it('says which notifications are in another language than the screen, and marks the list with it', async () => {
    await act(() => i18n.loadLanguage('fr'));
    server.list.mockResolvedValue({ items: LIST, language: 'en' });
    render(<NotificationsScreen />);
    expect(
      await screen.findByText('Certaines notifications sont affichées en anglais : elles n’existent pas dans votre langue.'),
    ).toBeTruthy();
    expect(list().getAttribute('lang')).toBe('en');
  });

  it('says when there are none, and why a failed read failed, with a retry', async () => {
    const user = userEvent.setup();
    server.list.mockRejectedValueOnce(new Error('down')).mockResolvedValueOnce({ items: [], language: 'en' });
    render(<NotificationsScreen />);
    expect((await screen.findByRole('alert')).textContent).toContain('down');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No notifications yet. News from your circle will show here.')).toBeTruthy();
    expect(screen.getByText('You have read everything.')).toBeTruthy();
  });
});
