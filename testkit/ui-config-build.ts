import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The UI configuration a test build ships (assets/ui-config.json). */
export const UI_CONFIG = { appTitle: 'Circle', logLevel: 3, defaultLanguage: 'en', defaultTheme: 'INDIGO_PINK' } as const;

/** A build for the Node server with only assets/ui-config.json, which getUiConfig reads. */
export function uiConfigBuild(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'circle-contract-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets/ui-config.json'), JSON.stringify(UI_CONFIG));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
