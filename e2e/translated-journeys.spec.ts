import { test, expect } from './support/fixtures';
import { localStorageItem, presetSignedIn, screenHeading, settled, snackbar, untranslatedTexts } from './support/pages';
import { loadCatalogues } from '../src/index.ts';

/** The words the pages must show, in each language's catalogue. */
const { en, fr, 'zh-Hans': zhHans } = await loadCatalogues();

/**
 * The main journeys in French and in Simplified Chinese, the language set in the stored preference
 * before the first load: every interface text comes from that catalogue, numbers, amounts, dates
 * and times follow the language, and nothing English is left on the screen.
 */
const LANGUAGE_RUNS = [
  {
    lang: 'fr',
    name: 'Français',
    m: fr,
    // Only the username is left to give: the name and e-mail are the provider's.
    summary: 'Corrigez 1 champ avant d’enregistrer.',
    // A language named in text, in the language on screen.
    language: 'français',
    ago: /^(il y a \d+ (jours?|semaines?|mois|ans?|heures?|minutes?)|hier|avant-hier|la semaine dernière|le mois dernier|l’année dernière)$/,
    fee: /1\u202f250,50\u00a0€/,
    since: /^Membre depuis le \d{1,2} [a-zéû]+\.? \d{4}$/,
  },
  {
    lang: 'zh-Hans',
    name: '简体中文',
    m: zhHans,
    summary: '保存前请更正 1 个字段。',
    language: '简体中文',
    ago: /^(\d+(天|周|个月|年|小时|分钟)前|昨天|前天|上周|上个月|去年)$/,
    fee: /€1,250\.50/,
    since: /^加入时间：\d{4}年\d{1,2}月\d{1,2}日$/,
  },
] as const;

for (const run of LANGUAGE_RUNS) {
  const { lang, m } = run;
  test.describe(`in ${run.name} (${lang})`, () => {
    test.beforeEach(async ({ page }) => {
      // As a member who chose it earlier: stored before the first load, a later choice is kept.
      await page.addInitScript((language) => {
        if (localStorage.getItem('preference') === null) {
          localStorage.setItem('preference', JSON.stringify({ language, activeThemeName: 'INDIGO_PINK', enableNotifications: false }));
        }
      }, lang);
    });

    test('home: the welcome, the call to create a profile and the notifications with their relative times', async ({
      page,
      consoleErrors,
    }) => {
      await page.goto('/home');
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expect(screenHeading(page)).toHaveText(m['home.title']);
      await expect(page).toHaveTitle(`${m['nav.home']} | Circle`);
      await expect(page.getByRole('main').getByRole('link', { name: m['nav.signIn'] })).toBeVisible();
      await expect(page.getByRole('heading', { name: m['home.latestNotifications'] })).toBeVisible();
      const times = page.locator('.notification__time');
      await expect(times).toHaveCount(3);
      for (const time of await times.all()) {
        await expect(time).toHaveText(run.ago);
        // The exact date and time stay one hover away.
        await expect(time).toHaveAttribute('title', /\d{4}/);
      }
      await settled(page);
      expect(await untranslatedTexts(page, en, m)).toEqual([]);
      expect(consoleErrors).toEqual([]);
    });

    test('profile: the form checks in the language, then creates the profile and shows the card', async ({ page, consoleErrors }) => {
      await presetSignedIn(page);
      await page.goto('/profile');
      const form = page.getByRole('form', { name: m['profile.createTitle'] });
      await expect(form).toBeVisible();
      await expect(page.getByText(m['profile.none'])).toBeVisible();
      // A new profile's preferred language is the one on screen.
      await expect(form.getByLabel(m['field.language'])).toHaveValue(lang);
      await form.getByRole('button', { name: m['profile.create'] }).click();
      await expect(form.getByRole('alert').first()).toHaveText(run.summary);
      await expect(form.getByLabel(m['field.username'])).toBeFocused();
      await expect(form.getByText(m['validation.required']).first()).toBeVisible();
      expect(await untranslatedTexts(page, en, m)).toEqual([]);

      await form.getByLabel(m['field.displayName']).fill('Ada Lovelace');
      await form.getByLabel(m['field.username']).fill('ada_l');
      await form.getByLabel(m['field.email']).fill('ada@example.org');
      await form.getByLabel(m['field.interests']).fill(lang === 'zh-Hans' ? '数学，诗歌' : 'maths, poésie');
      await form.getByRole('button', { name: m['profile.create'] }).click();

      const card = page.getByRole('article', { name: 'Ada Lovelace' });
      await expect(card).toBeVisible();
      await expect(snackbar(page)).toHaveText(m['profile.created']);
      await expect(card.getByRole('list', { name: m['field.interests'] }).getByRole('listitem')).toHaveText(
        lang === 'zh-Hans' ? ['数学', '诗歌'] : ['maths', 'poésie'],
      );
      await expect(card.getByText(m['profile.preferredLanguage'].replace('{language}', run.language))).toBeVisible();
      await expect(card.getByText(run.since)).toBeVisible();
      await expect(page.getByRole('button', { name: m['profile.delete'] })).toBeVisible();
      expect(await untranslatedTexts(page, en, m)).toEqual([]);
      expect(consoleErrors).toEqual([]);
    });

    test('settings: the five languages in their own names; switching applies at once and is kept', async ({ page, consoleErrors }) => {
      await page.goto('/settings');
      await expect(screenHeading(page)).toHaveText(m['settings.title']);
      await expect(page).toHaveTitle(`${m['nav.settings']} | Circle`);
      const picker = page.getByRole('combobox', { name: m['settings.languageLabel'], exact: true });
      await expect(picker).toHaveValue(lang);
      await expect(picker.getByRole('option')).toHaveText(['English', 'Español', 'Deutsch', 'Français', '简体中文']);
      await expect(page.getByRole('radio', { name: m['settings.theme.PINK_BLUEGREY'] })).toBeVisible();
      await expect(page.getByRole('switch', { name: m['settings.notifications.toggle'] })).toBeVisible();
      await settled(page);
      expect(await untranslatedTexts(page, en, m)).toEqual([]);

      const other = lang === 'fr' ? { lang: 'zh-Hans', m: zhHans, name: '简体中文' } : { lang: 'fr', m: fr, name: 'Français' };
      await picker.selectOption({ label: other.name });
      await expect(page.locator('html')).toHaveAttribute('lang', other.lang);
      await expect(screenHeading(page)).toHaveText(other.m['settings.title']);
      await expect(page).toHaveTitle(`${other.m['nav.settings']} | Circle`);
      expect(JSON.parse((await localStorageItem(page, 'preference')) ?? 'null')).toMatchObject({ language: other.lang });
      await page.reload();
      await expect(page.locator('html')).toHaveAttribute('lang', other.lang);
      await expect(screenHeading(page)).toHaveText(other.m['settings.title']);
      expect(consoleErrors).toEqual([]);
    });

    test('dashboard: amounts, numbers and times follow the language', async ({ page, consoleErrors }) => {
      await page.goto('/dashboard');
      await expect(screenHeading(page)).toHaveText(m['dashboard.title']);
      const accounts = page.getByRole('region', { name: m['dashboard.accounts'] });
      await expect(accounts.getByRole('listitem')).toHaveCount(3);
      await expect(accounts.getByRole('listitem').first()).toContainText(run.fee);
      await expect(page.getByRole('region', { name: m['dashboard.symbols'] }).locator('.symbol-code')).toHaveText(['MSFT', 'AAPL', 'GOOG']);
      const notifications = page.getByRole('region', { name: m['dashboard.notifications'] });
      await expect(notifications.getByRole('listitem').first()).toContainText(m['notifications.level.warning']);
      await expect(notifications.locator('.notification__time').first()).toHaveText(run.ago);
      await settled(page);
      expect(await untranslatedTexts(page, en, m)).toEqual([]);
      expect(consoleErrors).toEqual([]);
    });
  });
}
