import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import SettingsScreen from './SettingsScreen';
import {
  activeThemeName,
  changeColorScheme,
  changeLanguage,
  colorScheme,
  changeTheme,
  disableNotifications,
  enableNotifications,
  followLanguagePreference,
  language,
} from '../../state/preference';
import { loadLanguage } from '../../i18n';
import { resetSnackbar, snackbar } from '../../ui/snackbar/store';
import { es } from '../../i18n/es';
import { setRenderMode } from '../../state/render-mode';
import { setConnectivity } from '../../lib/connectivity';
import { PushError } from '../../pwa/push';

const push = vi.hoisted(() => ({
  subscribeToPush: vi.fn<() => Promise<void>>(),
  unsubscribeFromPush: vi.fn<() => Promise<void>>(),
}));
vi.mock('../../pwa/push', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../pwa/push')>()),
  ...push,
}));

// As the boot does: the interface language follows the preference.
let stopFollowing: () => void;
beforeAll(() => {
  stopFollowing = followLanguagePreference();
});
afterAll(() => stopFollowing());

afterEach(() => {
  act(() => {
    changeLanguage('en');
    changeTheme('INDIGO_PINK');
    changeColorScheme('system');
    disableNotifications();
    setRenderMode('live');
    setConnectivity(true);
    resetSnackbar();
  });
  push.subscribeToPush.mockReset();
  push.unsubscribeFromPush.mockReset();
});

describe('<SettingsScreen>', () => {
  it('offers System, Light and Dark, and the four accents, as two groups of radios, the current ones checked', () => {
    render(<SettingsScreen />);
    const group = (name: string) => screen.getByRole('group', { name }).querySelectorAll<HTMLInputElement>('input[type=radio]');
    const schemes = [...group('Light or dark')];
    expect(schemes.map((r) => [r.value, r.checked, r.labels?.[0]?.textContent])).toEqual([
      ['system', true, 'System'],
      ['light', false, 'Light'],
      ['dark', false, 'Dark'],
    ]);
    expect(new Set(schemes.map((r) => r.name)).size).toBe(1);
    const accents = [...group('Accent colour')];
    expect(accents.map((r) => [r.value, r.checked])).toEqual([
      ['DEEPPURPLE_AMBER', false],
      ['INDIGO_PINK', true],
      ['PINK_BLUEGREY', false],
      ['PURPLE_GREEN', false],
    ]);
    expect(new Set(accents.map((r) => r.name)).size).toBe(1);
    expect(accents[0]!.name).not.toBe(schemes[0]!.name);
    // What System means is said beside the group.
    expect(screen.getByRole('group', { name: 'Light or dark' }).getAttribute('aria-describedby')).toBe('color-scheme-hint');
    expect(document.getElementById('color-scheme-hint')?.textContent).toBe(
      'System follows your device’s setting, and changes when it does.',
    );
  });

  it('a choice applies at once and persists: the accent and the scheme each on their own', async () => {
    const user = userEvent.setup();
    render(<SettingsScreen />);
    await user.click(screen.getByRole('radio', { name: 'Purple and green' }));
    expect(activeThemeName.value).toBe('PURPLE_GREEN');
    expect(colorScheme.value).toBe('system');
    await user.click(screen.getByRole('radio', { name: 'Dark' }));
    expect(colorScheme.value).toBe('dark');
    expect(activeThemeName.value).toBe('PURPLE_GREEN');
    expect((screen.getByRole('radio', { name: 'Purple and green' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('radio', { name: 'Dark' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('radio', { name: 'System' }) as HTMLInputElement).checked).toBe(false);
    expect(JSON.parse(localStorage.getItem('preference')!)).toMatchObject({ activeThemeName: 'PURPLE_GREEN', colorScheme: 'dark' });
  });

  it("the seed's dark themes are an accent in Dark", () => {
    act(() => {
      changeTheme('PINK_BLUEGREY');
      changeColorScheme('dark');
    });
    render(<SettingsScreen />);
    expect((screen.getByRole('radio', { name: 'Pink and blue grey' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('radio', { name: 'Dark' }) as HTMLInputElement).checked).toBe(true);
  });

  it('each group is chosen with the arrow keys', async () => {
    const user = userEvent.setup();
    render(<SettingsScreen />);
    act(() => screen.getByRole('radio', { name: 'Indigo and pink' }).focus());
    await user.keyboard('{ArrowDown}');
    expect(activeThemeName.value).toBe('PINK_BLUEGREY');
    act(() => screen.getByRole('radio', { name: 'System' }).focus());
    await user.keyboard('{ArrowRight}');
    expect(colorScheme.value).toBe('light');
    expect(activeThemeName.value).toBe('PINK_BLUEGREY');
  });

  it('choosing a language changes the preference and the screen follows', async () => {
    const user = userEvent.setup();
    await loadLanguage('es');
    render(<SettingsScreen />);
    const select = screen.getByLabelText('Language of the app', { selector: 'select' }) as HTMLSelectElement;
    expect(select.value).toBe('en');
    // The section's heading and the field's label say different things: the label, whose language it is.
    expect(screen.getByRole('heading', { level: 2, name: 'Language' })).toBeTruthy();
    expect(select.getAttribute('aria-describedby')).toBe('language-hint');
    expect(document.getElementById('language-hint')?.textContent).toBe(
      'Used for the app’s words on this device. A new profile’s preferred language starts from it; change that one in your profile.',
    );
    await user.selectOptions(select, 'es');
    expect(language.value).toBe('es');
    expect(JSON.parse(localStorage.getItem('preference')!)).toMatchObject({ language: 'es' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(es['settings.title']);
    expect((screen.getByLabelText(es['settings.languageLabel'], { selector: 'select' }) as HTMLSelectElement).value).toBe('es');
  });

  it('tells the user when the browser refuses to store the setting', async () => {
    const user = userEvent.setup();
    render(<SettingsScreen />);
    const full: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      },
      removeItem: () => {},
    };
    vi.stubGlobal('localStorage', full);
    await user.click(screen.getByRole('radio', { name: 'Deep purple and amber' }));
    expect(activeThemeName.value).toBe('DEEPPURPLE_AMBER');
    // Said at once and left long enough to read: the choice will not last.
    expect(snackbar.value).toMatchObject({
      message: 'Your browser refused to store this setting: it will be lost when you close the app.',
      politeness: 'assertive',
      duration: 8000,
    });
  });

  it('shows the notifications switch with its state', () => {
    render(<SettingsScreen />);
    const toggle = screen.getByRole('switch', { name: 'Push notifications' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
  });

  it('titles each part, and the title takes focus only by script', () => {
    render(<SettingsScreen />);
    expect(screen.getByRole('heading', { level: 1, name: 'Settings' }).tabIndex).toBe(-1);
    expect(screen.getByRole('region', { name: 'Language' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Appearance' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Notifications' })).toBeTruthy();
    const toggle = screen.getByRole('switch', { name: 'Push notifications' }) as HTMLButtonElement;
    expect(toggle.disabled).toBe(false);
    expect(toggle.getAttribute('aria-busy')).toBeNull();
    expect(document.getElementById(toggle.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Get news from your circle even when the app is closed.',
    );
  });

  it('prerendered, no choice can be made until the app runs', () => {
    act(() => setRenderMode('static'));
    render(<SettingsScreen />);
    expect((screen.getByLabelText('Language of the app', { selector: 'select' }) as HTMLSelectElement).disabled).toBe(true);
    expect((screen.getAllByRole('radio') as HTMLInputElement[]).every((r) => r.disabled)).toBe(true);
    expect((screen.getByRole('switch') as HTMLButtonElement).disabled).toBe(true);
    act(() => setRenderMode('live'));
    expect((screen.getByLabelText('Language of the app', { selector: 'select' }) as HTMLSelectElement).disabled).toBe(false);
    expect((screen.getAllByRole('radio') as HTMLInputElement[]).some((r) => r.disabled)).toBe(false);
    expect((screen.getByRole('switch') as HTMLButtonElement).disabled).toBe(false);
  });

  it('turns push notifications on, busy meanwhile, and says so', async () => {
    const user = userEvent.setup();
    let done: () => void = () => undefined;
    push.subscribeToPush.mockImplementationOnce(
      () =>
        new Promise((resolve) => {
          done = () => {
            enableNotifications();
            resolve();
          };
        }),
    );
    render(<SettingsScreen />);
    const toggle = screen.getByRole('switch', { name: 'Push notifications' }) as HTMLButtonElement;
    await user.click(toggle);
    expect(push.subscribeToPush).toHaveBeenCalledTimes(1);
    expect(push.unsubscribeFromPush).not.toHaveBeenCalled();
    expect(toggle.getAttribute('aria-busy')).toBe('true');
    expect(toggle.disabled).toBe(true);
    await act(async () => done());
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    expect(toggle.getAttribute('aria-busy')).toBeNull();
    expect(toggle.disabled).toBe(false);
    expect(snackbar.value).toMatchObject({ message: 'Push notifications are on.', duration: 4000 });
  });

  it('turns them off when on', async () => {
    const user = userEvent.setup();
    act(() => enableNotifications());
    push.unsubscribeFromPush.mockImplementationOnce(async () => disableNotifications());
    render(<SettingsScreen />);
    await user.click(screen.getByRole('switch', { name: 'Push notifications' }));
    expect(push.unsubscribeFromPush).toHaveBeenCalledTimes(1);
    expect(push.subscribeToPush).not.toHaveBeenCalled();
    await waitFor(() => expect(snackbar.value).toMatchObject({ message: 'Push notifications are off.', duration: 4000 }));
  });

  it('offline, says a connection is needed and tries nothing', async () => {
    const user = userEvent.setup();
    act(() => void setConnectivity(false));
    render(<SettingsScreen />);
    await user.click(screen.getByRole('switch', { name: 'Push notifications' }));
    expect(push.subscribeToPush).not.toHaveBeenCalled();
    expect(snackbar.value).toMatchObject({
      message: 'You are offline: this needs a connection. Try again when you are back online.',
      duration: 5000,
    });
    expect((screen.getByRole('switch') as HTMLButtonElement).disabled).toBe(false);
  });

  it.each([
    ['no-service-worker', 'Service workers are disabled or not supported by this browser'],
    ['not-subscribed', 'Not subscribed to push notifications.'],
    ['unsubscribe-failed', 'Unsubscribe failed!'],
    ['denied', 'Notifications are blocked for this site. Allow them in your browser settings.'],
    ['unsupported', 'This browser cannot receive push notifications.'],
    ['failed', 'Could not turn on push notifications: the push service said no'],
  ] as const)('a push failure (%s) is said in words, assertively, and the switch is usable again', async (reason, said) => {
    const user = userEvent.setup();
    push.subscribeToPush.mockRejectedValueOnce(new PushError('the push service said no', reason));
    render(<SettingsScreen />);
    await user.click(screen.getByRole('switch', { name: 'Push notifications' }));
    await waitFor(() => expect(snackbar.value).toMatchObject({ message: said, politeness: 'assertive', duration: 8000 }));
    expect((screen.getByRole('switch') as HTMLButtonElement).disabled).toBe(false);
    expect(screen.getByRole('switch').getAttribute('aria-checked')).toBe('false');
  });

  it('any other failure is said with its message', async () => {
    const user = userEvent.setup();
    push.subscribeToPush.mockRejectedValueOnce(new Error('boom'));
    render(<SettingsScreen />);
    await user.click(screen.getByRole('switch', { name: 'Push notifications' }));
    await waitFor(() => expect(snackbar.value?.message).toBe('Could not turn on push notifications: boom'));
  });
});
