/**
 * What the contact sheet shows: the screens, the members they are seen by, the two widths, the two
 * themes, the languages, and their product, one shot each; and the command's options. Pure: no
 * browser, no server, no files.
 */
import {
  DEFAULT_THEME,
  LANGUAGES,
  type Language,
  type Messages,
  type ProfileInput,
  THEME_NAMES,
  THEMES,
  type ThemeName,
} from '../../src/index.ts';

/** The members a screen is seen by (the provider's accounts): see MEMBERS. */
export type Member = 'ada' | 'grace' | 'linus';

/** A button in the page's main region, named by its words in the app's catalogue (the shot's language). */
export type MessageKey = keyof Messages;

/**
 * A profile edit this device began, and a change to the same profile saved meanwhile on another
 * device (through the API): saving the edit meets a conflict. The two touch one field each alone
 * and one field both, so the conflict screen shows every kind of change.
 */
export interface ProfileConflictSetup {
  /** Typed into the edit form (each field by its label), then saved. */
  mine: Partial<Record<'bio' | 'interests', string>>;
  /** Saved on the other device while the form was open. */
  theirs: Partial<ProfileInput>;
}

export interface MemberSetup {
  /**
   * The profile made for the member before the shots (with an avatar), or none; `sample` is the
   * suites' own sample profile (testkit's SAMPLE_PROFILE, read where the profile is made).
   */
  profile: ProfileInput | 'sample' | null;
  /** A conflicting edit left on the member's device (the save kept for the member to choose), or none. */
  conflict: ProfileConflictSetup | null;
}

/**
 * What each member has before the first shot: ada is the admin and has a profile; grace has none;
 * linus has one, and his device keeps an edit of it that the profile changed under. Made once, so
 * every shot of a screen shows the same thing.
 */
export const MEMBERS: Readonly<Record<Member, MemberSetup>> = {
  ada: { profile: 'sample', conflict: null },
  grace: { profile: null, conflict: null },
  linus: {
    profile: {
      displayName: 'Linus Pauling',
      username: 'linus_p',
      email: 'linus@example.org',
      bio: 'Chemist.',
      language: 'en',
      interests: ['chemistry'],
    },
    conflict: {
      mine: { bio: 'Chemist. Twice a laureate.', interests: 'peace' },
      theirs: { displayName: 'Dr Linus Pauling', interests: ['vitamins'] },
    },
  },
};

export interface Screen {
  /** Names the screen in file names and in --routes. */
  id: string;
  title: string;
  /** Where the screen is opened. */
  path: string;
  /** Who is signed in; null: a visitor. */
  as: Member | null;
  /** What state the screen is seen in, for the captions. */
  state: string;
  /** A state one press away: the button pressed in the page's main region once it has settled. */
  press?: MessageKey;
  /** A CSS selector for what must show before the shot, when a heading is not enough (after a press, a late part). */
  shows?: string;
}

/**
 * One screen per prerendered page (src/config/page-files.ts), the provider's sign-in page, and the
 * profile's and the admin's other states: create and edit forms, a conflict, the collections.
 */
export const SCREENS: readonly Screen[] = [
  { id: 'home', title: 'Home', path: '/home', as: null, state: 'signed out' },
  { id: 'sign-in', title: 'Sign in', path: '/sign-in', as: null, state: 'signed out' },
  {
    id: 'provider-sign-in',
    title: 'Sign in: provider',
    path: '/sign-in',
    as: null,
    state: "signed out, Sign in pressed: the identity provider's page under /oidc",
    press: 'nav.signIn',
    shows: 'main form input[type="password"]',
  },
  { id: 'profile', title: 'Profile', path: '/profile', as: 'ada', state: 'signed in as ada, with a profile' },
  {
    id: 'profile-edit',
    title: 'Profile: edit form',
    path: '/profile',
    as: 'ada',
    state: 'signed in as ada, with a profile, Edit pressed',
    press: 'common.edit',
    shows: 'form[aria-labelledby="profile-form-title"]',
  },
  { id: 'profile-create', title: 'Profile: create form', path: '/profile', as: 'grace', state: 'signed in as grace, no profile yet' },
  {
    id: 'profile-conflict',
    title: 'Profile: conflict',
    path: '/profile',
    as: 'linus',
    state: 'signed in as linus, whose edit met a change saved on another device',
    shows: '#profile-conflict',
  },
  { id: 'settings', title: 'Settings', path: '/settings', as: null, state: 'signed out' },
  { id: 'dashboard', title: 'Dashboard', path: '/dashboard', as: null, state: 'signed out' },
  { id: 'notifications', title: 'Notifications', path: '/notifications', as: 'grace', state: 'signed in as grace, no profile yet' },
  { id: 'admin-collections', title: 'Admin: collections', path: '/admin', as: 'ada', state: 'signed in as ada, the admin' },
  { id: 'admin', title: 'Admin: symbols', path: '/admin/symbols', as: 'ada', state: 'signed in as ada, the admin' },
  { id: 'not-found', title: 'Not found', path: '/404', as: null, state: 'signed out' },
];

export interface Viewport {
  id: 'phone' | 'desktop';
  width: number;
  height: number;
}

export const VIEWPORTS: readonly Viewport[] = [
  { id: 'phone', width: 390, height: 844 },
  { id: 'desktop', width: 1280, height: 800 },
];

export interface ThemeChoice {
  mode: 'light' | 'dark';
  name: ThemeName;
}

/** The default theme when it is light (else the first light one), and the first dark one. */
export function themeChoices(): ThemeChoice[] {
  const first = (mode: 'light' | 'dark') =>
    THEMES[DEFAULT_THEME].mode === mode ? DEFAULT_THEME : THEME_NAMES.find((name) => THEMES[name].mode === mode);
  return (['light', 'dark'] as const).flatMap((mode) => {
    const name = first(mode);
    return name ? [{ mode, name }] : [];
  });
}

export interface Shot {
  screen: Screen;
  viewport: Viewport;
  theme: ThemeChoice;
  language: Language;
  /** The image's file name in the output directory. */
  file: string;
}

/** Every screen × width × theme × language, grouped by screen, then width, then theme. */
export function shotsFor(screens: readonly Screen[], languages: readonly Language[]): Shot[] {
  const themes = themeChoices();
  return screens.flatMap((screen) =>
    VIEWPORTS.flatMap((viewport) =>
      themes.flatMap((theme) =>
        languages.map((language) => ({
          screen,
          viewport,
          theme,
          language,
          file: `${screen.id}-${viewport.id}-${theme.mode}-${language}.webp`,
        })),
      ),
    ),
  );
}

/**
 * The stored preference the app reads before its first paint (src/state/preference.ts, key
 * `preference`): the theme's accent in the shot's mode, named, so the device's own does not matter.
 */
export function preferenceOf(shot: Pick<Shot, 'language' | 'theme'>): string {
  return JSON.stringify({
    language: shot.language,
    activeThemeName: shot.theme.name,
    enableNotifications: false,
    colorScheme: shot.theme.mode,
  });
}

/* ------------------------------------------------------------------ options */

export interface SheetOptions {
  out: string;
  dist: string;
  screens: Screen[];
  languages: Language[];
}

/** Bad flags or values: one line for stderr, exit code 2. */
export class UsageError extends Error {}

export function usage(): string {
  return [
    'Usage: npm run contact-sheet -- [options]',
    '',
    'Captures every screen at 390x844 and 1280x800, in a light and a dark theme, in every language, from',
    'the built app served with the mock API, and writes them as WebP with an index.html to review them.',
    '',
    '  --out DIR          where to write index.html and the images (default: contact-sheet)',
    `  --routes LIST      comma-separated screens, by name or path: ${SCREENS.map((s) => s.id).join(', ')} (default: all)`,
    `  --languages LIST   comma-separated languages: ${LANGUAGES.join(', ')} (default: all)`,
    '  --dist DIR         the build to serve (default: dist; built first when it has no index.html)',
    '  --help             this help',
    '',
    "Chinese needs a CJK font: when `fc-list :lang=zh` lists none, Debian's fonts-noto-cjk is installed",
    'first (apt-get, with sudo when not root). Exit code 1 when a shot failed, 2 for a bad option.',
  ].join('\n');
}

function list(raw: string, flag: string): string[] {
  const items = [...new Set(raw.split(',').map((item) => item.trim()))].filter((item) => item !== '');
  if (items.length === 0) throw new UsageError(`${flag} needs at least one value`);
  return items;
}

function pickScreens(names: string[]): Screen[] {
  const picked = new Set<Screen>();
  for (const name of names) {
    const found = SCREENS.filter((screen) => screen.id === name || screen.path === name);
    if (found.length === 0) throw new UsageError(`--routes: no screen ${name} (known: ${SCREENS.map((s) => s.id).join(', ')})`);
    for (const screen of found) picked.add(screen);
  }
  // In the sheet's order, whatever the order asked.
  return SCREENS.filter((screen) => picked.has(screen));
}

function pickLanguages(names: string[]): Language[] {
  for (const name of names) {
    if (!(LANGUAGES as readonly string[]).includes(name))
      throw new UsageError(`--languages: no language ${name} (known: ${LANGUAGES.join(', ')})`);
  }
  return LANGUAGES.filter((language) => names.includes(language));
}

const VALUED = ['--out', '--routes', '--languages', '--dist'] as const;

/** Reads the flags (`--flag VALUE` or `--flag=VALUE`): `help` when --help was asked for; a UsageError for anything amiss. */
export function parseArgs(argv: readonly string[]): { help: true } | { help: false; options: SheetOptions } {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return { help: true };
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (!(VALUED as readonly string[]).includes(flag)) throw new UsageError(`unknown option ${arg} (see --help)`);
    const value = inline ?? argv[++i];
    if (value === undefined || (inline === undefined && value.startsWith('--'))) throw new UsageError(`${flag} needs a value`);
    if (value.trim() === '') throw new UsageError(`${flag} needs a value`);
    values.set(flag, value);
  }
  const routes = values.get('--routes');
  const languages = values.get('--languages');
  return {
    help: false,
    options: {
      out: values.get('--out') ?? 'contact-sheet',
      dist: values.get('--dist') ?? 'dist',
      screens: routes === undefined ? [...SCREENS] : pickScreens(list(routes, '--routes')),
      languages: languages === undefined ? [...LANGUAGES] : pickLanguages(list(languages, '--languages')),
    },
  };
}
