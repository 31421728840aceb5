// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { LANGUAGES, loadCatalogues, PAGE_FILES, pageFileFor, THEMES } from '../../src/index.ts';
import { MEMBERS, parseArgs, preferenceOf, SCREENS, shotsFor, themeChoices, UsageError } from './plan.ts';

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

  it('sign in where the screen needs it: the admin and the profile as ada, the create form as grace, the conflict as linus', () => {
    const as = Object.fromEntries(SCREENS.map((s) => [s.id, s.as]));
    expect(as).toMatchObject({
      'admin-collections': 'ada',
      admin: 'ada',
      profile: 'ada',
      'profile-edit': 'ada',
      'profile-create': 'grace',
      'profile-conflict': 'linus',
      notifications: 'grace',
      home: null,
      'sign-in': null,
      'provider-sign-in': null,
      'not-found': null,
    });
    // Each state as the member's device holds it: a profile where one is shown, none for the create form.
    for (const id of ['profile', 'profile-edit', 'profile-conflict']) expect(MEMBERS[as[id]!].profile).not.toBeNull();
    expect(MEMBERS[as['profile-create']!].profile).toBeNull();
    expect(MEMBERS.ada.conflict).toBeNull();
  });

  it('show the states a press away and the late parts: the collections, the edit form, the conflict, the provider', () => {
    const byId = Object.fromEntries(SCREENS.map((s) => [s.id, s]));
    expect(byId['admin-collections']).toMatchObject({ path: '/admin' });
    expect(byId['provider-sign-in']).toMatchObject({ path: '/sign-in', press: 'nav.signIn' });
    expect(byId['profile-edit']).toMatchObject({ path: '/profile', press: 'common.edit' });
    expect(byId['profile-conflict']).toMatchObject({ path: '/profile', shows: '#profile-conflict' });
    expect(byId.profile!.press).toBeUndefined();
  });

  it('wait after every press for what it brings, not for the page it left', () => {
    for (const screen of SCREENS.filter((s) => s.press)) expect(screen.shows, screen.id).toEqual(expect.any(String));
  });

  it('press buttons every language names', async () => {
    const catalogues = await loadCatalogues();
    const pressed = SCREENS.flatMap((s) => (s.press ? [s.press] : []));
    expect(pressed.length).toBeGreaterThan(0);
    for (const language of LANGUAGES) {
      for (const key of pressed) expect(catalogues[language][key], `${key} in ${language}`).toMatch(/\S/);
    }
  });

  it('leave linus a conflict with a field changed on this device, one on the other, one on both', () => {
    const { profile, conflict } = MEMBERS.linus;
    const base = profile!;
    const text = (value: unknown) => (Array.isArray(value) ? value.join(',') : String(value));
    const mine = conflict!.mine as Record<string, string>;
    const theirs = conflict!.theirs as Record<string, unknown>;
    const fields = [...new Set([...Object.keys(mine), ...Object.keys(theirs)])] as (keyof typeof base)[];
    const changedBy = Object.fromEntries(
      fields.map((field) => {
        const here = field in mine && mine[field] !== text(base[field]);
        const there = field in theirs && text(theirs[field]) !== text(base[field]);
        return [field, here && there ? 'both' : here ? 'here' : there ? 'there' : 'nobody'];
      }),
    );
    expect(Object.values(changedBy).sort()).toEqual(['both', 'here', 'there']);
    // On both, and to different values: a real choice.
    const both = fields.find((f) => changedBy[f] === 'both')!;
    expect(mine[both]).not.toBe(text(theirs[both]));
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
    expect(options(['--routes', '/profile,home']).screens.map((s) => s.id)).toEqual([
      'home',
      'profile',
      'profile-edit',
      'profile-create',
      'profile-conflict',
    ]);
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
      '--routes: no screen nowhere (known: home, sign-in, provider-sign-in, profile, profile-edit, profile-create, profile-conflict, settings, dashboard, notifications, admin-collections, admin, not-found)',
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
