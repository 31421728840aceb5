/**
 * `npm run screenshots`: captures the manifest's screenshots (install dialogs show them) from the
 * built app with seed data, as WebP, into public/screenshots/. Run after a visible change to home.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import sharp from 'sharp';
import { chromium } from '@playwright/test';
import { startServer } from '../server/index.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../playwright.config.ts';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = resolve(ROOT, 'public/screenshots');
const SHOTS = [
  { file: 'home-wide.webp', width: 1280, height: 720 },
  { file: 'home-narrow.webp', width: 720, height: 1280, scale: 2, viewport: { width: 360, height: 640 } },
];

const server = await startServer({ port: 0, delayMs: 0, distDir: resolve(ROOT, 'dist') });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  mkdirSync(OUT, { recursive: true });
  for (const shot of SHOTS) {
    const page = await browser.newPage({
      viewport: shot.viewport ?? { width: shot.width, height: shot.height },
      deviceScaleFactor: shot.scale ?? 1,
    });
    await page.goto(`${server.url}/home`);
    await page.getByText('Maintenance on Sunday').waitFor();
    const png = await page.screenshot();
    await sharp(png).resize(shot.width, shot.height).webp({ quality: 80 }).toFile(resolve(OUT, shot.file));
    console.log(`public/screenshots/${shot.file}`);
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
