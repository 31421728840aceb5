import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EditTarget } from './RecordEditor';
import { watchSubmits } from '../../test/watch-submits';

type Row = { id: string } & Record<string, unknown>;

const backend = vi.hoisted(() => ({
  create: vi.fn<(name: string, body: unknown) => Promise<Row>>(),
  replace: vi.fn<(name: string, id: string, body: unknown) => Promise<Row>>(),
}));
vi.mock('../../api/instance', () => ({ api: { collections: () => backend } }));

// The templates are built when the module loads: each test reads a fresh copy.
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
  const json = screen.getByLabelText('Record as JSON') as HTMLTextAreaElement;
  return { onClose, onSaved, json, dialog: screen.getByRole('dialog') as HTMLDialogElement };
}

const RECORD = { id: 's1', code: 'MSFT', entity: 'Microsoft' };

describe('<RecordEditor>', () => {
  it('opens as a modal titled for the record, with the record as JSON and a hint', () => {
    const { json, dialog } = open({ collection: 'symbols', record: RECORD });
    expect(dialog.open).toBe(true);
    expect(screen.getByRole('dialog', { name: 'Edit record s1' })).toBe(dialog);
    expect(screen.getByRole('heading', { name: 'Edit record s1' })).toBeTruthy();
    expect(json.value).toBe(JSON.stringify(RECORD, null, 2));
    expect(json.getAttribute('spellcheck')).toBe('false');
    expect(json.getAttribute('aria-invalid')).toBeNull();
    const hint = screen.getByText('Leave out the id to have one generated.');
    expect(json.getAttribute('aria-describedby')).toBe(hint.id);
    expect(hint.id).toMatch(/-hint$/);
    expect(screen.queryByRole('alert')).toBeNull();
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it.each([
    ['accounts', { name: '', currency: 'EUR', balance: 0 }],
    ['subscription', { endpoint: 'https://', expirationTime: null, keys: { p256dh: '', auth: '' } }],
    ['symbols', { code: '', entity: '' }],
  ] as const)('a new record in %s starts from what its schema asks', (collection, template) => {
    const { json } = open({ collection, record: null });
    expect(screen.getByRole('dialog', { name: `New record in ${collection}` })).toBeTruthy();
    expect(JSON.parse(json.value)).toEqual(template);
  });

  it('a new notification is dated now', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2025-03-04T05:06:07.000Z'));
    const { json } = open({ collection: 'notifications', record: null });
    expect(JSON.parse(json.value)).toEqual({ title: '', body: '', level: 'info', read: false, createdAt: '2025-03-04T05:06:07.000Z' });
  });

  it('saves what was typed as a new record and hands back its id', async () => {
    const user = userEvent.setup();
    backend.create.mockResolvedValueOnce({ id: 'new-1' });
    const { json, onSaved } = open({ collection: 'symbols', record: null });
    await user.clear(json);
    await user.click(json);
    await user.paste('{"code":"AAPL","entity":"Apple"}');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(backend.create).toHaveBeenCalledWith('symbols', { code: 'AAPL', entity: 'Apple' });
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

  it('text that is not JSON is refused before sending, linked to the field', async () => {
    const user = userEvent.setup();
    const { json } = open({ collection: 'symbols', record: RECORD });
    await user.clear(json);
    await user.type(json, 'nope');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const alert = screen.getByRole('alert');
    // The parser's own reason, as it words it.
    const reason = (() => {
      try {
        JSON.parse('nope');
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(reason).toBeTruthy();
    expect(alert.textContent).toBe(`This is not valid JSON: ${reason}`);
    expect(json.getAttribute('aria-invalid')).toBe('true');
    const hint = screen.getByText('Leave out the id to have one generated.');
    expect(json.getAttribute('aria-describedby')).toBe(`${hint.id} ${alert.id}`);
    expect(alert.id).toMatch(/-error$/);
    expect(backend.replace).not.toHaveBeenCalled();
  });

  it('shows what the backend answered, keeps the dialog, and clears it on the next attempt', async () => {
    const user = userEvent.setup();
    let finish: (row: Row) => void = () => undefined;
    backend.replace
      .mockRejectedValueOnce(new ApiError(400, { status: 400, error: 'Bad Request', message: 'code too long' }))
      .mockImplementationOnce(() => new Promise((resolve) => (finish = resolve)));
    const { onSaved } = open({ collection: 'symbols', record: RECORD });
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    await user.click(save);
    expect((await screen.findByRole('alert')).textContent).toBe('The backend answered: 400 code too long');
    expect(onSaved).not.toHaveBeenCalled();
    expect(save.disabled).toBe(false);

    await user.click(save);
    expect(screen.queryByRole('alert')).toBeNull();
    // Sending: not pressed twice.
    expect(save.disabled).toBe(true);
    finish({ id: 's1' });
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith('s1'));
    expect(save.disabled).toBe(false);
  });

  it('Cancel closes without saving', async () => {
    const user = userEvent.setup();
    const { onClose } = open({ collection: 'symbols', record: RECORD });
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(backend.replace).not.toHaveBeenCalled();
  });
});
