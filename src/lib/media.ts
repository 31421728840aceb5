import { signal, type ReadonlySignal, type Signal } from '@preact/signals-core';

const queries = new Map<string, Signal<boolean>>();

/** Whether a CSS media query matches, kept current as the viewport changes; one listener per query. */
export function mediaMatches(query: string): ReadonlySignal<boolean> {
  let matches = queries.get(query);
  if (!matches) {
    const list = matchMedia(query);
    const current = signal<boolean>(list.matches);
    list.addEventListener('change', (e) => {
      current.value = e.matches;
    });
    queries.set(query, current);
    matches = current;
  }
  return matches;
}
