/**
 * The browser may offer installation (beforeinstallprompt) before the app has loaded: the app now
 * loads after the first paint. The pre-paint script records such events from the start, and the
 * app takes them over when it begins to listen (pwa/install.ts).
 */
export interface EarlyInstallEvents {
  prompt: Event | null;
  installed: boolean;
}

// Stryker disable next-line StringLiteral: recording and taking both go through this constant, so no caller sees the name (the e2e suite checks it)
const KEY = '__circleEarlyInstall';
type Holder = Record<typeof KEY, EarlyInstallEvents | undefined>;

export function recordEarlyInstallEvents(target: Window = window): void {
  const early: EarlyInstallEvents = { prompt: null, installed: false };
  (target as unknown as Holder)[KEY] = early;
  target.addEventListener('beforeinstallprompt', (event) => {
    // No mini-infobar: the app offers installation itself, once it runs.
    event.preventDefault();
    early.prompt = event;
  });
  target.addEventListener('appinstalled', () => {
    early.installed = true;
  });
}

/** What was recorded before the app listened, once; null when nothing recorded (no pre-paint script). */
export function takeEarlyInstallEvents(target: Window = window): EarlyInstallEvents | null {
  const holder = target as unknown as Holder;
  const early = holder[KEY] ?? null;
  holder[KEY] = undefined;
  return early;
}
