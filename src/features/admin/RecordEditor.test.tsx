import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EditTarget } from './RecordEditor';
import { watchSubmits } from '../../test/watch-submits';

type Row = { id: string } & Record<string, unknown>;

const backend = vi.hoisted(() => ({
  create: vi.fn<(name: string, body: unknown) => Promise<Row>>(),
  replace: vi.fn<(name: string, id: string, body: unknown) => Promise<Row>>(),
}));
vi.mock('../../api/instance', () => ({ api: { collections: () => backend } }));

// The forms are built from tables made when the modules load: each test reads a fresh copy.
// The error class too: the editor tells the backend's refusals apart by it.
let RecordEditor: typeof import('./RecordEditor').RecordEditor;
let ApiError: typeof import('../../api/errors').ApiError;
beforeEach(async () => {
  vi.resetModules();
  ({ RecordEditor } = await import('./RecordEditor'));
  ({ ApiError } = await import('../../api/errors'));
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
});

afterEach(() => {
  backend.create.mockReset();
  backend.replace.mockReset();
});

function open(target: EditTarget) {
  const onClose = vi.fn();
  const onSaved = vi.fn();
  render(<RecordEditor target={target} onClose={onClose} onSaved={onSaved} />);
  return { onClose, onSaved, dialog: screen.getByRole('dialog') as HTMLDialogElement };
}

const field = (label: string) => screen.getByLabelText(label, { exact: false }) as HTMLInputElement;
const RECORD = { id: 's1', code: 'MSFT', entity: 'Microsoft' };

describe('<RecordEditor>', () => {
  it('opens as a modal titled for the record, a labelled field per property of its schema, with what it asks for', () => {
    const { dialog } = open({ collection: 'symbols', record: RECORD });
    expect(dialog.open).toBe(true);
    expect(screen.getByRole('dialog', { name: 'Edit record s1' })).toBe(dialog);
    expect(field('Code').value).toBe('MSFT');
    expect(field('Company').value).toBe('Microsoft');
    expect(screen.getAllByRole('textbox').map((f) => f.getAttribute('name'))).toEqual(['code', 'entity']);
    expect(field('Code').getAttribute('aria-required')).toBe('true');
    // The contract's description (openapi.yaml), not the pattern: its words are the error's.
    const hint = screen.getByText('The ticker code.');
    expect(field('Code').getAttribute('aria-describedby')).toBe(hint.id);
    expect(screen.getByText('The entity the code stands for. At most 120 characters.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says its labels, help and pattern errors in the language on screen, from the contract’s translations', async () => {
    const user = userEvent.setup();
    // The editor's own copy of the i18n module (fresh modules per test).
    const { loadLanguage } = await import('../../i18n');
    await act(() => loadLanguage('fr'));
    try {
      open({ collection: 'accounts', record: null });
      expect(field('Devise')).toBeTruthy();
      expect(screen.getByText('Code ISO 4217.')).toBeTruthy();
      await user.type(field('Devise'), 'bad value!!');
      await user.click(screen.getByRole('button', { name: /Enregistrer/ }));
      expect(screen.getByText('Trois lettres majuscules, comme EUR.').className).toBe('field__error');
    } finally {
      await act(() => loadLanguage('en'));
    }
  });

  it('offers the values of a choice in the language on screen, from the contract’s translations', async () => {
    const { loadLanguage } = await import('../../i18n');
    await act(() => loadLanguage('fr'));
    try {
      open({ collection: 'notifications', record: null });
      const level = screen.getByRole('combobox', { name: /^Niveau/ }) as HTMLSelectElement;
      expect([...level.options].map((o) => [o.value, o.textContent])).toEqual([
        ['info', 'Information'],
        ['success', 'Bonne nouvelle'],
        ['warning', 'Avertissement'],
        ['error', 'Problème'],
      ]);
    } finally {
      await act(() => loadLanguage('en'));
    }
  });

  it('offers each kind of field as it should be filled: a choice, yes or no, a date and time, a number', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 4, 5, 6, 7));
    open({ collection: 'notifications', record: null });
    expect(screen.getByRole('dialog', { name: 'New record in notifications' })).toBeTruthy();
    const level = screen.getByRole('combobox', { name: 'Level (required)' }) as HTMLSelectElement;
    expect([...level.options].map((o) => o.value)).toEqual(['info', 'success', 'warning', 'error']);
    // Each value in the contract's words for it (x-enum-titles), the value itself what is sent.
    expect([...level.options].map((o) => o.textContent)).toEqual(['Information', 'Good news', 'Warning', 'Problem']);
    const read = screen.getByRole('combobox', { name: 'Read' }) as HTMLSelectElement;
    expect([...read.options].map((o) => o.textContent)).toEqual(['Yes', 'No']);
    expect(read.value).toBe('false');
    expect(field('Created').type).toBe('datetime-local');
    expect(field('Created').value).toBe('2025-03-04T05:06:07');
    vi.useRealTimers();
  });

  it('saves what was typed as a new record, in its types, and hands back its id', async () => {
    const user = userEvent.setup();
    backend.create.mockResolvedValueOnce({ id: 'new-1' });
    const { onSaved } = open({ collection: 'accounts', record: null });
    expect(field('Balance').getAttribute('inputmode')).toBe('decimal');
    await user.type(field('Name'), 'Savings');
    await user.type(field('Currency'), 'EUR');
    await user.type(field('Balance'), '12.5');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(backend.create).toHaveBeenCalledWith('accounts', { name: 'Savings', currency: 'EUR', balance: 12.5 });
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith('new-1'));
    expect(backend.replace).not.toHaveBeenCalled();
  });

  it('replaces an existing record under its id', async () => {
    const user = userEvent.setup();
    backend.replace.mockResolvedValueOnce({ id: 's1' });
    const { onSaved } = open({ collection: 'symbols', record: RECORD });
    const submits = watchSubmits();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(submits.reloaded()).toBe(false);
    expect(backend.replace).toHaveBeenCalledWith('symbols', 's1', RECORD);
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith('s1'));
  });

  it('what breaks the contract is said on its field before anything is sent, and the first such field takes the focus', async () => {
    const user = userEvent.setup();
    open({ collection: 'symbols', record: null });
    await user.type(field('Code'), 'msft');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert').textContent).toBe('Please correct 2 fields before saving.');
    expect(field('Code').getAttribute('aria-invalid')).toBe('true');
    // The pattern's own words from the contract, not a generic "expected format".
    expect(screen.getByRole('textbox', { name: /Code/ }).getAttribute('aria-describedby')).toContain(
      screen.getByText('One to five capital letters, such as AAPL.').id,
    );
    expect(screen.getByText('This field is required.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(field('Code')));
    expect(backend.create).not.toHaveBeenCalled();
  });

  it('a field the backend refuses is marked with the reason in words, until it is typed anew', async () => {
    const user = userEvent.setup();
    backend.replace.mockRejectedValueOnce(
      new ApiError(400, { status: 400, error: 'Bad Request', message: 'body.entity must NOT have fewer than 1 characters' }),
    );
    open({ collection: 'symbols', record: RECORD });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(field('Company').getAttribute('aria-invalid')).toBe('true'));
    const error = screen.getByText('This field is required.');
    expect(field('Company').getAttribute('aria-describedby')).toContain(error.id);
    expect(screen.getByRole('alert').textContent).toBe('Please correct 1 field before saving.');
    // Not the raw answer.
    expect(screen.queryByText(/must NOT have/)).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(field('Company')));
    await user.type(field('Company'), 'x');
    expect(field('Company').getAttribute('aria-invalid')).toBeNull();
  });

  it('shows what the backend answered about no field, keeps the dialog, and clears it on the next attempt', async () => {
    const user = userEvent.setup();
    let finish: (row: Row) => void = () => undefined;
    backend.create
      .mockRejectedValueOnce(new ApiError(409, { status: 409, error: 'Conflict', message: "Record 'x' already exists" }))
      .mockImplementationOnce(() => new Promise((resolve) => (finish = resolve)));
    const { onSaved } = open({ collection: 'symbols', record: null });
    await user.type(field('Code'), 'AMZN');
    await user.type(field('Company'), 'Amazon');
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    await user.click(save);
    expect((await screen.findByRole('alert')).textContent).toBe("The backend answered: 409 Record 'x' already exists");
    expect(onSaved).not.toHaveBeenCalled();
    expect(save.disabled).toBe(false);

    await user.click(save);
    expect(screen.queryByRole('alert')).toBeNull();
    // Sending: not pressed twice.
    expect(save.disabled).toBe(true);
    finish({ id: 's4' });
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith('s4'));
  });

  it('Cancel closes without saving', async () => {
    const user = userEvent.setup();
    const { onClose } = open({ collection: 'symbols', record: RECORD });
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(backend.replace).not.toHaveBeenCalled();
  });
});
