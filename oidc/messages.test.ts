import { describe, expect, it, vi } from 'vitest';
import type { PageLanguage, PageMessages } from './messages.ts';

/** The catalogue is made when the module loads: each test loads it afresh so it sees the module as it is now. */
async function load() {
  vi.resetModules();
  return import('./messages.ts');
}

const LANGUAGES: PageLanguage[] = ['en', 'es', 'de', 'fr', 'zh-Hans'];
const KEYS: (keyof PageMessages)[] = [
  'signInTitle',
  'signInHeading',
  'failed',
  'throttled',
  'username',
  'password',
  'signIn',
  'cancel',
  'demoHeading',
  'demoHint',
  'signOutTitle',
  'signOutHeading',
  'signOutNote',
  'signOut',
  'staySignedIn',
  'signingOut',
  'continue',
  'signedOutTitle',
  'signedOutHeading',
  'back',
  'failedTitle',
  'failedDetail',
  'technical',
  'expiredTitle',
  'expiredDetail',
  'notAllowedTitle',
  'notAllowedDetail',
  'unknownHostTitle',
  'unknownHostDetail',
];

/** Every message as text, the functions given sample arguments. */
function texts(m: PageMessages): [string, string][] {
  return Object.entries(m).map(([key, value]) => [
    key,
    typeof value === 'function'
      ? (value as (a: string | number, b?: string) => string)(key === 'unknownHostDetail' || key === 'throttled' ? 8080 : 'X', 'Y')
      : value,
  ]);
}

describe('the provider pages speak the app’s languages', () => {
  it('takes the first of ui_locales Circle speaks, else Accept-Language by preference, else English', async () => {
    const { pageLanguage } = await load();
    expect(pageLanguage('fr', 'de')).toBe('fr');
    expect(pageLanguage('pt-BR zh-Hans', 'de')).toBe('zh-Hans');
    expect(pageLanguage('pt', 'es-MX,en;q=0.5')).toBe('es');
    expect(pageLanguage(undefined, 'en;q=0.2, de-AT;q=0.9, fr;q=0.5')).toBe('de');
    expect(pageLanguage(undefined, 'zh-CN,zh;q=0.9')).toBe('zh-Hans');
    expect(pageLanguage(undefined, 'fr;q=0, it')).toBe('en');
    expect(pageLanguage(42, undefined)).toBe('en');
    expect(pageLanguage('', '*')).toBe('en');
  });

  it('of Accept-Language tags with the same preference, the first listed wins', async () => {
    const { pageLanguage } = await load();
    expect(pageLanguage(undefined, 'fr, de')).toBe('fr');
    expect(pageLanguage(undefined, 'de, fr, es')).toBe('de');
    expect(pageLanguage(undefined, 'it;q=0.9, es;q=0.8, fr;q=0.8, de;q=0.8')).toBe('es');
    expect(pageLanguage(undefined, 'it, pt, es, fr, de, zh')).toBe('es');
  });

  it('Chinese: zh, zh-CN, zh-SG and any zh-Hans tag are Simplified Chinese; Traditional is not', async () => {
    const { pageLanguage } = await load();
    for (const tag of ['zh', 'ZH-cn', 'zh-SG', 'zh-Hans', 'zh-Hans-HK']) {
      expect(pageLanguage(tag, undefined), tag).toBe('zh-Hans');
      expect(pageLanguage(undefined, tag), tag).toBe('zh-Hans');
    }
    expect(pageLanguage('zh-Hant', 'de')).toBe('de');
    expect(pageLanguage('zh-TW', undefined)).toBe('en');
    expect(pageLanguage(undefined, 'zh-Hant-HK')).toBe('en');
  });

  it('English asked for is English, even before a language that comes later', async () => {
    const { pageLanguage } = await load();
    expect(pageLanguage('en-GB', 'de')).toBe('en');
    expect(pageLanguage(undefined, 'EN, fr')).toBe('en');
  });

  it('reads q-values with the spaces HTTP allows, and ignores other parameters', async () => {
    const { pageLanguage } = await load();
    expect(pageLanguage(undefined, 'fr; q=0.5, de')).toBe('de');
    expect(pageLanguage(undefined, 'fr;q=0.5 , de')).toBe('de');
    expect(pageLanguage(undefined, 'fr ;  q=0.5  ,de')).toBe('de');
    // A parameter that is not q leaves the preference at 1.
    expect(pageLanguage(undefined, 'fr;level=1, de;q=0.9')).toBe('fr');
    // Only a parameter named q, holding only a number, is a q-value.
    expect(pageLanguage(undefined, 'fr;xq=0, de')).toBe('fr');
    expect(pageLanguage(undefined, 'fr;q=0x, de')).toBe('fr');
    expect(pageLanguage(undefined, 'fr;level=q=0, de')).toBe('fr');
  });

  it('has the five languages, each with every message, none empty', async () => {
    const { PAGE_MESSAGES } = await load();
    expect(Object.keys(PAGE_MESSAGES).sort()).toEqual([...LANGUAGES].sort());
    for (const language of LANGUAGES) {
      const m = PAGE_MESSAGES[language];
      expect(Object.keys(m).sort(), language).toEqual([...KEYS].sort());
      for (const [key, text] of texts(m)) expect(text.trim(), `${language} ${key}`).not.toBe('');
    }
  });

  it('each message with a parameter says it: the client’s name, the demo accounts and password, the port', async () => {
    const { PAGE_MESSAGES } = await load();
    for (const language of LANGUAGES) {
      const m = PAGE_MESSAGES[language];
      expect(m.signInHeading('Circle Beta'), language).toContain('Circle Beta');
      expect(m.signOutHeading('Circle Beta'), language).toContain('Circle Beta');
      const hint = m.demoHint('ada, grace', 'secret-word');
      expect(hint, language).toContain('ada, grace');
      expect(hint, language).toContain('secret-word');
      // The accounts come first: every language's sentence starts from the list.
      expect(hint.startsWith('ada, grace'), language).toBe(true);
      expect(m.unknownHostDetail(5173), language).toContain('5173');
      expect(m.unknownHostDetail(5173), language).toMatch(/127\.0\.0\.1.*localhost/);
      // The minutes given, as a number of its own, and nothing else of the sentence depends on them.
      expect(m.throttled(13), language).toMatch(/(^|\D)13(\D|$)/);
      expect(m.throttled(13), language).toBe(m.throttled(7).replace(/(^|\D)7(\D|$)/, '$113$2'));
      expect(m.throttled(13), language).not.toBe(m.throttled(7));
    }
  });

  it('in English, the words the sign-in and sign-out pages show', async () => {
    const { PAGE_MESSAGES } = await load();
    const m = PAGE_MESSAGES.en;
    expect(m.signInTitle).toBe('Sign in');
    expect(m.signInHeading('Circle')).toBe('Sign in to Circle');
    expect(m.username).toBe('Username');
    expect(m.password).toBe('Password');
    expect(m.signIn).toBe('Sign in');
    expect(m.cancel).toBe('Cancel');
    expect(m.signOutHeading('Circle')).toBe('Sign out of Circle?');
    expect(m.signOut).toBe('Sign out');
    expect(m.staySignedIn).toBe('Stay signed in');
    expect(m.back).toBe('Back to Circle');
    expect(m.demoHint('ada', 'circle')).toBe('ada: the password of each is circle.');
    expect(m.unknownHostDetail(8080)).toBe('Sign-in is served on 127.0.0.1 or localhost, at port 8080.');
  });

  it('every language says every message in its own words (only the names of things stay as in English)', async () => {
    const { PAGE_MESSAGES } = await load();
    const english = new Map(texts(PAGE_MESSAGES.en));
    for (const language of ['es', 'de', 'fr', 'zh-Hans'] as PageLanguage[]) {
      for (const [key, text] of texts(PAGE_MESSAGES[language])) {
        expect(text.trim(), `${language} ${key}`).not.toBe('');
        expect(text, `${language} ${key}`).not.toBe(english.get(key));
      }
    }
  });

  it('French typography: no-break spaces before : and ?, the typographic apostrophe', async () => {
    const { PAGE_MESSAGES } = await load();
    for (const [key, text] of texts(PAGE_MESSAGES.fr)) {
      expect(text, key).not.toMatch(/'|[^\u00a0\u202f][;!?]|[^\u00a0\u202f]:(?!\/\/)/);
    }
  });
});
