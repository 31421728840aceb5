import './styles.css';
import 'virtual:theme-tokens.css';

declare const __BUILD_ID__: string;
// Names the build at once, so a deploy can be told from the one before it.
document.documentElement.dataset.build = __BUILD_ID__;

/**
 * The entry: the HTML's static shell (top bar, home hero) is painted first, then the app loads.
 * Its scripts would otherwise share the first round trips with the stylesheet and the hero art.
 */
let started = false;
function start() {
  if (started) return;
  started = true;
  import('./boot').catch((error: unknown) => console.error('Circle failed to start', error));
  // Home is marked for preload: its code comes alongside the boot instead of after it.
  import('./app/home-screen').catch(() => undefined);
}

// After the next frame is painted; a hidden tab paints no frames, so a timer starts it there.
requestAnimationFrame(() => setTimeout(start, 0));
setTimeout(start, 250);
