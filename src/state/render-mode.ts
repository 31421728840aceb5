import { signal } from '@preact/signals-core';

/**
 * 'static' while React renders what the build prerenders: at build time, and in the browser while
 * it hydrates that HTML. Whatever only the browser knows (the viewport's width, above all) is left
 * to the stylesheet then, so the first client render matches the HTML. 'live' otherwise.
 */
export const renderMode = signal<'static' | 'live'>('live');

export function setRenderMode(mode: 'static' | 'live'): void {
  renderMode.value = mode;
}
