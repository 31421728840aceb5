import { type ReadonlySignal, signal } from '@preact/signals-core';

type MemberParts = typeof import('./member-parts');

/**
 * What the shell shows a signed-in member only (member-parts.ts) is code a visitor never runs, kept
 * out of the first load. It loads once a member is signed in: before the first render of a visit
 * that starts signed in (boot.tsx), at once after a sign-in during the visit (the shell asks).
 */
const loaded = signal<MemberParts | null>(null);
let loading: Promise<void> | undefined;

/** The member's parts of the shell once their code is in, else null. */
export const memberParts: ReadonlySignal<MemberParts | null> = loaded;

/** Loads their code, once; a failed load (offline, before the worker has it) is tried again at the next call. */
export function loadMemberParts(): Promise<void> {
  loading ??= import('./member-parts').then(
    (parts) => {
      loaded.value = parts;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
