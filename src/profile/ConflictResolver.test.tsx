import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Profile } from './requests';
import type { ProfileConflict } from './conflict-state';
import type { Resolution } from './conflict-resolve';
import { watchSubmits } from '../test/watch-submits';

const resolution = vi.hoisted(() => ({
  resolveProfileConflict: vi.fn<(resolution: Resolution) => Promise<'discarded' | 'saved' | 'queued' | 'conflict'>>(),
}));
vi.mock('./conflict-resolve', () => resolution);

// The field labels are a table built when the module loads: each test reads a fresh copy, and
// the snackbar it speaks through with it.
let ConflictResolver: typeof import('./ConflictResolver').default;
let snackbar: typeof import('../ui/snackbar/store').snackbar;
let ApiError: typeof import('../api/errors').ApiError;
beforeEach(async () => {
  vi.resetModules();
  ({ default: ConflictResolver } = await import('./ConflictResolver'));
  ({ snackbar } = await import('../ui/snackbar/store'));
  ({ ApiError } = await import('../api/errors'));
});

afterEach(() => {
  resolution.resolveProfileConflict.mockReset();
});

const THEIRS: Profile = {
  id: 'p-1',
  displayName: 'Ada L.',
  username: 'ada',
  email: 'ada@example.org',
  bio: 'Theirs',
  language: 'de',
  interests: ['maths', 'poetry'],
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-03T00:00:00Z',
};

const CONFLICT: ProfileConflict = {
  id: 'p-1',
  mine: { displayName: 'Ada Lovelace', username: 'countess', email: 'ada@lovelace.org', bio: '', language: 'fr', interests: ['engines'] },
  // The username was left as it was: its merge starts from theirs; the rest from mine.
  base: { displayName: 'Ada', username: 'countess', email: 'ada@example.org', bio: 'Old', language: 'en', interests: [] },
  avatar: null,
  theirs: THEIRS,
  etag: '"2"',
  queued: false,
  fields: ['displayName', 'username', 'email', 'bio', 'language', 'interests'],
};

function show(conflict: ProfileConflict = CONFLICT) {
  const onResolved = vi.fn();
  render(<ConflictResolver conflict={conflict} onResolved={onResolved} />);
  return { onResolved, region: screen.getByRole('region', { name: 'Your profile changed on another device' }) };
}

const rows = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .map((r) => [...r.querySelectorAll('th,td')].map((c) => c.textContent));

describe('<ConflictResolver>', () => {
  it('puts both versions of every differing field side by side, focuses its heading, which says what happened', () => {
    show();
    const heading = screen.getByRole('heading', { name: 'Your profile changed on another device' });
    expect(document.activeElement).toBe(heading);
    expect(heading.tabIndex).toBe(-1);
    const body = 'It was saved elsewhere after you started editing, so your changes were not saved. Nothing is lost: choose what to keep.';
    expect(screen.getByText(body)).toBeTruthy();
    // Read with the heading as it takes the focus: no snackbar to cover the actions.
    expect(document.getElementById(heading.getAttribute('aria-describedby') ?? '')?.textContent).toBe(body);
    expect(snackbar.value).toBeNull();
    expect(rows()).toEqual([
      ['Field', 'On this device', 'On the other device', 'Changed'],
      ['Display name', 'Ada Lovelace', 'Ada L.', 'Changed on both: choose one'],
      ['Username', 'countess', 'ada', 'Changed on the other device'],
      ['Email', 'ada@lovelace.org', 'ada@example.org', 'Changed here'],
      ['About you', '(empty)', 'Theirs', 'Changed on both: choose one'],
      ['Preferred language', 'French', 'German', 'Changed on both: choose one'],
      ['Interests', 'engines', 'maths, poetry', 'Changed on both: choose one'],
    ]);
    // A phone scrolls the table sideways: the keyboard reaches its hidden columns through a named region.
    const versions = screen.getByRole('region', { name: 'Both versions' });
    expect(versions.contains(screen.getByRole('table'))).toBe(true);
    expect(versions.tabIndex).toBe(0);
    // The fields changed on both devices, the real conflicts, are marked as such.
    const marked = [...screen.getByRole('table').querySelectorAll('tr.conflict-row--both th')].map((th) => th.textContent);
    expect(marked).toEqual(['Display name', 'About you', 'Preferred language', 'Interests']);
    expect(screen.queryByText('Your new avatar is kept with your version and with a merge.')).toBeNull();
    expect(screen.queryByRole('form')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    for (const name of ['Keep my changes', 'Use the other device’s version', 'Merge field by field'])
      expect((screen.getByRole('button', { name }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('offers the merge first, as the one filled button; keeping my changes says it keeps only the fields I changed', () => {
    show();
    const actions = screen.getAllByRole('button');
    expect(actions.map((b) => b.textContent)).toEqual(['Merge field by field', 'Keep my changes', 'Use the other device’s version']);
    expect(actions.filter((b) => b.classList.contains('button--filled')).map((b) => b.textContent)).toEqual(['Merge field by field']);
    expect(screen.getByRole('button', { name: 'Keep my changes' }).getAttribute('aria-describedby')).toBe('profile-conflict-keep-hint');
    expect(document.getElementById('profile-conflict-keep-hint')?.textContent).toBe(
      'Keep my changes saves the fields you changed on this device; the others keep the other device’s version.',
    );
  });

  it('without the version the edit started from, keeping my changes says it keeps every field as it is here', () => {
    show({ ...CONFLICT, base: null });
    // Who changed what is then unknown: not guessed.
    expect(rows()[0]).toEqual(['Field', 'On this device', 'On the other device']);
    expect(rows()[1]).toEqual(['Display name', 'Ada Lovelace', 'Ada L.']);
    expect(document.getElementById('profile-conflict-keep-hint')?.textContent).toBe(
      'Keep my changes saves every field as you have it on this device.',
    );
  });

  it('a language it does not know, or text in another field that names one, is shown as it is', () => {
    show({
      ...CONFLICT,
      mine: { ...CONFLICT.mine, language: 'xx' as 'en', bio: 'de' },
      fields: ['bio', 'language'],
    });
    expect(rows().slice(1)).toEqual([
      ['About you', 'de', 'Theirs', 'Changed on both: choose one'],
      ['Preferred language', 'xx', 'German', 'Changed on both: choose one'],
    ]);
  });

  it('with no field differing (only the avatar), offers no table and no merge, and says the avatar is kept', () => {
    show({ ...CONFLICT, fields: [], avatar: new Blob(['x'], { type: 'image/png' }) });
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Merge field by field' })).toBeNull();
    expect(screen.getByText('Your new avatar is kept with your version and with a merge.')).toBeTruthy();
    // Then keeping my changes is the one way to keep the new avatar: the filled button.
    expect(screen.getByRole('button', { name: 'Keep my changes' }).classList.contains('button--filled')).toBe(true);
  });

  it.each([
    ['Keep my changes', { kind: 'mine' }, 'saved', 'Your changes were saved.'],
    [
      'Use the other device’s version',
      { kind: 'theirs' },
      'discarded',
      'Your changes were discarded. The other device’s version is shown.',
    ],
    ['Keep my changes', { kind: 'mine' }, 'queued', 'Saved on this device. It will be sent when you are back online.'],
  ] as const)('%s sends that choice, says what became of it and hands back', async (button, sent, outcome, said) => {
    const user = userEvent.setup();
    resolution.resolveProfileConflict.mockResolvedValueOnce(outcome);
    const { onResolved } = show();
    await user.click(screen.getByRole('button', { name: button }));
    expect(resolution.resolveProfileConflict).toHaveBeenCalledWith(sent);
    await waitFor(() => expect(onResolved).toHaveBeenCalledTimes(1));
    expect(snackbar.value).toMatchObject({ message: said, duration: 5000 });
  });

  it('while the choice is sent, no other can be made', async () => {
    const user = userEvent.setup();
    let finish: (outcome: 'conflict') => void = () => undefined;
    resolution.resolveProfileConflict.mockImplementationOnce(() => new Promise((resolve) => (finish = resolve)));
    const { onResolved } = show();
    await user.click(screen.getByRole('button', { name: 'Use the other device’s version' }));
    for (const name of ['Keep my changes', 'Use the other device’s version', 'Merge field by field'])
      expect((screen.getByRole('button', { name }) as HTMLButtonElement).disabled).toBe(true);
    // A newer change elsewhere: the new conflict replaces this one, nothing is said and nothing handed back.
    await act(async () => finish('conflict'));
    expect(onResolved).not.toHaveBeenCalled();
    expect(snackbar.value).toBeNull();
    expect((screen.getByRole('button', { name: 'Keep my changes' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('a failed choice says why and can be tried again', async () => {
    const user = userEvent.setup();
    resolution.resolveProfileConflict
      .mockRejectedValueOnce(new ApiError(500, { status: 500, error: 'Server Error', message: 'down' }))
      .mockImplementationOnce(() => new Promise(() => undefined));
    const { onResolved } = show();
    await user.click(screen.getByRole('button', { name: 'Keep my changes' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Your changes were not saved: down. The form keeps what you typed.');
    expect(onResolved).not.toHaveBeenCalled();
    expect((screen.getByRole('button', { name: 'Keep my changes' }) as HTMLButtonElement).disabled).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Keep my changes' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  describe('merge', () => {
    const group = (legend: string) => screen.getByRole('group', { name: legend });
    const radio = (legend: string, side: RegExp) => within(group(legend)).getByRole('radio', { name: side }) as HTMLInputElement;

    it('offers each field with both values, starting from the suggested side, and focuses the first choice', async () => {
      const user = userEvent.setup();
      show();
      await user.click(screen.getByRole('button', { name: 'Merge field by field' }));
      expect(screen.queryByRole('table')).toBeNull();
      expect(screen.queryByRole('button', { name: 'Keep my changes' })).toBeNull();
      expect(screen.getByText('For each field, choose the version to keep.')).toBeTruthy();
      expect(
        screen
          .getAllByRole('group')
          .map((g) => [
            g.querySelector('legend')?.textContent,
            ...[...g.querySelectorAll('label')].map(
              (l) => `${l.textContent}${(l.querySelector('input') as HTMLInputElement).checked ? ' *' : ''}`,
            ),
          ]),
      ).toEqual([
        ['Display name', 'This device: Ada Lovelace *', 'Other device: Ada L.'],
        ['Username', 'This device: countess', 'Other device: ada *'],
        ['Email', 'This device: ada@lovelace.org *', 'Other device: ada@example.org'],
        ['About you', 'This device: (empty) *', 'Other device: Theirs'],
        ['Preferred language', 'This device: French *', 'Other device: German'],
        ['Interests', 'This device: engines *', 'Other device: maths, poetry'],
      ]);
      // Each choice says who changed the field: the one changed on both devices is the real conflict.
      expect(group('Display name').getAttribute('aria-describedby')).toBe('conflict-by-displayName');
      expect(screen.getAllByRole('group').map((g) => g.querySelector('.field__hint')?.textContent)).toEqual([
        'Changed on both: choose one',
        'Changed on the other device',
        'Changed here',
        'Changed on both: choose one',
        'Changed on both: choose one',
        'Changed on both: choose one',
      ]);
      // Each field is its own choice: the radios of one are one group.
      expect(radio('Email', /This device/).name).toBe('conflict-email');
      expect(radio('Email', /Other device/).name).toBe('conflict-email');
      expect(radio('Username', /Other device/).closest('label')?.className).toBe('theme-option theme-option--active');
      expect(radio('Username', /This device/).closest('label')?.className).toBe('theme-option');
      await waitFor(() => expect(document.activeElement).toBe(radio('Display name', /This device/)));
    });

    it('sends the sides chosen', async () => {
      const user = userEvent.setup();
      resolution.resolveProfileConflict.mockResolvedValueOnce('saved');
      const { onResolved } = show();
      await user.click(screen.getByRole('button', { name: 'Merge field by field' }));
      await user.click(radio('Display name', /Other device/));
      await user.click(radio('Username', /This device/));
      expect(radio('Display name', /Other device/).checked).toBe(true);
      expect(radio('Display name', /This device/).checked).toBe(false);
      const submits = watchSubmits();
      await user.click(screen.getByRole('button', { name: 'Save merged profile' }));
      expect(submits.reloaded()).toBe(false);
      expect(resolution.resolveProfileConflict).toHaveBeenCalledWith({
        kind: 'merge',
        choice: { displayName: 'theirs', username: 'mine', email: 'mine', bio: 'mine', language: 'mine', interests: 'mine' },
      });
      await waitFor(() => expect(onResolved).toHaveBeenCalled());
      expect(snackbar.value?.message).toBe('Your changes were saved.');
    });

    it('is not sent twice while it is sent, and Cancel goes back to the three ways out', async () => {
      const user = userEvent.setup();
      let finish: (outcome: 'conflict') => void = () => undefined;
      resolution.resolveProfileConflict.mockImplementationOnce(() => new Promise((resolve) => (finish = resolve)));
      show();
      await user.click(screen.getByRole('button', { name: 'Merge field by field' }));
      await user.click(screen.getByRole('button', { name: 'Save merged profile' }));
      expect((screen.getByRole('button', { name: 'Save merged profile' }) as HTMLButtonElement).disabled).toBe(true);
      expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
      await act(async () => finish('conflict'));
      await user.click(screen.getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByRole('group')).toBeNull();
      expect(screen.getByRole('table')).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Keep my changes' })).toBeTruthy();
    });
  });
});
