import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import AdminScreen from './AdminScreen';
import { ApiError } from '../../api/errors';
import { resetSnackbar, snackbar } from '../../ui/snackbar/store';
import { sessionEnded, sessionStarted } from '../../state/auth';
import { setProfileState } from '../../profile/store';
import { resetProfileState } from '../../profile/store';
import { PROFILE } from '../../test/profile-fixture';
import { loadLanguage } from '../../i18n';

type Row = { id: string } & Record<string, unknown>;

const backend = vi.hoisted(() => ({
  list: vi.fn<(name: string, query: unknown, signal?: AbortSignal) => Promise<Row[]>>(),
  remove: vi.fn<(name: string, id: string) => Promise<void>>(),
  create: vi.fn<(name: string, body: unknown) => Promise<Row>>(),
  replace: vi.fn<(name: string, id: string, body: unknown) => Promise<Row>>(),
  reset: vi.fn<() => Promise<void>>(),
}));
vi.mock('../../api/instance', () => ({
  api: {
    collections: () => ({ list: backend.list, remove: backend.remove, create: backend.create, replace: backend.replace }),
    reset: backend.reset,
  },
}));

const ROWS: Row[] = [
  { id: 'a1', name: 'Main', balance: 0, meta: { tier: 'gold' }, note: null },
  { id: 'a2', name: 'Spare', closed: true },
];

function visit(path: string) {
  const location = memoryLocation({ path, record: true });
  render(
    <Router hook={location.hook}>
      <Route path="/admin/:collection?">
        <AdminScreen />
      </Route>
    </Router>,
  );
  return location;
}

beforeEach(() => {
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  // The screens below are an admin's; the member's own screen has its tests at the end.
  sessionStarted({ subject: 'ada', name: 'Ada Lovelace', email: null, roles: ['member', 'admin'] });
});

afterEach(() => {
  for (const fn of Object.values(backend)) fn.mockReset();
  act(() => resetSnackbar());
  act(() => sessionEnded('signed-out'));
});

// The confirmation is in the page closed, as the browser keeps a closed <dialog>: hidden, so not found by role.
const dialog = () => document.querySelector('dialog.dialog:not(.dialog--wide)') as HTMLDialogElement;

describe('<AdminScreen> without a collection', () => {
  it('introduces itself and links each collection', () => {
    visit('/admin');
    const title = screen.getByRole('heading', { level: 1, name: 'Admin' });
    expect(title.tabIndex).toBe(-1);
    expect(screen.getByText('Create, edit and delete the records of each collection. The backend checks every change.')).toBeTruthy();
    const links = screen.getAllByRole('link');
    expect(links.map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['accounts', '/admin/accounts'],
      ['notifications', '/admin/notifications'],
      ['subscription', '/admin/subscription'],
      ['symbols', '/admin/symbols'],
    ]);
    expect(backend.list).not.toHaveBeenCalled();
  });

  it('restores the seed data, saying so, and is not pressed twice meanwhile', async () => {
    const user = userEvent.setup();
    let done: () => void = () => undefined;
    backend.reset.mockImplementationOnce(() => new Promise((resolve) => (done = resolve)));
    visit('/admin');
    const button = screen.getByRole('button', { name: 'Put back the sample data' }) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    await user.click(button);
    expect(button.disabled).toBe(true);
    await act(async () => done());
    expect(button.disabled).toBe(false);
    expect(snackbar.value).toMatchObject({ message: 'Every collection holds its sample data again.', duration: 4000 });
  });

  it('a refused reset says what the backend answered, assertively, and the button is usable again', async () => {
    const user = userEvent.setup();
    backend.reset.mockRejectedValueOnce(new ApiError(403, { status: 403, error: 'Forbidden', message: 'admins only' }));
    visit('/admin');
    await user.click(screen.getByRole('button', { name: 'Put back the sample data' }));
    await waitFor(() =>
      expect(snackbar.value).toMatchObject({ message: 'The backend answered: 403 admins only', politeness: 'assertive', duration: 8000 }),
    );
    expect((screen.getByRole('button', { name: 'Put back the sample data' }) as HTMLButtonElement).disabled).toBe(false);
  });
});

describe('<AdminScreen> of a collection', () => {
  it('an unknown collection is a page not found', async () => {
    const location = visit('/admin/secrets');
    await waitFor(() => expect(location.history.at(-1)).toBe('/404'));
    expect(backend.list).not.toHaveBeenCalled();
  });

  it('says it is loading, then lists every field of every record, blanks where a record has none', async () => {
    let answer: (rows: Row[]) => void = () => undefined;
    backend.list.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    visit('/admin/accounts');
    expect(screen.getByRole('heading', { level: 2, name: 'Collection: accounts' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(backend.list.mock.calls[0]![0]).toBe('accounts');
    expect(backend.list.mock.calls[0]![2]).toBeInstanceOf(AbortSignal);
    await act(async () => answer(ROWS));

    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByText('This collection is empty. Add its first record with New record.')).toBeNull();
    const table = screen.getByRole('region', { name: 'Collection: accounts' });
    expect(table.tabIndex).toBe(0);
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    // Headed as the form labels the fields (the contract's titles); a key no field has heads its column itself.
    expect(headers).toEqual(['id', 'Name', 'Balance', 'meta', 'note', 'closed', 'Actions']);
    const [, first, second] = within(table).getAllByRole('row');
    const cells = (row: HTMLElement) =>
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(cells(first!)).toEqual(['a1', 'Main', '0', '{"tier":"gold"}', '', '', 'EditDelete']);
    expect(cells(second!)).toEqual(['a2', 'Spare', '', '', '', 'true', 'EditDelete']);
    expect(screen.getByRole('button', { name: 'Edit a1' }).textContent).toBe('Edit');
    expect(screen.getByRole('button', { name: 'Delete a2' }).textContent).toBe('Delete');
  });

  it('heads its columns with the fields’ labels in the language on screen, the contract’s translations', async () => {
    backend.list.mockResolvedValue([{ id: 'a1', name: 'Main', currency: 'EUR', balance: 0 }]);
    const headers = async () =>
      within(await screen.findByRole('table'))
        .getAllByRole('columnheader')
        .map((h) => h.textContent);
    visit('/admin/accounts');
    expect(await headers()).toEqual(['id', 'Name', 'Currency', 'Balance', 'Actions']);
    cleanup();
    // The screen is drawn anew on a change of language (its route reads the language).
    await act(() => loadLanguage('fr'));
    try {
      visit('/admin/accounts');
      expect(await headers()).toEqual(['id', 'Nom', 'Devise', 'Solde', 'Actions']);
    } finally {
      await act(() => loadLanguage('en'));
    }
  });

  it("keeps the last list of a collection for the next visit, but never the push subscriptions (the devices' keys)", async () => {
    const subscription = { id: 's1', endpoint: 'https://push.example/a', keys: { p256dh: 'k', auth: 'a' } };
    backend.list.mockResolvedValueOnce(ROWS).mockResolvedValueOnce([subscription]);
    visit('/admin/accounts');
    await screen.findByRole('region', { name: 'Collection: accounts' });
    cleanup();
    visit('/admin/subscription');
    await screen.findByRole('region', { name: 'Collection: subscription' });
    expect(JSON.parse(localStorage.getItem('cache.accounts') ?? 'null')).toEqual(ROWS);
    expect(localStorage.getItem('cache.subscription')).toBeNull();
  });

  it('an empty collection says so and what to do next, with no table', async () => {
    backend.list.mockResolvedValueOnce([]);
    visit('/admin/symbols');
    expect(await screen.findByText('This collection is empty. Add its first record with New record.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('a failed list says why, and Retry lists again', async () => {
    const user = userEvent.setup();
    backend.list.mockRejectedValueOnce(new Error('down')).mockResolvedValueOnce(ROWS);
    visit('/admin/accounts');
    expect((await screen.findByRole('alert')).textContent).toContain('Could not load this: down');
    expect(screen.queryByRole('status')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('button', { name: 'Edit a1' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a reset lists the collection again', async () => {
    const user = userEvent.setup();
    backend.list.mockResolvedValue(ROWS);
    backend.reset.mockResolvedValueOnce(undefined);
    visit('/admin/accounts');
    await screen.findByRole('button', { name: 'Edit a1' });
    await user.click(screen.getByRole('button', { name: 'Put back the sample data' }));
    await waitFor(() => expect(backend.list).toHaveBeenCalledTimes(2));
    // Every reset does, not only the first.
    backend.reset.mockResolvedValueOnce(undefined);
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Put back the sample data' }) as HTMLButtonElement).disabled).toBe(false),
    );
    await user.click(screen.getByRole('button', { name: 'Put back the sample data' }));
    await waitFor(() => expect(backend.list).toHaveBeenCalledTimes(3));
  });

  it('deletes a record after asking, says so and lists again', async () => {
    const user = userEvent.setup();
    backend.list.mockResolvedValueOnce(ROWS).mockResolvedValueOnce([ROWS[1]!]);
    backend.remove.mockResolvedValueOnce(undefined);
    visit('/admin/accounts');
    await user.click(await screen.findByRole('button', { name: 'Delete a1' }));
    expect(dialog().open).toBe(true);
    expect(within(dialog()).getByRole('heading').textContent).toBe('Delete record a1?');
    expect(dialog().textContent).toContain('{"id":"a1","name":"Main","balance":0,"meta":{"tier":"gold"},"note":null}');
    await user.click(within(dialog()).getByRole('button', { name: 'Delete' }));
    expect(backend.remove).toHaveBeenCalledWith('accounts', 'a1');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Delete a1' })).toBeNull());
    expect(snackbar.value).toMatchObject({ message: 'Record a1 deleted.', duration: 4000 });
    expect(dialog().open).toBe(false);
  });

  it('cancelling the question deletes nothing', async () => {
    const user = userEvent.setup();
    backend.list.mockResolvedValueOnce(ROWS);
    visit('/admin/accounts');
    await screen.findByRole('button', { name: 'Delete a1' });
    expect(dialog().open).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Delete a2' }));
    await user.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    expect(dialog().open).toBe(false);
    expect(backend.remove).not.toHaveBeenCalled();
  });

  it('a refused delete says what the backend answered', async () => {
    const user = userEvent.setup();
    backend.list.mockResolvedValueOnce(ROWS);
    backend.remove.mockRejectedValueOnce(new ApiError(409, { status: 409, error: 'Conflict', message: 'in use' }));
    visit('/admin/accounts');
    await user.click(await screen.findByRole('button', { name: 'Delete a1' }));
    await user.click(within(dialog()).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(snackbar.value).toMatchObject({ message: 'The backend answered: 409 in use', politeness: 'assertive', duration: 8000 }),
    );
    expect(backend.list).toHaveBeenCalledTimes(1);
  });

  it('New record opens the editor for this collection; closing it closes it', async () => {
    const user = userEvent.setup();
    backend.list.mockResolvedValueOnce([]);
    visit('/admin/symbols');
    await screen.findByText('This collection is empty. Add its first record with New record.');
    await user.click(screen.getByRole('button', { name: 'New record' }));
    // The editor's code loads as it opens.
    expect(await screen.findByRole('dialog', { name: 'New record in symbols' })).toBeTruthy();
    await user.click(within(screen.getByRole('dialog', { name: 'New record in symbols' })).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog', { name: 'New record in symbols' })).toBeNull();
  });

  it('Edit opens the record; a save closes the editor, says so and lists again', async () => {
    const user = userEvent.setup();
    backend.list.mockResolvedValue(ROWS);
    backend.replace.mockResolvedValueOnce({ id: 'a1' });
    visit('/admin/accounts');
    await user.click(await screen.findByRole('button', { name: 'Edit a1' }));
    const editor = await screen.findByRole('dialog', { name: 'Edit record a1' });
    expect((within(editor).getByLabelText('name', { exact: false }) as HTMLInputElement).value).toBe('Main');
    await user.type(within(editor).getByLabelText('currency', { exact: false }), 'EUR');
    await user.click(within(editor).getByRole('button', { name: 'Save' }));
    expect(backend.replace).toHaveBeenCalledWith('accounts', 'a1', { id: 'a1', name: 'Main', currency: 'EUR', balance: 0 });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit record a1' })).toBeNull());
    expect(snackbar.value).toMatchObject({ message: 'Record a1 saved.', duration: 4000 });
    expect(backend.list).toHaveBeenCalledTimes(2);
  });

  it('a full collection offers New record with the reason it cannot be used, and opens no editor', async () => {
    const user = userEvent.setup();
    backend.list.mockResolvedValueOnce([
      { id: '1', code: 'MSFT', entity: 'Microsoft' },
      { id: '2', code: 'AAPL', entity: 'Apple' },
      { id: '3', code: 'GOOG', entity: 'Alphabet' },
    ]);
    visit('/admin/symbols');
    await screen.findByRole('button', { name: 'Edit 3' });
    const button = screen.getByRole('button', { name: 'New record' });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    const reason = 'This collection is full: it holds at most 3 records. Delete one to add another.';
    expect(document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent).toBe(reason);
    expect(screen.getByText(reason)).toBeTruthy();
    await user.click(button);
    expect(screen.queryByRole('dialog', { name: 'New record in symbols' })).toBeNull();
    expect(backend.create).not.toHaveBeenCalled();
  });

  it('a collection with room offers New record as any button', async () => {
    backend.list.mockResolvedValueOnce([{ id: '1', code: 'MSFT', entity: 'Microsoft' }]);
    visit('/admin/symbols');
    await screen.findByRole('button', { name: 'Edit 1' });
    const button = screen.getByRole('button', { name: 'New record' });
    expect(button.getAttribute('aria-disabled')).toBeNull();
    expect(button.getAttribute('aria-describedby')).toBeNull();
  });
});

describe('<AdminScreen> for a member who is no admin', () => {
  it('says the page is for admins, names the member, links home, and asks the backend nothing', () => {
    act(() => sessionStarted({ subject: 'grace', name: 'Grace Hopper', email: null, roles: ['member'] }));
    visit('/admin/symbols');
    expect(screen.getByRole('heading', { level: 1, name: 'This page is for admins' })).toBeTruthy();
    expect(screen.getByText(/You are signed in as Grace Hopper, a member/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to home' }).getAttribute('href')).toBe('/home');
    expect(screen.queryByRole('button', { name: 'Put back the sample data' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'New record' })).toBeNull();
    expect(backend.list).not.toHaveBeenCalled();
  });

  it('names the member by their profile once there is one, not by the provider', () => {
    act(() => {
      sessionStarted({ subject: 'grace', name: 'Grace Hopper', email: null, roles: ['member'] });
      setProfileState('test', { profile: { ...PROFILE, displayName: 'Amazing Grace' } });
    });
    visit('/admin');
    expect(screen.getByText(/You are signed in as Amazing Grace, a member/)).toBeTruthy();
    act(() => resetProfileState());
  });

  it('a session stored before roles existed counts as no admin; its subject stands in for a missing name', () => {
    act(() => sessionStarted({ subject: 'grace', name: '', email: null }));
    visit('/admin');
    expect(screen.getByText(/You are signed in as grace, a member/)).toBeTruthy();
  });

  it('shows nothing of the collections while the session is not read back yet', () => {
    act(() => sessionEnded('signed-out'));
    visit('/admin/symbols');
    expect(screen.getByRole('status')).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
    expect(backend.list).not.toHaveBeenCalled();
  });
});
