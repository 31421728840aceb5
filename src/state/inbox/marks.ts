import type { components } from '../../api/schema';

export type Notification = components['schemas']['Notification'];

/**
 * The read marks the member made that the server has not answered yet (offline, or still on their
 * way), kept on the device so that none is lost: a "mark all read" up to the newest notification the
 * member had seen, then each notification marked since, read (true) or unread (false).
 */
export interface Marks {
  /** Everything marked read, up to this `createdAt` (null: every notification); undefined when none waits. */
  all?: { upTo: string | null };
  ids: Readonly<Record<string, boolean>>;
}

export const NO_MARKS: Marks = { ids: {} };

/** One mark to send: everything up to a time, or one notification. */
export type Sent = { kind: 'all'; upTo: string | null } | { kind: 'one'; id: string; read: boolean };

const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What was stored under the marks' key, if it is marks; anything else is none. */
export function decodeMarks(raw: unknown): Marks | null {
  if (!isObject(raw) || !isObject(raw.ids) || !Object.values(raw.ids).every(isBoolean)) return null;
  const all = raw.all;
  if (all === undefined) return { ids: raw.ids as Record<string, boolean> };
  if (!isObject(all) || !(all.upTo === null || typeof all.upTo === 'string')) return null;
  return { all: { upTo: all.upTo }, ids: raw.ids as Record<string, boolean> };
}

const createdUpTo = (notification: Notification, upTo: string | null) =>
  upTo === null || Date.parse(notification.createdAt) <= Date.parse(upTo);

/** The notifications as the member sees them once the marks are made: the "all" first, then each one. */
export function applyMarks(items: readonly Notification[], marks: Marks): Notification[] {
  return items.map((notification) => {
    let read = notification.read;
    if (marks.all && createdUpTo(notification, marks.all.upTo)) read = true;
    read = marks.ids[notification.id] ?? read;
    return read === notification.read ? notification : { ...notification, read };
  });
}

export const countUnread = (items: readonly Notification[]): number => items.filter((n) => !n.read).length;

/** The marks with one more: the latest mark of a notification replaces an earlier one. */
export function withMark(marks: Marks, id: string, read: boolean): Marks {
  return { ...marks, ids: { ...marks.ids, [id]: read } };
}

/** Everything read up to `upTo`: the marks made before it say nothing more. */
export function withAllRead(upTo: string | null): Marks {
  return { all: { upTo }, ids: {} };
}

/** The next mark to send, in the order they were made; null when none waits. */
export function nextToSend(marks: Marks): Sent | null {
  if (marks.all) return { kind: 'all', upTo: marks.all.upTo };
  const [id, read] = Object.entries(marks.ids)[0] ?? [];
  return id === undefined || read === undefined ? null : { kind: 'one', id, read };
}

/** The marks once `sent` is answered; one made again since (the other way) still waits. */
export function withoutSent(marks: Marks, sent: Sent): Marks {
  if (sent.kind === 'all') return marks.all?.upTo === sent.upTo ? { ids: marks.ids } : marks;
  if (marks.ids[sent.id] !== sent.read) return marks;
  const { [sent.id]: _answered, ...rest } = marks.ids;
  return { ...marks, ids: rest };
}

/** The list as the server holds it once it has answered `sent`. */
export function withSentApplied(items: readonly Notification[], sent: Sent): Notification[] {
  return applyMarks(items, sent.kind === 'all' ? withAllRead(sent.upTo) : withMark(NO_MARKS, sent.id, sent.read));
}

/** How many marks wait to be sent. */
export const waiting = (marks: Marks): number => Object.keys(marks.ids).length + (marks.all ? 1 : 0);

/** The newest `createdAt` of the list: what a "mark all read" covers (null, everything, for an empty list). */
export function newestOf(items: readonly Notification[]): string | null {
  let newest: Notification | undefined;
  for (const n of items) if (!newest || Date.parse(n.createdAt) > Date.parse(newest.createdAt)) newest = n;
  return newest?.createdAt ?? null;
}
