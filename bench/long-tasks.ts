import { launchBrowser, type Track } from './browser.ts';

/** A script that ran in a task, as the Long Animation Frames API names it. */
export interface TaskScript {
  /** The script's file (its URL's path), or '' for the browser's own callbacks. */
  file: string;
  /** classic-script, module-script, event-listener, user-callback, resolve-promise, … */
  kind: string;
  /** What called it: the script's URL, an event (MessagePort.onmessage), import.then, … */
  invoker: string;
  functionName: string;
  durationMs: number;
}

export interface LongTask {
  start: number;
  duration: number;
  /** The scripts that ran in it, longest first (none: style, layout or parsing). */
  scripts: TaskScript[];
}

export interface LongTasks {
  path: string;
  /** The longest main-thread task from navigation until the screen is up and the page is idle. */
  longestMs: number;
  /** Every task over 50 ms in that window, longest first. */
  tasks: LongTask[];
}

export interface Recorded {
  tasks: { start: number; duration: number }[];
  scripts: { start: number; duration: number; url: string; kind: string; invoker: string; fn: string }[];
}

/**
 * Main-thread tasks during a first visit on a CPU slowed down `slowdown` times (as Lighthouse's
 * mobile profile does, 4×), read from the page's start: the Long Tasks API lists every task of
 * 50 ms or more, the Long Animation Frames API which scripts ran in each.
 */
export async function measureLongTasks(
  baseUrl: string,
  paths: readonly string[],
  slowdown = 4,
  track: Track = () => () => undefined,
  /** false for a page that is not the app's (the bench's floor): it is measured until idle after its load. */
  waitForApp = true,
): Promise<LongTasks[]> {
  const { browser, forget } = await launchBrowser(track);
  const results: LongTasks[] = [];
  try {
    for (const path of paths) {
      // A fresh context each time: no service worker, no HTTP cache, a first visit.
      const context = await browser.newContext();
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
      await page.addInitScript(`window.__long = { tasks: [], scripts: [] };
        addEventListener('circle:first-screen', () => { window.__firstScreen = true; }, { once: true });
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) window.__long.tasks.push({ start: e.startTime, duration: e.duration });
        }).observe({ type: 'longtask', buffered: true });
        new PerformanceObserver((list) => {
          for (const frame of list.getEntries())
            for (const s of frame.scripts)
              window.__long.scripts.push({ start: s.startTime, duration: s.duration, url: s.sourceURL, kind: s.invokerType, invoker: s.invoker, fn: s.sourceFunctionName });
        }).observe({ type: 'long-animation-frame', buffered: true });`);
      await page.goto(`${baseUrl}${path}`, { waitUntil: 'load' });
      await page.getByRole('heading', { level: 1 }).waitFor();
      if (waitForApp) {
        // The app has rendered its first screen (its event; the heading was in the HTML already), and
        // its idle work (the worker, the prefetch) runs on the same thread: wait for those too.
        // A function, not a string: the page's CSP forbids evaluating strings.
        await page.waitForFunction(() => (window as unknown as { __firstScreen?: boolean }).__firstScreen === true);
      }
      await page.waitForTimeout(3000);
      const recorded = (await page.evaluate('window.__long')) as Recorded;
      results.push({ path, ...summarise(recorded) });
      await context.close();
    }
  } finally {
    await browser.close();
    forget();
  }
  return results;
}

const fileOf = (url: string) => {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
};

/** Each task over 50 ms with the scripts that ran within it. */
export function summarise(recorded: Recorded): Omit<LongTasks, 'path'> {
  const tasks = recorded.tasks
    .filter((t) => t.duration > 50)
    .map((t) => ({
      start: Math.round(t.start),
      duration: Math.round(t.duration),
      scripts: recorded.scripts
        // A script belongs to the task it started in (its end may be rounded past the task's).
        .filter((s) => s.start >= t.start - 1 && s.start < t.start + t.duration)
        .map((s) => ({ file: fileOf(s.url), kind: s.kind, invoker: s.invoker, functionName: s.fn, durationMs: Math.round(s.duration) }))
        .sort((a, b) => b.durationMs - a.durationMs),
    }))
    .sort((a, b) => b.duration - a.duration);
  return { longestMs: Math.round(recorded.tasks.reduce((max, t) => Math.max(max, t.duration), 0)), tasks };
}
