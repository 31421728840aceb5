import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { signal } from '@preact/signals-core';
import { decodeBoolean, onPersistRefused, persistedSignal, readPersisted, removePersisted, writePersisted } from '../lib/persist';
import { decodePreference, DEFAULT_PREFERENCE, type PreferenceState } from './preference';
import { LANGUAGES } from '../config/languages';
import { COLOR_SCHEMES, THEME_MODES, THEME_NAMES } from '../config/themes';

/** A Storage whose reads and/or writes throw, like a denied or full localStorage. */
function brokenStorage({ get = false, set = false }: { get?: boolean; set?: boolean }): Storage {
  const data = new Map<string, string>();
  const quota = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError');
  return {
    get length() {
      return data.size;
    },
    key: (i: number) => [...data.keys()][i] ?? null,
    getItem: (k: string) => {
      if (get) throw new DOMException('Access denied', 'SecurityError');
      return data.get(k) ?? null;
    },
    setItem: (k: string, v: string) => {
      if (set) throw quota();
      data.set(k, String(v));
    },
    removeItem: (k: string) => {
      if (set) throw new DOMException('Access denied', 'SecurityError');
      data.delete(k);
    },
    clear: () => data.clear(),
  };
}

/** Makes reading `localStorage` itself throw, as sandboxed frames and strict privacy settings do. */
function denyStorageAccess(): () => void {
  const own = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
  Object.defineProperty(globalThis, 'localStorage', {
    configurable: true,
    get() {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    },
  });
  return () => {
    if (own) Object.defineProperty(globalThis, 'localStorage', own);
    else delete (globalThis as { localStorage?: Storage }).localStorage;
  };
}

function isValidPreference(p: unknown): p is PreferenceState {
  if (!p || typeof p !== 'object') return false;
  const r = p as Record<string, unknown>;
  return (
    Object.keys(r).sort().join() === 'activeThemeName,colorScheme,enableNotifications,language' &&
    (LANGUAGES as readonly unknown[]).includes(r.language) &&
    (THEME_NAMES as readonly unknown[]).includes(r.activeThemeName) &&
    typeof r.enableNotifications === 'boolean' &&
    (COLOR_SCHEMES as readonly unknown[]).includes(r.colorScheme)
  );
}

function jsonTrue(text: string): boolean {
  try {
    return JSON.parse(text) === true;
  } catch {
    return false;
  }
}

const ANY_JSON = fc.jsonValue();
/** Raw stored text: mostly arbitrary strings, sometimes JSON text of arbitrary values, sometimes near misses. */
const STORED_TEXT = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  ANY_JSON.map((v) => JSON.stringify(v)),
  fc.constantFrom('', '{', '{"language":', 'undefined', 'NaN', 'true', ' true\n', 'false', 'null', '[]', '{}', '"en"', '"true"'),
);

describe('readPersisted / writePersisted', () => {
  it('gives the fallback when nothing is stored', () => {
    expect(readPersisted('missing', decodeBoolean, false)).toBe(false);
  });

  it('gives the fallback for malformed JSON', () => {
    for (const raw of ['{', 'tru', "{'a':1}", 'undefined', '']) {
      localStorage.setItem('k', raw);
      expect(readPersisted('k', decodeBoolean, true), raw).toBe(true);
    }
  });

  it('gives the fallback when the decoder rejects the value', () => {
    localStorage.setItem('k', '"yes"');
    expect(readPersisted('k', decodeBoolean, false)).toBe(false);
    localStorage.setItem('k', 'true');
    expect(readPersisted('k', decodeBoolean, false)).toBe(true);
  });

  it('writes JSON and reads it back', () => {
    expect(writePersisted('k', { a: [1, 'two'] })).toBe(true);
    expect(localStorage.getItem('k')).toBe('{"a":[1,"two"]}');
    removePersisted('k');
    expect(localStorage.getItem('k')).toBeNull();
  });

  it('never throws when storage throws on getItem: the fallback is used', () => {
    vi.stubGlobal('localStorage', brokenStorage({ get: true }));
    expect(readPersisted('preference', decodePreference, DEFAULT_PREFERENCE)).toBe(DEFAULT_PREFERENCE);
  });

  it('reports a refused write (quota) as false instead of throwing', () => {
    vi.stubGlobal('localStorage', brokenStorage({ set: true }));
    expect(writePersisted('k', 1)).toBe(false);
    expect(() => removePersisted('k')).not.toThrow();
  });

  it('survives storage that cannot even be reached', () => {
    const restore = denyStorageAccess();
    try {
      expect(readPersisted('k', decodeBoolean, true)).toBe(true);
      expect(writePersisted('k', false)).toBe(false);
      expect(() => removePersisted('k')).not.toThrow();
    } finally {
      restore();
    }
  });
});

describe('persistedSignal', () => {
  afterEach(() => localStorage.clear());

  it('loads the stored value and writes every change back', () => {
    localStorage.setItem('flag', 'true');
    const s = persistedSignal('flag', decodeBoolean, false);
    expect(s.value).toBe(true);
    s.value = false;
    expect(localStorage.getItem('flag')).toBe('false');
  });

  it('keeps working in memory and tells onPersistRefused listeners when a write is refused', () => {
    const s = persistedSignal('flag', decodeBoolean, false);
    const told: string[] = [];
    const stop = onPersistRefused((key) => told.push(key));
    try {
      vi.stubGlobal('localStorage', brokenStorage({ set: true }));
      expect(() => {
        s.value = true;
      }).not.toThrow();
      expect(s.value).toBe(true);
      expect(told).toEqual(['flag']);
    } finally {
      stop();
    }
    s.value = false;
    expect(told).toEqual(['flag']);
  });

  it('lets a listener read and write other signals (a snackbar) without a cycle', () => {
    const shown = signal(0);
    const s = persistedSignal('flag3', decodeBoolean, false);
    const stop = onPersistRefused(() => {
      shown.value = shown.value + 1;
    });
    try {
      vi.stubGlobal('localStorage', brokenStorage({ set: true }));
      expect(() => {
        s.value = true;
      }).not.toThrow();
      expect(shown.value).toBe(1);
      // The listener's signal is no dependency of the write: changing it writes nothing.
      shown.value = 10;
      expect(shown.value).toBe(10);
      s.value = false;
      expect(shown.value).toBe(11);
    } finally {
      stop();
    }
  });

  it('does not tell listeners when writes succeed', () => {
    const s = persistedSignal('flag2', decodeBoolean, false);
    const listener = vi.fn();
    const stop = onPersistRefused(listener);
    s.value = true;
    stop();
    expect(listener).not.toHaveBeenCalled();
  });
});

describe('decodePreference', () => {
  it('rejects what is not an object', () => {
    for (const raw of [null, undefined, 0, 42, 'en', true, [], ['en', 'INDIGO_PINK', true], [{ language: 'de' }]]) {
      expect(decodePreference(raw), JSON.stringify(raw)).toBeNull();
    }
  });

  it('replaces foreign values by the defaults, field by field', () => {
    expect(decodePreference({ language: 'zh-TW', activeThemeName: 'HOTDOG', enableNotifications: 'yes' })).toEqual(DEFAULT_PREFERENCE);
    expect(decodePreference({ language: ['de'], activeThemeName: null, enableNotifications: 1 })).toEqual(DEFAULT_PREFERENCE);
    expect(decodePreference({ language: 'EN', activeThemeName: 'indigo_pink', enableNotifications: null })).toEqual(DEFAULT_PREFERENCE);
    expect(decodePreference({})).toEqual(DEFAULT_PREFERENCE);
  });

  it('keeps the valid fields of a partially valid object', () => {
    expect(decodePreference({ language: 'de', activeThemeName: 'HOTDOG', enableNotifications: 7 })).toEqual({
      language: 'de',
      activeThemeName: 'INDIGO_PINK',
      enableNotifications: false,
      colorScheme: 'system',
    });
    expect(decodePreference({ language: 42, activeThemeName: 'PURPLE_GREEN', enableNotifications: true, extra: 'x' })).toEqual({
      language: 'en',
      activeThemeName: 'PURPLE_GREEN',
      enableNotifications: true,
      // Stored without a colour scheme, as the seed stores it: its theme's own mode.
      colorScheme: 'dark',
    });
  });

  it('never answers an invalid preference, whatever JSON it is given', () => {
    fc.assert(
      fc.property(ANY_JSON, (raw) => {
        const decoded = decodePreference(raw);
        return decoded === null || isValidPreference(decoded);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps every valid field, whatever else the object holds', () => {
    const maybe = <T>(valid: fc.Arbitrary<T>) => fc.oneof(valid, ANY_JSON);
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), ANY_JSON),
        maybe(fc.constantFrom(...LANGUAGES)),
        maybe(fc.constantFrom(...THEME_NAMES)),
        maybe(fc.boolean()),
        maybe(fc.constantFrom(...COLOR_SCHEMES)),
        (extra, language, activeThemeName, enableNotifications, colorScheme) => {
          const raw = { ...extra, language, activeThemeName, enableNotifications, colorScheme };
          const decoded = decodePreference(raw);
          expect(isValidPreference(decoded)).toBe(true);
          expect(decoded!.language).toBe((LANGUAGES as readonly unknown[]).includes(language) ? language : 'en');
          expect(decoded!.activeThemeName).toBe(
            (THEME_NAMES as readonly unknown[]).includes(activeThemeName) ? activeThemeName : 'INDIGO_PINK',
          );
          expect(decoded!.enableNotifications).toBe(typeof enableNotifications === 'boolean' ? enableNotifications : false);
          // A scheme it does not name comes from its theme (the seed's mode of it), else the system's.
          const theme = (THEME_NAMES as readonly unknown[]).includes(activeThemeName)
            ? THEME_MODES[activeThemeName as 'INDIGO_PINK']
            : 'system';
          expect(decoded!.colorScheme).toBe((COLOR_SCHEMES as readonly unknown[]).includes(colorScheme) ? colorScheme : theme);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives a valid preference for any stored text', () => {
    fc.assert(
      fc.property(STORED_TEXT, (text) => {
        localStorage.setItem('preference', text);
        return isValidPreference(readPersisted('preference', decodePreference, { ...DEFAULT_PREFERENCE }));
      }),
      { numRuns: 500 },
    );
  });
});

describe('stores started over arbitrary stored values', () => {
  it('preference, app.installed and auth.isLoggedIn always start in a valid state', async () => {
    await fc.assert(
      fc.asyncProperty(STORED_TEXT, STORED_TEXT, STORED_TEXT, async (pref, installed, loggedIn) => {
        localStorage.clear();
        localStorage.setItem('preference', pref);
        localStorage.setItem('app.installed', installed);
        localStorage.setItem('auth.isLoggedIn', loggedIn);
        vi.resetModules();
        const [preference, app, auth] = await Promise.all([import('./preference'), import('./app'), import('./auth')]);
        expect(isValidPreference(preference.preference.value)).toBe(true);
        // Only a stored JSON `true` counts; everything else is the default, false.
        expect(app.isInstalled.value).toBe(jsonTrue(installed));
        expect(auth.isLoggedIn.value).toBe(jsonTrue(loggedIn));
      }),
      { numRuns: 40 },
    );
  });

  it('start with the defaults when storage throws on every read', async () => {
    vi.stubGlobal('localStorage', brokenStorage({ get: true, set: true }));
    vi.resetModules();
    const [preference, app, auth] = await Promise.all([import('./preference'), import('./app'), import('./auth')]);
    expect(preference.preference.value).toEqual(DEFAULT_PREFERENCE);
    expect(app.isInstalled.value).toBe(false);
    expect(auth.isLoggedIn.value).toBe(false);
  });

  it('keep working and report the key when storage refuses writes (quota)', async () => {
    vi.stubGlobal('localStorage', brokenStorage({ set: true }));
    vi.resetModules();
    const persist = await import('../lib/persist');
    const [preference, app, auth] = await Promise.all([import('./preference'), import('./app'), import('./auth')]);
    const told: string[] = [];
    const stop = persist.onPersistRefused((key) => told.push(key));
    expect(() => {
      preference.changeTheme('PURPLE_GREEN');
      app.markInstalled();
      auth.sessionStarted({ subject: 'ada', name: 'Ada Lovelace', email: null });
    }).not.toThrow();
    stop();
    expect(preference.activeThemeName.value).toBe('PURPLE_GREEN');
    expect(app.isInstalled.value).toBe(true);
    expect(auth.isLoggedIn.value).toBe(true);
    expect(told).toEqual(['preference', 'app.installed', 'auth.isLoggedIn']);
  });
});
