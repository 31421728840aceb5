import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../playwright.config.ts';

export interface LongTasks {
  path: string;
  /** The longest main-thread task from navigation until the screen is up and the page is idle. */
  longestMs: number;
  /** Tasks over 50 ms in that window. */
  over50: number;
  /** Every task over 50 ms, start and duration, for the report. */
  tasks: { start: number; duration: number }[];
}

/**
 * Main-thread tasks during a first visit on a CPU slowed down `slowdown` times (as Lighthouse's
 * mobile profile does, 4×), read with the Long Tasks API from the page's start: every task of
 * 50 ms or more is listed, so the longest one is the figure to hold under 50.
 */
export async function measureLongTasks(baseUrl: string, paths: readonly string[], slowdown = 4): Promise<LongTasks[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const results: LongTasks[] = [];
  try {
    for (const path of paths) {
      // A fresh context each time: no service worker, no HTTP cache, a first visit.
      const context = await browser.newContext();
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
      await page.addInitScript(`window.__longTasks = [];
        addEventListener('circle:first-screen', () => { window.__firstScreen = true; }, { once: true });
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
        }).observe({ type: 'longtask', buffered: true });`);
      await page.goto(`${baseUrl}${path}`, { waitUntil: 'load' });
      await page.getByRole('heading', { level: 1 }).waitFor();
      // The app has rendered its first screen (its event; the heading was in the HTML already), and
      // its idle work (the worker, the prefetch) runs on the same thread: wait for those too.
      // A function, not a string: the page's CSP forbids evaluating strings.
      await page.waitForFunction(() => (window as unknown as { __firstScreen?: boolean }).__firstScreen === true);
      await page.waitForTimeout(3000);
      const tasks = (await page.evaluate('window.__longTasks')) as { start: number; duration: number }[];
      const longest = tasks.reduce((max, t) => Math.max(max, t.duration), 0);
      results.push({ path, longestMs: Math.round(longest), over50: tasks.filter((t) => t.duration > 50).length, tasks });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return results;
}
