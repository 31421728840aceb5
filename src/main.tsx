import './styles.css';
import 'virtual:theme-tokens.css';
import { afterFirstContentfulPaint } from './lib/first-paint';

declare const __BUILD_ID__: string;
// Names the build at once, so a deploy can be told from the one before it.
document.documentElement.dataset.build = __BUILD_ID__;

/**
 * The entry: the page's prerendered screen is painted from its HTML first, then the app loads.
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

// (Built, the pre-paint script loads this entry only after that paint: then it starts at once.)
afterFirstContentfulPaint(start);
// A paint that never comes does not hold the app back for good.
setTimeout(start, 3000);
