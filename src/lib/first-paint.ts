/**
 * Runs `then` once the browser reports the first contentful paint: the page's prerendered screen is
 * up. Where paint timing is not reported, after the next frame. A hidden tab paints nothing: it
 * runs at once there.
 */
export function afterFirstContentfulPaint(then: () => void): void {
  if (document.visibilityState === 'hidden') {
    then();
    return;
  }
  if (!globalThis.PerformanceObserver?.supportedEntryTypes?.includes('paint')) {
    requestAnimationFrame(() => setTimeout(then, 0));
    return;
  }
  const observer = new PerformanceObserver((list) => {
    if (!list.getEntries().some((e) => e.name === 'first-contentful-paint')) return;
    observer.disconnect();
    setTimeout(then, 0);
  });
  observer.observe({ type: 'paint', buffered: true });
}
