// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { LANGUAGES, PAGE_FILES, pageFileFor, THEMES } from '../../src/index.ts';
import { parseArgs, preferenceOf, SCREENS, shotsFor, themeChoices, UsageError } from './plan.ts';

const options = (argv: string[]) => {
  const parsed = parseArgs(argv);
  if (parsed.help) throw new Error('help asked');
  return parsed.options;
};
const usageError = (argv: string[]) => {
  try {
    parseArgs(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`no error for ${argv.join(' ')}`);
};

describe('the shots', () => {
  it('are every screen × phone and desktop × light and dark × every language, one file each', () => {
    const shots = shotsFor(SCREENS, LANGUAGES);
    expect(shots).toHaveLength(SCREENS.length * 2 * 2 * LANGUAGES.length);
    expect(new Set(shots.map((s) => s.file)).size).toBe(shots.length);
    expect(new Set(shots.map((s) => `${s.viewport.width}x${s.viewport.height}`))).toEqual(new Set(['390x844', '1280x800']));
    expect(shots[0]!.file).toBe('home-phone-light-en.webp');
    expect(shots.at(-1)!.file).toBe('not-found-desktop-dark-zh-Hans.webp');
  });

  it('are grouped by screen, then width, then theme, languages innermost', () => {
    const shots = shotsFor(SCREENS.slice(0, 2), ['en', 'de']);
    expect(shots.map((s) => s.file)).toEqual([
      'home-phone-light-en.webp',
      'home-phone-light-de.webp',
      'home-phone-dark-en.webp',
      'home-phone-dark-de.webp',
      'home-desktop-light-en.webp',
      'home-desktop-light-de.webp',
      'home-desktop-dark-en.webp',
      'home-desktop-dark-de.webp',
      'sign-in-phone-light-en.webp',
      'sign-in-phone-light-de.webp',
      'sign-in-phone-dark-en.webp',
      'sign-in-phone-dark-de.webp',
      'sign-in-desktop-light-en.webp',
      'sign-in-desktop-light-de.webp',
      'sign-in-desktop-dark-en.webp',
      'sign-in-desktop-dark-de.webp',
    ]);
  });

  it('show every prerendered page: a new page file needs a screen here', () => {
    const shown = new Set(SCREENS.map((s) => pageFileFor(s.path)));
    expect([...shown].sort()).toEqual(
      Object.keys(PAGE_FILES)
        .map((f) => `/${f}`)
        .sort(),
    );
  });

  it('sign in where the screen needs it: the admin and the profile as ada, the create form as grace', () => {
    const as = Object.fromEntries(SCREENS.map((s) => [s.id, s.as]));
    expect(as).toMatchObject({
      admin: 'ada',
      profile: 'ada',
      'profile-create': 'grace',
      notifications: 'grace',
      home: null,
      'sign-in': null,
      'not-found': null,
    });
  });

  it('take a light theme and a dark one', () => {
    const [light, dark] = themeChoices();
    expect(light!.mode).toBe('light');
    expect(THEMES[light!.name].mode).toBe('light');
    expect(dark!.mode).toBe('dark');
    expect(THEMES[dark!.name].mode).toBe('dark');
  });

  it("store the shot's language, theme and mode as the app's preference", () => {
    const [, dark] = themeChoices();
    expect(JSON.parse(preferenceOf({ language: 'zh-Hans', theme: dark! }))).toEqual({
      language: 'zh-Hans',
      activeThemeName: dark!.name,
      enableNotifications: false,
      colorScheme: 'dark',
    });
  });
});

describe('the options', () => {
  it('default to every screen and language, contact-sheet/ and dist/', () => {
    expect(options([])).toEqual({ out: 'contact-sheet', dist: 'dist', screens: [...SCREENS], languages: [...LANGUAGES] });
  });

  it('take a value after the flag or after =', () => {
    expect(options(['--out', 'x', '--dist=build/y'])).toMatchObject({ out: 'x', dist: 'build/y' });
  });

  it('pick screens by name or path, in the sheet order', () => {
    expect(options(['--routes', '/profile,home']).screens.map((s) => s.id)).toEqual(['home', 'profile', 'profile-create']);
    expect(options(['--routes=admin']).screens.map((s) => s.id)).toEqual(['admin']);
  });

  it('pick languages, in the app order', () => {
    expect(options(['--languages', 'zh-Hans, en,en']).languages).toEqual(['en', 'zh-Hans']);
  });

  it('answer --help', () => {
    expect(parseArgs(['--out', 'x', '--help'])).toEqual({ help: true });
  });

  it('refuse what they do not know, naming what they do', () => {
    expect(usageError(['--routes', 'home,nowhere'])).toBe(
      '--routes: no screen nowhere (known: home, sign-in, profile, profile-create, settings, dashboard, notifications, admin, not-found)',
    );
    expect(usageError(['--languages', 'en,zh'])).toBe('--languages: no language zh (known: en, es, de, fr, zh-Hans)');
    expect(usageError(['--width', '3'])).toBe('unknown option --width (see --help)');
    expect(usageError(['out'])).toBe('unknown option out (see --help)');
  });

  it('refuse a flag without its value', () => {
    expect(usageError(['--out'])).toBe('--out needs a value');
    expect(usageError(['--out', '--dist', 'x'])).toBe('--out needs a value');
    expect(usageError(['--dist='])).toBe('--dist needs a value');
    expect(usageError(['--languages', ' , '])).toBe('--languages needs at least one value');
  });
});
