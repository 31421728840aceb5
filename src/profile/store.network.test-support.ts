/**
 * What the profile store's tests share: the store runs over the real API stack (openapi-fetch client,
 * retrying fetch, progress transport); only the network is faked: global fetch for GET/DELETE,
 * XMLHttpRequest (scripted, one answer per upload) for the uploads of create and update.
 */
import { afterEach, beforeEach, vi } from 'vitest';
import { effect } from '@preact/signals-core';
import { fetchProfile, resetProfileState } from './store';
import { profileState } from './store';
import { configureApi } from '../api/instance';
import { setTokenKeeper } from '../api/credentials';
import { withWords } from '../i18n';
// The progress messages are the profile screen's words, taken with it.
import { enProfile } from '../i18n/en-profile';
import type { Profile } from './requests';

export const t = withWords(enProfile);

export const ORIGIN = 'http://localhost:3000';

export function profileFixture(overrides: Partial<Profile> = {}): Profile {
  return {
    id: 'p-1',
    displayName: 'Ada Lovelace',
    username: 'ada',
    email: 'ada@example.org',
    bio: '',
    interests: ['maths'],
    language: 'en',
    createdAt: '2024-01-01T00:00:00Z',
    updatedAt: '2024-01-01T00:00:00Z',
    ...overrides,
  };
}

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** A fetch whose answers the test gives one by one; it honours the request's AbortSignal like a browser. */
export function controllableFetch() {
  const calls: { request: Request; answer: (response: Response) => void; fail: (error: unknown) => void }[] = [];
  const fetchMock = vi.fn(
    (request: Request) =>
      new Promise<Response>((resolve, reject) => {
        request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
        calls.push({ request, answer: resolve, fail: reject });
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

export async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 1));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

export interface XhrScript {
  status: number;
  body?: unknown;
  upload?: [loaded: number, total: number][];
  download?: [loaded: number, total: number][];
  networkError?: boolean;
  /** Never answers on its own: the test aborts it. */
  hang?: boolean;
}

export const scripts: XhrScript[] = [];
export const xhrs: FakeXhr[] = [];

class FakeXhr {
  method = '';
  url = '';
  responseType = '';
  withCredentials = false;
  status = 0;
  statusText = '';
  response: ArrayBuffer | null = null;
  requestHeaders: Record<string, string> = {};
  body: unknown;
  aborted = false;
  upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null = null;
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(key: string, value: string) {
    this.requestHeaders[key] = value;
  }
  getAllResponseHeaders() {
    return 'content-type: application/json\r\n';
  }
  abort() {
    if (this.aborted) return;
    this.aborted = true;
    setTimeout(() => this.onabort?.(), 0);
  }
  send(body: unknown) {
    this.body = body;
    xhrs.push(this);
    const script = scripts.shift();
    if (!script) throw new Error(`Unexpected XHR ${this.method} ${this.url}`);
    if (script.hang) return;
    setTimeout(() => this.play(script), 0);
  }
  private play(script: XhrScript) {
    if (this.aborted) return;
    for (const [loaded, total] of script.upload ?? []) this.upload.onprogress?.({ loaded, total, lengthComputable: total > 0 });
    if (script.networkError) {
      this.onerror?.();
      return;
    }
    for (const [loaded, total] of script.download ?? []) this.onprogress?.({ loaded, total, lengthComputable: total > 0 });
    this.status = script.status;
    this.statusText = script.status < 400 ? 'OK' : 'Error';
    this.response = new TextEncoder().encode(JSON.stringify(script.body ?? null)).buffer as ArrayBuffer;
    this.onload?.();
  }
}

/** Every progress message the store goes through, in order. */
export function recordMessages(): { messages: (string | null)[]; progress: (number | undefined)[]; stop: () => void } {
  const messages: (string | null)[] = [];
  const progress: (number | undefined)[] = [];
  const stop = effect(() => {
    const s = profileState.value;
    // Read as the English catalogue shows it: the seed's own words.
    const text = s.progressMessage && t(s.progressMessage.key, s.progressMessage.params);
    if (messages.at(-1) !== text || messages.length === 0) messages.push(text);
    if (progress.at(-1) !== s.progress || progress.length === 0) progress.push(s.progress);
  });
  return { messages, progress, stop };
}

export async function fetchWith(response: Response) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => response),
  );
  return fetchProfile();
}

/** Every test starts with the member signed in, no profile, and the uploads going to a script. */
export function resetBetweenTests(): void {
  beforeEach(() => {
    // The member's token, as the session model would give it (its own tests are session/session.tokens.test.ts).
    setTokenKeeper({ accessToken: async () => 'tok-ada' });
    configureApi('/api/');
    resetProfileState();
    scripts.length = 0;
    xhrs.length = 0;
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    // The client logs every backend error; keep the test output clean but let tests read it.
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });

  afterEach(() => {
    resetProfileState();
  });
}
