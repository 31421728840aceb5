import { computed, signal } from '@preact/signals-core';

export interface SnackbarOptions {
  message: string;
  /** Label of the optional action button. */
  action?: string;
  onAction?: () => void;
  /** Milliseconds before it dismisses itself; without one it stays until dismissed or replaced. */
  duration?: number;
  /** 'assertive' for problems the user must hear at once. */
  politeness?: 'polite' | 'assertive';
  /**
   * A sticky snackbar (the update prompt) comes back once a newer, passing one is dismissed,
   * so a short notice can never swallow it.
   */
  sticky?: boolean;
}

export interface ActiveSnackbar extends SnackbarOptions {
  id: number;
}

const current = signal<ActiveSnackbar | null>(null);
let stashed: ActiveSnackbar | null = null;
let nextId = 1;
let timer: ReturnType<typeof setTimeout> | undefined;

export const snackbar = computed(() => current.value);

/** Shows a snackbar, replacing the one on screen. Returns its id. */
export function showSnackbar(options: SnackbarOptions): number {
  clearTimeout(timer);
  // Stryker disable next-line UpdateOperator: counting down gives unique ids as well, and an id is only ever compared for equality
  const id = nextId++;
  if (options.sticky) stashed = null;
  else if (current.value?.sticky) stashed = current.value;
  current.value = { ...options, id };
  if (options.duration !== undefined && options.duration > 0) {
    timer = setTimeout(() => dismissSnackbar(id), options.duration);
  }
  return id;
}

/** Dismisses the snackbar with this id (or whichever is shown); a newer one is left alone. */
export function dismissSnackbar(id?: number): void {
  if (!current.value || (id !== undefined && current.value.id !== id)) return;
  // Stryker disable next-line CallExpression: a timer left running dismisses by the id it was set for, which is the one dismissed now: no snackbar shown later has it
  clearTimeout(timer);
  const wasSticky = current.value.sticky;
  current.value = null;
  // Stryker disable next-line LogicalOperator: while a sticky one is shown nothing waits (showing it dropped the stashed one), so with || a null stashed comes back as the null already set
  if (!wasSticky && stashed) {
    const back = stashed;
    stashed = null;
    current.value = back;
  }
}

export function runSnackbarAction(): void {
  const active = current.value;
  if (!active) return;
  dismissSnackbar(active.id);
  active.onAction?.();
}

/** For tests: no snackbar, nothing stashed. */
export function resetSnackbar(): void {
  // Stryker disable next-line CallExpression: a timer left running dismisses by the id it was set for, and no snackbar shown after the reset has it
  clearTimeout(timer);
  stashed = null;
  current.value = null;
}
