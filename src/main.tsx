import './styles.css';
import 'virtual:theme-tokens.css';
import { reportStartFailure } from './lib/start-failure';

declare const __BUILD_ID__: string;
// Names the build at once, so a deploy can be told from the one before it.
document.documentElement.dataset.build = __BUILD_ID__;

/**
 * The entry. Built, the pre-paint script loads it once the page's prerendered screen has painted
 * (its scripts would otherwise share the first round trips with the stylesheet); in the dev
 * server it runs at once. It asks for the boot, which asks for the first screen's code; any
 * failure on the way is reported here.
 */
import('./boot').then(({ boot }) => boot()).catch(reportStartFailure);
