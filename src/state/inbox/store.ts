import { batch, computed, effect, signal } from '@preact/signals-core';
import { ApiError, isAbort } from '../../api/errors';
import { INBOX_LIST_KEY, INBOX_MARKS_KEY } from '../../config/storage-keys';
import { activeLanguage, withWords } from '../../i18n';
import { enInbox } from '../../i18n/en-inbox';
import { isOnline } from '../../lib/connectivity';
import { readPersisted, removePersisted, writePersisted } from '../../lib/persist';
import { showSnackbar } from '../../ui/snackbar/store';
import { isLoggedIn } from '../auth';
import { recordChange } from '../history';
import {
  applyMarks,
  countUnread,
  decodeMarks,
  type Marks,
  newestOf,
  nextToSend,
  NO_MARKS,
  type Notification,
  type Sent,
  waiting,
  withAllRead,
  withMark,
  withoutSent,
  withSentApplied,
} from './marks';

/** The list as the server last answered it, in the language(s) it named; kept for the next visit. */
interface Kept {
  items: Notification[];
  language: string;
}

const decodeKept = (raw: unknown): Kept | null => {
  const kept = raw as Partial<Kept> | null;
  return Array.isArray(kept?.items) && typeof kept.language === 'string' ? (kept as Kept) : null;
};

// What the model tells the member (a mark refused for good) is in the inbox's words.
const t = withWords(enInbox);

// The API client loads with the first call, not with the code that shows the count.
const inboxApi = () => import('../../api/instance').then((m) => m.api.inbox());

const kept = signal<Kept | null>(readPersisted(INBOX_LIST_KEY, decodeKept, null));
/** The unread count the server last gave (its count, a mark's answer, or its list's). */
const serverUnread = signal<number | null>(null);
const marks = signal<Marks>(readPersisted(INBOX_MARKS_KEY, decodeMarks, NO_MARKS));
const loading = signal(false);
const failure = signal<unknown>(null);

/** The notifications as the member sees them, their marks made; null before the first read. */
export const inboxItems = computed(() => (kept.value ? applyMarks(kept.value.items, marks.value) : null));
/** The language(s) of their text, as the server named them (`fr`, or `fr, en` for a mixed list). */
export const inboxLanguage = computed(() => kept.value?.language ?? null);
export const inboxLoading = computed(() => loading.value);
/** Why the last read failed; null once one succeeds. */
export const inboxError = computed(() => failure.value);
/** The languages the text is in, as the server named them, that are not the one on screen. */
export const otherLanguages = computed(() => (kept.value?.language.split(', ') ?? []).filter((lang) => lang !== activeLanguage.value));
/** The language of the whole list when it is not the one on screen: the list's `lang`, for its reading. */
export const listLanguage = computed(() => {
  const languages = kept.value?.language.split(', ') ?? [];
  return languages.length === 1 && otherLanguages.value.length === 1 ? languages[0] : undefined;
});
/** Marks kept on this device until the server has them. */
export const marksWaiting = computed(() => waiting(marks.value));

/** The member's unread count with their marks made; null until the server has given one. */
export const unreadCount = computed(() => {
  const base = serverUnread.value;
  if (base === null) return null;
  const list = kept.value?.items;
  // What the marks not yet sent change, counted on the list they were made on.
  return list ? Math.max(0, base + countUnread(applyMarks(list, marks.value)) - countUnread(list)) : base;
});

function keep(next: Kept | null): void {
  kept.value = next;
  if (next) writePersisted(INBOX_LIST_KEY, next);
  else removePersisted(INBOX_LIST_KEY);
}

function setMarks(next: Marks, action: string, detail: unknown): void {
  marks.value = next;
  writePersisted(INBOX_MARKS_KEY, next);
  recordChange('inbox', action, detail);
}

let reading: AbortController | null = null;

/** Reads the notifications again, in the language on screen; a newer read cancels this one. */
export async function loadInbox(): Promise<void> {
  reading?.abort();
  const controller = new AbortController();
  reading = controller;
  loading.value = true;
  try {
    const { items, language } = await (await inboxApi()).list(activeLanguage.peek(), controller.signal);
    if (controller.signal.aborted) return;
    batch(() => {
      keep({ items, language });
      serverUnread.value = countUnread(items);
      failure.value = null;
    });
  } catch (error) {
    if (!controller.signal.aborted && !isAbort(error)) failure.value = error;
  } finally {
    if (reading === controller) loading.value = false;
  }
}

/** Reads the unread count alone (the bell's), without the notifications' text. */
export async function loadUnreadCount(): Promise<void> {
  try {
    serverUnread.value = await (await inboxApi()).unreadCount();
  } catch {
    // Offline or refused: the count kept (or none) stays until the next read.
  }
}

/** Whether a refused mark is one the server will never take (the notification is gone): else it waits. */
const refusedForGood = (error: unknown) =>
  error instanceof ApiError && error.status >= 400 && error.status < 500 && ![401, 408, 429].includes(error.status);

async function send(mark: Sent): Promise<number> {
  const api = await inboxApi();
  if (mark.kind === 'all') return api.markAllRead(mark.upTo ?? undefined);
  return mark.read ? api.markRead(mark.id) : api.markUnread(mark.id);
}

let sending: Promise<void> | null = null;

async function flush(): Promise<void> {
  for (let mark = nextToSend(marks.peek()); mark && isOnline.peek(); mark = nextToSend(marks.peek())) {
    const sent = mark;
    try {
      const unread = await send(sent);
      batch(() => {
        const list = kept.peek();
        if (list) keep({ ...list, items: withSentApplied(list.items, sent) });
        serverUnread.value = unread;
        setMarks(withoutSent(marks.peek(), sent), 'markSent', sent);
      });
    } catch (error) {
      if (!refusedForGood(error)) return;
      setMarks(withoutSent(marks.peek(), sent), 'markRefused', sent);
      showSnackbar({ message: t('inbox.markGone'), duration: 6000 });
      void loadInbox();
    }
  }
}

/**
 * Sends the marks that wait, one at a time in the order they were made, while online. A mark the
 * network or the server's trouble stops waits for the next try (back online, the next start); one
 * the server refuses for good (its notification is gone) is dropped, and the member told.
 */
export function sendMarks(): Promise<void> {
  // Cleared once settled (a later turn), never before it is set: a flush with nothing to send ends at once.
  sending ??= flush().finally(() => {
    sending = null;
  });
  return sending;
}

/** Marks a notification read (true) or unread (false) for the member: shown at once, sent when it can be. */
export function markNotification(id: string, read: boolean): Promise<void> {
  setMarks(withMark(marks.peek(), id, read), read ? 'markRead' : 'markUnread', { id });
  return sendMarks();
}

/** Marks read everything the member has seen: up to the newest notification of the list on screen. */
export function markAllRead(): Promise<void> {
  const items = kept.peek()?.items;
  if (!items) return Promise.resolve();
  setMarks(withAllRead(newestOf(items)), 'markAllRead', { upTo: newestOf(items) });
  return sendMarks();
}

let screens = 0;
let started = false;

/**
 * What the inbox follows once anything shows it: the language on screen (its text), who is signed
 * in (a new viewer starts afresh), the network coming back (the marks that wait).
 */
export function startInbox(): void {
  if (started) return;
  started = true;
  const changes = (read: () => unknown, then: () => void) => {
    let first = true;
    effect(() => {
      read();
      if (first) first = false;
      else then();
    });
  };
  changes(
    () => activeLanguage.value,
    () => screens > 0 && void loadInbox(),
  );
  changes(
    () => isLoggedIn.value,
    () => {
      // Whatever was shown, and the marks, were the last viewer's: sign-out removed them from the device.
      reading?.abort();
      batch(() => {
        keep(null);
        serverUnread.value = null;
        marks.value = readPersisted(INBOX_MARKS_KEY, decodeMarks, NO_MARKS);
      });
      if (screens > 0) void loadInbox();
      else if (isLoggedIn.peek()) void loadUnreadCount();
    },
  );
  changes(
    () => isOnline.value,
    () => isOnline.peek() && void sendMarks(),
  );
  if (marksWaiting.peek() > 0) void sendMarks();
}

/**
 * What the member is shown may have changed: their profile came or went, and the welcome that asks
 * for one with it. What the inbox holds is read again (the bell, which follows the profile, says so).
 */
export function profileChanged(): void {
  if (!kept.peek() && serverUnread.peek() === null) return;
  if (screens > 0 || kept.peek()) void loadInbox();
  void loadUnreadCount();
}

/** A screen shows the notifications: they are read again now, and while it shows them, as things change. */
export function showInbox(): () => void {
  startInbox();
  screens++;
  void loadInbox();
  return () => {
    screens--;
  };
}
