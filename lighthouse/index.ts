/**
 * lighthouse: `npm run audit:pwa` (./audit.ts) audits the built app as a PWA and with Lighthouse.
 * What other tools use of it (bench runs Lighthouse on each prerendered route) is this file.
 *
 * May import: server and testkit (through their index.ts), the top-level playwright.config.ts.
 */
export { runLighthouse, type LighthouseRun } from './lighthouse-run.ts';
