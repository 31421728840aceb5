import { signal, type ReadonlySignal, type Signal } from '@preact/signals-core';
import { config } from '../config/load';

let mobile: Signal<boolean> | null = null;

/** True below the configured mobile breakpoint (599px): the drawer becomes modal there. */
export function isMobile(): ReadonlySignal<boolean> {
  if (!mobile) {
    const query = matchMedia(`(max-width: ${config().mobileBreakpoint}px)`);
    mobile = signal<boolean>(query.matches);
    query.addEventListener('change', (e) => (mobile!.value = e.matches));
  }
  return mobile;
}
