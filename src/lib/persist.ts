import { effect, signal, untracked, type Signal } from '@preact/signals-core';

/** Turns whatever was stored into a valid value, or null when nothing of it can be used. */
export type Decoder<T> = (raw: unknown) => T | null;

function storage(): Storage | null {
  try {
    // Stryker disable BlockStatement: an emptied catch below returns undefined instead of null, which every caller treats as no storage too
    return globalThis.localStorage ?? null;
  } catch {
    // Stryker restore BlockStatement
    // Storage can be denied outright (privacy settings, sandboxed frames).
    return null;
  }
}

/** Reads a persisted JSON value; a missing, malformed or foreign value gives the fallback. */
export function readPersisted<T>(key: string, decode: Decoder<T>, fallback: T): T {
  try {
    // Stryker disable next-line OptionalChaining: with no storage, getItem throws into the catch, which gives the fallback too
    const raw = storage()?.getItem(key);
    if (raw === null || raw === undefined) return fallback;
    return decode(JSON.parse(raw)) ?? fallback;
  } catch {
    return fallback;
  }
}

/** Writes a value as JSON; false when storage refused it (quota, denied), which callers may report. */
export function writePersisted(key: string, value: unknown): boolean {
  try {
    const s = storage();
    // Stryker disable next-line ConditionalExpression: with no storage, setItem throws into the catch, which returns false too
    if (!s) return false;
    s.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}

export function removePersisted(key: string): void {
  try {
    // Stryker disable next-line OptionalChaining: with no storage, removeItem throws into the catch, which ignores it too
    storage()?.removeItem(key);
  } catch {
    // Nothing to do: the value simply stays.
  }
}

/** Listeners told when a write was refused, so the UI can say the change won't survive a reload. */
const refusedListeners = new Set<(key: string) => void>();
export function onPersistRefused(listener: (key: string) => void): () => void {
  refusedListeners.add(listener);
  return () => refusedListeners.delete(listener);
}

/** A signal loaded from storage and written back on every change. */
export function persistedSignal<T>(key: string, decode: Decoder<T>, fallback: T): Signal<T> {
  const s = signal(readPersisted(key, decode, fallback));
  let first = true;
  effect(() => {
    const value = s.value;
    if (first) {
      first = false;
      return;
    }
    // Listeners run outside this effect's tracking: a signal they read or write (a snackbar, say)
    // must not become a dependency of the write, or writing it here is a cycle.
    if (!writePersisted(key, value))
      untracked(() => {
        for (const listener of refusedListeners) listener(key);
      });
  });
  return s;
}

export const decodeBoolean: Decoder<boolean> = (raw) => (typeof raw === 'boolean' ? raw : null);
