import { beforeEach, describe, expect, it, vi } from 'vitest';

/** A fresh copy of the store, reading whatever localStorage holds now. */
async function freshStore() {
  vi.resetModules();
  return import('./preference');
}

function stored(): unknown {
  const raw = localStorage.getItem('preference');
  return raw === null ? null : JSON.parse(raw);
}

describe('preference store', () => {
  beforeEach(() => localStorage.clear());

  it("defaults to language 'en', theme INDIGO_PINK and notifications off", async () => {
    const p = await freshStore();
    expect(p.preference.value).toEqual({
      language: 'en',
      activeThemeName: 'INDIGO_PINK',
      enableNotifications: false,
      colorScheme: 'system',
    });
    expect(p.language.value).toBe('en');
    expect(p.activeThemeName.value).toBe('INDIGO_PINK');
    expect(p.notificationsEnabled.value).toBe(false);
    // Nothing is written until something changes.
    expect(localStorage.getItem('preference')).toBeNull();
  });

  it('changeLanguage changes only the language and persists the whole state as JSON', async () => {
    const p = await freshStore();
    p.changeLanguage('de');
    expect(p.language.value).toBe('de');
    expect(p.activeThemeName.value).toBe('INDIGO_PINK');
    expect(stored()).toEqual({ language: 'de', activeThemeName: 'INDIGO_PINK', enableNotifications: false, colorScheme: 'system' });
  });

  it('changeTheme changes only the theme and persists it', async () => {
    const p = await freshStore();
    p.changeTheme('PURPLE_GREEN');
    expect(p.preference.value).toEqual({
      language: 'en',
      activeThemeName: 'PURPLE_GREEN',
      enableNotifications: false,
      colorScheme: 'system',
    });
    expect(stored()).toEqual(p.preference.value);
  });

  it('changeColorScheme changes only the colour scheme and persists it; changeTheme keeps it', async () => {
    const p = await freshStore();
    expect(p.colorScheme.value).toBe('system');
    p.changeColorScheme('dark');
    expect(p.colorScheme.value).toBe('dark');
    p.changeTheme('DEEPPURPLE_AMBER');
    expect(stored()).toEqual({ language: 'en', activeThemeName: 'DEEPPURPLE_AMBER', enableNotifications: false, colorScheme: 'dark' });
    const { stateHistory } = await import('./history');
    expect(stateHistory().map((e) => e.action)).toEqual(['changeColorScheme', 'changeTheme']);
  });

  it("shows a seed's stored theme as it was: its accent in its own mode, until a scheme is chosen", async () => {
    localStorage.setItem('preference', JSON.stringify({ activeThemeName: 'PINK_BLUEGREY' }));
    const p = await freshStore();
    expect(p.preference.value).toEqual({
      language: 'en',
      activeThemeName: 'PINK_BLUEGREY',
      enableNotifications: false,
      colorScheme: 'dark',
    });
    p.changeColorScheme('system');
    expect((await freshStore()).colorScheme.value).toBe('system');
  });

  it('enableNotifications and disableNotifications toggle the flag and persist it', async () => {
    const p = await freshStore();
    p.enableNotifications();
    expect(p.notificationsEnabled.value).toBe(true);
    expect(stored()).toMatchObject({ enableNotifications: true, colorScheme: 'system' });
    p.disableNotifications();
    expect(p.notificationsEnabled.value).toBe(false);
    expect(stored()).toMatchObject({ enableNotifications: false, colorScheme: 'system' });
  });

  it('reads the persisted state back on the next start', async () => {
    const first = await freshStore();
    first.changeLanguage('es');
    first.changeTheme('PINK_BLUEGREY');
    first.enableNotifications();
    const second = await freshStore();
    expect(second.preference.value).toEqual({
      language: 'es',
      activeThemeName: 'PINK_BLUEGREY',
      enableNotifications: true,
      colorScheme: 'system',
    });
  });

  it('logs every change under its own name, with the state it led to', async () => {
    const p = await freshStore();
    const { stateHistory } = await import('./history');
    p.applyConfiguredDefaults({ defaultLanguage: 'de', defaultTheme: 'INDIGO_PINK' });
    p.changeLanguage('fr');
    p.enableNotifications();
    p.disableNotifications();
    expect(stateHistory().map((e) => [e.store, e.action, e.state])).toEqual([
      [
        'preference',
        'applyConfiguredDefaults',
        { language: 'de', activeThemeName: 'INDIGO_PINK', enableNotifications: false, colorScheme: 'system' },
      ],
      [
        'preference',
        'changeLanguage',
        { language: 'fr', activeThemeName: 'INDIGO_PINK', enableNotifications: false, colorScheme: 'system' },
      ],
      [
        'preference',
        'enableNotifications',
        { language: 'fr', activeThemeName: 'INDIGO_PINK', enableNotifications: true, colorScheme: 'system' },
      ],
      [
        'preference',
        'disableNotifications',
        { language: 'fr', activeThemeName: 'INDIGO_PINK', enableNotifications: false, colorScheme: 'system' },
      ],
    ]);
  });

  it('records each action in the state history', async () => {
    const p = await freshStore();
    const { stateHistory: history } = await import('./history');
    p.changeTheme('DEEPPURPLE_AMBER');
    const last = history().at(-1);
    expect(last).toMatchObject({ store: 'preference', action: 'changeTheme', state: { activeThemeName: 'DEEPPURPLE_AMBER' } });
  });
});

describe("a deployment's default language and theme", () => {
  beforeEach(() => localStorage.clear());

  it('a first visit takes both from the UI config', async () => {
    const p = await freshStore();
    p.applyConfiguredDefaults({ defaultLanguage: 'de', defaultTheme: 'PURPLE_GREEN' }, ['fr-FR', 'fr']);
    expect(p.language.value).toBe('de');
    expect(p.activeThemeName.value).toBe('PURPLE_GREEN');
    expect(p.notificationsEnabled.value).toBe(false);
  });

  it('never overrides what the visitor chose, field by field', async () => {
    localStorage.setItem('preference', JSON.stringify({ language: 'es', activeThemeName: 'HOTDOG', enableNotifications: true }));
    const p = await freshStore();
    p.applyConfiguredDefaults({ defaultLanguage: 'de', defaultTheme: 'PINK_BLUEGREY' });
    expect(p.preference.value).toEqual({
      language: 'es',
      activeThemeName: 'PINK_BLUEGREY',
      enableNotifications: true,
      colorScheme: 'system',
    });
  });

  it('defaults equal to the built-in ones change nothing and write nothing', async () => {
    const p = await freshStore();
    p.applyConfiguredDefaults({ defaultLanguage: 'en', defaultTheme: 'INDIGO_PINK' }, ['de-DE']);
    expect(localStorage.getItem('preference')).toBeNull();
  });
});

describe("the browser's language, when the deployment sets none", () => {
  beforeEach(() => localStorage.clear());

  it.each([
    [['fr-CA', 'en-US'], 'fr'],
    [['zh-CN', 'en'], 'zh-Hans'],
    [['zh-SG'], 'zh-Hans'],
    [['zh-Hans-HK', 'zh-HK'], 'zh-Hans'],
    [['zh-TW', 'zh-Hant', 'de-CH'], 'de'],
    [['es-MX'], 'es'],
    [['zh-TW', 'ja-JP'], 'en'],
    [[], 'en'],
  ] as const)('a first visit with %j gets %s', async (browser, expected) => {
    const p = await freshStore();
    p.applyConfiguredDefaults({ defaultTheme: 'INDIGO_PINK' }, browser);
    expect(p.language.value).toBe(expected);
    expect(stored()).toEqual(
      expected === 'en' ? null : { language: expected, activeThemeName: 'INDIGO_PINK', enableNotifications: false, colorScheme: 'system' },
    );
  });

  it('with no navigator at all, and no list given, a first visit is in English', async () => {
    vi.stubGlobal('navigator', undefined);
    try {
      const p = await freshStore();
      p.applyConfiguredDefaults({ defaultTheme: 'PURPLE_GREEN' });
      expect(p.preference.value).toEqual({
        language: 'en',
        activeThemeName: 'PURPLE_GREEN',
        enableNotifications: false,
        colorScheme: 'system',
      });
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('reads navigator.languages when no list is given', async () => {
    vi.stubGlobal('navigator', { ...navigator, languages: ['zh-CN', 'en'] });
    const p = await freshStore();
    p.applyConfiguredDefaults({ defaultTheme: 'INDIGO_PINK' });
    expect(p.language.value).toBe('zh-Hans');
  });

  it('a language the visitor chose before is kept, whatever the browser says', async () => {
    localStorage.setItem('preference', JSON.stringify({ language: 'en', activeThemeName: 'INDIGO_PINK', enableNotifications: false }));
    const p = await freshStore();
    p.applyConfiguredDefaults({ defaultTheme: 'INDIGO_PINK' }, ['fr-FR']);
    expect(p.language.value).toBe('en');
  });

  it("a stored language the app does not know counts as unset: the browser's applies", async () => {
    localStorage.setItem('preference', JSON.stringify({ language: 'zh-TW', activeThemeName: 'PURPLE_GREEN', enableNotifications: false }));
    const p = await freshStore();
    p.applyConfiguredDefaults({ defaultTheme: 'INDIGO_PINK' }, ['zh-TW', 'fr']);
    expect(p.preference.value).toEqual({
      language: 'fr',
      activeThemeName: 'PURPLE_GREEN',
      enableNotifications: false,
      colorScheme: 'dark',
    });
  });

  it("the deployment's language wins over the browser's", async () => {
    const p = await freshStore();
    p.applyConfiguredDefaults({ defaultLanguage: 'es', defaultTheme: 'INDIGO_PINK' }, ['fr-FR', 'zh-CN']);
    expect(p.language.value).toBe('es');
  });
});
