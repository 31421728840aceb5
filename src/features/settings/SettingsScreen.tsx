import { type ReactNode, useEffect, useState } from 'react';
import { withWords } from '../../i18n';
import { enSettings } from '../../i18n/en-settings';
import { renderMode } from '../../state/render-mode';
import { LANGUAGES, LANGUAGE_NAMES, isLanguage } from '../../config/languages';
import {
  activeThemeName,
  changeColorScheme,
  changeLanguage,
  changeTheme,
  colorScheme,
  language,
  notificationsEnabled,
} from '../../state/preference';
import { onPersistRefused } from '../../lib/persist';
import { COLOR_SCHEMES, THEME_NAMES } from '../../config/themes';
import { THEMES } from '../../ui/theme-colors';
import { showSnackbar } from '../../ui/snackbar/store';
import { isOnline } from '../../state/app';
import type { PushError } from '../../pwa/push';
import { errorText } from '../../ui/widgets/states';

const t = withWords(enSettings);

function pushMessage(error: unknown): string {
  // Stryker disable next-line ConditionalExpression: another error has no reason, so the switch falls to the same message as below
  // The push code loads with the first toggle (it needs the network): its error is told by name.
  if (error instanceof Error && error.name === 'PushError') {
    switch ((error as PushError).reason) {
      case 'no-service-worker':
        return t('push.noServiceWorker');
      case 'not-subscribed':
        return t('push.notSubscribed');
      case 'unsubscribe-failed':
        return t('push.unsubscribeFailed');
      case 'denied':
        return t('settings.notifications.denied');
      case 'unsupported':
        return t('settings.notifications.unsupported');
      // Stryker disable next-line ConditionalExpression: the default case is the last, so leaving out its break ends the switch just the same
      default:
        break;
    }
  }
  return t('push.subscribeFailed', { message: errorText(error) });
}

function NotificationsToggle() {
  const enabled = notificationsEnabled.value;
  const [busy, setBusy] = useState(false);

  async function toggle() {
    if (!isOnline.value) {
      showSnackbar({ message: t('status.needsNetwork'), duration: 5000 });
      return;
    }
    setBusy(true);
    try {
      // Only a toggle, made online, needs it: the push code is no part of the screen kept for offline use.
      const push = await import('../../pwa/push');
      if (enabled) await push.unsubscribeFromPush();
      else await push.subscribeToPush();
      showSnackbar({ message: t(enabled ? 'settings.notifications.disabled' : 'settings.notifications.enabled'), duration: 4000 });
    } catch (error) {
      showSnackbar({ message: pushMessage(error), politeness: 'assertive', duration: 8000 });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="switch-row">
      <div>
        <label htmlFor="notifications-toggle" className="switch-row__label">
          {t('settings.notifications.toggle')}
        </label>
        <p className="field__hint" id="notifications-hint">
          {t('settings.notifications.hint')}
        </p>
      </div>
      <button
        id="notifications-toggle"
        type="button"
        role="switch"
        className="switch"
        aria-checked={enabled}
        aria-describedby="notifications-hint"
        aria-busy={busy || undefined}
        disabled={busy || renderMode.value === 'static'}
        onClick={() => void toggle()}
      >
        <span className="switch__thumb" aria-hidden="true" />
      </button>
    </div>
  );
}

interface ChoicesProps<Name extends string> {
  legend: string;
  /** The radio group's name. */
  group: string;
  names: readonly Name[];
  checked: Name;
  waiting: boolean;
  choose: (name: Name) => void;
  swatch: (name: Name) => ReactNode;
  label: (name: Name) => string;
  hint?: { id: string; text: string };
}

/** One native radio group (arrow keys move within it), each choice with its swatch, applied at once. */
function Choices<Name extends string>({ legend, group, names, checked, waiting, choose, swatch, label, hint }: ChoicesProps<Name>) {
  return (
    <fieldset className="choices" aria-describedby={hint?.id}>
      <legend className="field__label">{legend}</legend>
      <div className="choices__row">
        {names.map((name) => (
          <label key={name} className="choice">
            <input type="radio" name={group} value={name} checked={name === checked} disabled={waiting} onChange={() => choose(name)} />
            {swatch(name)}
            <span>{label(name)}</span>
          </label>
        ))}
      </div>
      {hint && (
        <p className="field__hint" id={hint.id}>
          {hint.text}
        </p>
      )}
    </fieldset>
  );
}

/**
 * Light, dark or the device's, and the accent: two groups of radio buttons, applied at once. The
 * seed's four themes are an accent in its own mode.
 */
function Appearance({ waiting }: { waiting: boolean }) {
  return (
    <>
      <Choices
        legend={t('settings.colorScheme')}
        group="color-scheme"
        names={COLOR_SCHEMES}
        checked={colorScheme.value}
        waiting={waiting}
        choose={changeColorScheme}
        swatch={(name) => <span className={`choice__swatch choice__swatch--${name}`} aria-hidden="true" />}
        label={(name) => t(`settings.colorScheme.${name}`)}
        hint={{ id: 'color-scheme-hint', text: t('settings.colorScheme.hint') }}
      />
      <Choices
        legend={t('settings.accent')}
        group="accent"
        names={THEME_NAMES}
        checked={activeThemeName.value}
        waiting={waiting}
        choose={changeTheme}
        swatch={(name) => (
          <svg className="choice__swatch" viewBox="0 0 40 24" width="40" height="24" aria-hidden="true">
            <rect width="26" height="24" rx="4" fill={THEMES[name].primary} />
            <circle cx="30" cy="12" r="9" fill={THEMES[name].accent} />
          </svg>
        )}
        label={(name) => t(`settings.theme.${name}`)}
      />
    </>
  );
}

export default function SettingsScreen() {
  useEffect(
    () => onPersistRefused(() => showSnackbar({ message: t('settings.storageRefused'), politeness: 'assertive', duration: 8000 })),
    // Stryker disable next-line ArrayDeclaration: any constant list subscribes once, as the empty one does
    [],
  );
  // Prerendered, the controls wait for the app: a choice made before it runs would go nowhere.
  const waiting = renderMode.value === 'static';
  return (
    <div className="screen settings">
      <h1 tabIndex={-1}>{t('settings.title')}</h1>

      <section className="card" aria-labelledby="settings-language">
        <h2 id="settings-language">{t('settings.language')}</h2>
        <div className="field">
          {/* The heading names the section; the label says which language this is: the app's, not the profile's. */}
          <label className="field__label" htmlFor="language-select">
            {t('settings.languageLabel')}
          </label>
          <select
            id="language-select"
            aria-describedby="language-hint"
            className="field__control"
            value={language.value}
            disabled={waiting}
            onChange={(e) => isLanguage(e.target.value) && changeLanguage(e.target.value)}
          >
            {LANGUAGES.map((l) => (
              <option key={l} value={l} lang={l}>
                {LANGUAGE_NAMES[l]}
              </option>
            ))}
          </select>
          <p className="field__hint" id="language-hint">
            {t('settings.languageHint')}
          </p>
        </div>
      </section>

      <section className="card" aria-labelledby="settings-appearance">
        <h2 id="settings-appearance">{t('settings.appearance')}</h2>
        <Appearance waiting={waiting} />
      </section>

      <section className="card" aria-labelledby="settings-notifications">
        <h2 id="settings-notifications">{t('settings.notifications')}</h2>
        <NotificationsToggle />
      </section>
    </div>
  );
}
