import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import SettingsScreen from './SettingsScreen';
import { activeThemeName, changeLanguage, changeTheme, followLanguagePreference, language } from '../../state/preference';
import { loadLanguage } from '../../i18n';
import { resetSnackbar, snackbar } from '../../ui/snackbar/store';
import { es } from '../../i18n/es';

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
    resetSnackbar();
  });
});

describe('<SettingsScreen>', () => {
  it('offers the four themes as radios, the active one checked', () => {
    render(<SettingsScreen />);
    const radios = screen.getAllByRole('radio') as HTMLInputElement[];
    expect(radios.map((r) => r.value)).toEqual(['DEEPPURPLE_AMBER', 'INDIGO_PINK', 'PINK_BLUEGREY', 'PURPLE_GREEN']);
    expect(radios.filter((r) => r.checked).map((r) => r.value)).toEqual(['INDIGO_PINK']);
  });

  it('choosing a theme radio changes activeThemeName and persists it', async () => {
    const user = userEvent.setup();
    render(<SettingsScreen />);
    await user.click(screen.getByRole('radio', { name: 'Purple and green (dark)' }));
    expect(activeThemeName.value).toBe('PURPLE_GREEN');
    expect((screen.getByRole('radio', { name: 'Purple and green (dark)' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('radio', { name: 'Indigo and pink' }) as HTMLInputElement).checked).toBe(false);
    expect(JSON.parse(localStorage.getItem('preference')!)).toMatchObject({ activeThemeName: 'PURPLE_GREEN' });
  });

  it('themes can be chosen with the arrow keys', async () => {
    const user = userEvent.setup();
    render(<SettingsScreen />);
    const current = screen.getByRole('radio', { name: 'Indigo and pink' });
    act(() => current.focus());
    await user.keyboard('{ArrowDown}');
    expect(activeThemeName.value).toBe('PINK_BLUEGREY');
  });

  it('choosing a language changes the preference and the screen follows', async () => {
    const user = userEvent.setup();
    await loadLanguage('es');
    render(<SettingsScreen />);
    const select = screen.getByLabelText('Language', { selector: 'select' }) as HTMLSelectElement;
    expect(select.value).toBe('en');
    await user.selectOptions(select, 'es');
    expect(language.value).toBe('es');
    expect(JSON.parse(localStorage.getItem('preference')!)).toMatchObject({ language: 'es' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(es['settings.title']);
    expect((screen.getByLabelText(es['settings.language'], { selector: 'select' }) as HTMLSelectElement).value).toBe('es');
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
    expect(snackbar.value?.message).toBe('Your browser refused to store this setting: it will be lost when you close the app.');
  });

  it('shows the notifications switch with its state', () => {
    render(<SettingsScreen />);
    const toggle = screen.getByRole('switch', { name: 'Push notifications' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
  });
});
