import { type Browser, chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../playwright.config.ts';

/** Registers a close for a stop part way; gives back what forgets it (bench/shutdown.ts's `track`). */
export type Track = (close: () => unknown) => () => void;

/**
 * Chromium for a measure. Playwright's own signal handlers are off: the bench closes the browser
 * itself when it is stopped (bench/shutdown.ts), through `track`.
 */
export async function launchBrowser(track: Track): Promise<{ browser: Browser; forget: () => void }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  return { browser, forget: track(() => browser.close()) };
}
