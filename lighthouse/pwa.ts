/** The PWA audit Lighthouse no longer has: installability over CDP, a controlling worker, every route offline. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import type { RunningServer } from '../server/index.ts';
import { routesFor } from '../testkit/index.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../playwright.config.ts';

// Audited signed out: the screens that need a session ask for one, offline too.
const AUDITED_ROUTES = routesFor('signedOut');

export interface PwaAudit {
  installabilityErrors: string[];
  manifestErrors: string[];
  manifestUrl: string | null;
  serviceWorkerControls: boolean;
  offlineRoutes: { path: string; rendered: boolean }[];
}

/** Installability and offline behaviour, in a persistent profile (incognito is never installable). */
export async function auditPwa(server: RunningServer): Promise<PwaAudit> {
  const profile = mkdtempSync(join(tmpdir(), 'circle-pwa-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${server.url}/home`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    let serviceWorkerControls = true;
    try {
      await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', undefined, { timeout: 20_000 });
    } catch {
      serviceWorkerControls = false;
    }
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string; errorArguments: { name: string; value: string }[] }[];
    };
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: { message: string }[] };

    // Signed out (the e2e suite reloads every route offline signed in: e2e/pwa.spec.ts).
    server.setReachable(false);
    const offlineRoutes: PwaAudit['offlineRoutes'] = [];
    for (const route of AUDITED_ROUTES) {
      let rendered = false;
      try {
        await page.goto(`${server.url}${route.path}`, { timeout: 10_000 });
        const heading = page.getByRole('heading', { level: 1 });
        await heading.waitFor({ timeout: 10_000 });
        rendered = (await heading.textContent())?.trim() === route.heading;
      } catch {
        rendered = false;
      }
      offlineRoutes.push({ path: route.path, rendered });
    }
    server.setReachable(true);
    return {
      installabilityErrors: installabilityErrors.map((e) => [e.errorId, ...e.errorArguments.map((a) => `${a.name}=${a.value}`)].join(' ')),
      manifestErrors: manifest.errors.map((e) => e.message),
      manifestUrl: manifest.url || null,
      serviceWorkerControls,
      offlineRoutes,
    };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
