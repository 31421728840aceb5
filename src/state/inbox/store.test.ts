import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Notification } from './marks';

const server = vi.hoisted(() => ({
  list: vi.fn<(language: string) => Promise<{ items: Notification[]; language: string }>>(),
  unreadCount: vi.fn<() => Promise<number>>(),
  markRead: vi.fn<(id: string) => Promise<number>>(),
  markUnread: vi.fn<(id: string) => Promise<number>>(),
  markAllRead: vi.fn<(lastReadAt?: string) => Promise<number>>(),
}));
vi.mock('../../api/instance', () => ({ api: { inbox: () => server } }));

const note = (id: string, createdAt: string, read = false): Notification => ({ id, title: id, body: '', level: 'info', read, createdAt });
const SEED = [note('3', '2026-11-20T08:15:00Z', true), note('2', '2026-11-19T17:30:00Z'), note('1', '2026-11-18T09:00:00Z')];

// The model keeps its state in the module: each test loads it afresh, with the modules it follows.
let inbox: typeof import('./index');
let connectivity: typeof import('../../lib/connectivity');
let auth: typeof import('../auth');
let i18n: typeof import('../../i18n');
let snackbar: typeof import('../../ui/snackbar/store');
let ApiError: typeof import('../../api/errors').ApiError;

beforeEach(async () => {
  vi.resetModules();
  connectivity = await import('../../lib/connectivity');
  auth = await import('../auth');
  i18n = await import('../../i18n');
  snackbar = await import('../../ui/snackbar/store');
  // The model's own: an error of another copy of the module would be no ApiError to it.
  ({ ApiError } = await import('../../api/errors'));
  inbox = await import('./index');
  server.list.mockImplementation(async (language) => ({ items: SEED, language }));
  server.unreadCount.mockResolvedValue(2);
  auth.sessionStarted({ subject: 'ada', name: 'Ada', email: null });
});

afterEach(() => {
  for (const fn of Object.values(server)) fn.mockReset();
  localStorage.clear();
});

/** Lets the model's promises (the client's lazy load, the answers) settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const reads = () => inbox.inboxItems.value?.map((n) => `${n.id}:${n.read}`);

describe('the inbox model', () => {
  it('reads the list in the language on screen, and its unread count with it', async () => {
    const stop = inbox.showInbox();
    await settle();
    expect(server.list).toHaveBeenCalledWith('en', expect.any(AbortSignal));
    expect(reads()).toEqual(['3:true', '2:false', '1:false']);
    expect(inbox.unreadCount.value).toBe(2);
    expect(inbox.inboxLanguage.value).toBe('en');
    expect(JSON.parse(localStorage.getItem('inbox.list')!)).toEqual({ items: SEED, language: 'en' });
    stop();
  });

  it('reads it again when the language changes while a screen shows it, and not after', async () => {
    const stop = inbox.showInbox();
    await settle();
    await i18n.loadLanguage('fr');
    await settle();
    expect(server.list.mock.calls.map(([language]) => language)).toEqual(['en', 'fr']);
    stop();
    await i18n.loadLanguage('de');
    await settle();
    expect(server.list).toHaveBeenCalledTimes(2);
  });

  it('says which of its languages are not the one on screen, and the list language when it is one', async () => {
    server.list.mockResolvedValueOnce({ items: SEED, language: 'en' }).mockResolvedValueOnce({ items: SEED, language: 'fr, en' });
    await i18n.loadLanguage('fr');
    inbox.showInbox();
    await settle();
    expect([inbox.otherLanguages.value, inbox.listLanguage.value]).toEqual([['en'], 'en']);
    await inbox.loadInbox();
    expect([inbox.otherLanguages.value, inbox.listLanguage.value]).toEqual([['en'], undefined]);
  });

  it('marks one read at once, sends it, and takes the count the server answers', async () => {
    server.markRead.mockResolvedValue(1);
    inbox.showInbox();
    await settle();
    const sent = inbox.markNotification('2', true);
    expect(reads()).toEqual(['3:true', '2:true', '1:false']);
    expect(inbox.unreadCount.value).toBe(1);
    await sent;
    expect(server.markRead).toHaveBeenCalledWith('2');
    expect(inbox.marksWaiting.value).toBe(0);
    expect(JSON.parse(localStorage.getItem('inbox.marks')!)).toEqual({ ids: {} });
    // What the server now holds is kept for the next visit.
    expect(JSON.parse(localStorage.getItem('inbox.list')!).items[1].read).toBe(true);
    server.markUnread.mockResolvedValue(2);
    await inbox.markNotification('2', false);
    expect(server.markUnread).toHaveBeenCalledWith('2');
    expect([reads(), inbox.unreadCount.value]).toEqual([['3:true', '2:false', '1:false'], 2]);
  });

  it('offline, keeps the marks on the device, counted, and sends them in order once back online', async () => {
    inbox.showInbox();
    await settle();
    connectivity.setConnectivity(false);
    await inbox.markNotification('1', true);
    await inbox.markNotification('3', false);
    expect(server.markRead).not.toHaveBeenCalled();
    expect(inbox.marksWaiting.value).toBe(2);
    expect(inbox.unreadCount.value).toBe(2);
    expect(JSON.parse(localStorage.getItem('inbox.marks')!)).toEqual({ ids: { '1': true, '3': false } });
    const order: string[] = [];
    server.markRead.mockImplementation(async (id) => {
      order.push(`read ${id}`);
      return 1;
    });
    server.markUnread.mockImplementation(async (id) => {
      order.push(`unread ${id}`);
      return 2;
    });
    connectivity.setConnectivity(true);
    await vi.waitFor(() => expect(inbox.marksWaiting.value).toBe(0));
    expect(order).toEqual(['read 1', 'unread 3']);
    expect([reads(), inbox.unreadCount.value]).toEqual([['3:false', '2:false', '1:true'], 2]);
  });

  it('sends at start what an earlier visit left waiting', async () => {
    localStorage.setItem('inbox.marks', JSON.stringify({ ids: { '2': true } }));
    vi.resetModules();
    inbox = await import('./index');
    server.markRead.mockResolvedValue(1);
    inbox.startInbox();
    await vi.waitFor(() => expect(server.markRead).toHaveBeenCalledWith('2'));
  });

  it('marks all read up to the newest it showed, then what was marked since', async () => {
    server.markAllRead.mockResolvedValue(0);
    server.markUnread.mockResolvedValue(1);
    inbox.showInbox();
    await settle();
    connectivity.setConnectivity(false);
    await inbox.markNotification('2', false);
    await inbox.markAllRead();
    await inbox.markNotification('1', false);
    expect([reads(), inbox.unreadCount.value, inbox.marksWaiting.value]).toEqual([['3:true', '2:true', '1:false'], 1, 2]);
    connectivity.setConnectivity(true);
    await vi.waitFor(() => expect(inbox.marksWaiting.value).toBe(0));
    expect(server.markAllRead).toHaveBeenCalledWith('2026-11-20T08:15:00Z');
    expect(server.markUnread.mock.calls).toEqual([['1']]);
    expect(inbox.unreadCount.value).toBe(1);
  });

  it('drops a mark the server refuses for good, says so and reads the list again; keeps one the server could not take now', async () => {
    inbox.showInbox();
    await settle();
    server.markRead.mockRejectedValueOnce(new ApiError(503, { status: 503, error: 'Service Unavailable', message: 'busy' }));
    await inbox.markNotification('2', true);
    expect(inbox.marksWaiting.value).toBe(1);
    expect(snackbar.snackbar.value).toBeNull();
    server.markRead.mockRejectedValueOnce(new ApiError(404, { status: 404, error: 'Not Found', message: 'gone' }));
    await inbox.sendMarks();
    expect(inbox.marksWaiting.value).toBe(0);
    expect(snackbar.snackbar.value?.message).toBe('That notification is no longer there, so it could not be marked.');
    await settle();
    expect(server.list).toHaveBeenCalledTimes(2);
  });

  it('starts afresh for a new viewer: the last one’s list and count are not shown', async () => {
    inbox.showInbox();
    await settle();
    server.list.mockImplementation(() => new Promise(() => undefined));
    auth.sessionEnded('signed-out');
    expect([inbox.inboxItems.value, inbox.unreadCount.value]).toEqual([null, null]);
    expect(localStorage.getItem('inbox.list')).toBeNull();
    await settle();
    expect(server.list).toHaveBeenCalledTimes(2);
  });

  it('reads the list and the count again when the member’s profile comes or goes (the welcome), once it has shown them', async () => {
    inbox.profileChanged();
    await settle();
    expect([server.list.mock.calls.length, server.unreadCount.mock.calls.length]).toEqual([0, 0]);
    inbox.showInbox();
    await settle();
    server.unreadCount.mockResolvedValue(1);
    inbox.profileChanged();
    await settle();
    expect(server.list).toHaveBeenCalledTimes(2);
    expect(inbox.unreadCount.value).toBe(1);
  });

  it('keeps the count it has when reading it fails', async () => {
    await inbox.loadUnreadCount();
    expect(inbox.unreadCount.value).toBe(2);
    server.unreadCount.mockRejectedValue(new TypeError('offline'));
    await inbox.loadUnreadCount();
    expect(inbox.unreadCount.value).toBe(2);
  });
});
