import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

type Row = { id: string } & Record<string, unknown>;

const backend = vi.hoisted(() => ({ list: vi.fn<(name: string, query: unknown, signal?: AbortSignal) => Promise<Row[]>>() }));
vi.mock('../../api/instance', () => ({
  api: {
    collections: () => ({ list: backend.list }),
    // The notifications are the inbox's: the same list, in the language asked.
    inbox: () => ({
      list: async (language: string, signal?: AbortSignal) => ({
        items: await backend.list('notifications', { language }, signal),
        language,
      }),
    }),
  },
}));

// The inbox keeps what it read: each test starts with a fresh one.
let DashboardScreen: typeof import('./DashboardScreen').default;
beforeEach(async () => {
  vi.resetModules();
  ({ default: DashboardScreen } = await import('./DashboardScreen'));
});
afterEach(() => {
  backend.list.mockReset();
  localStorage.clear();
});

/** Each collection answers on its own, with rows, nothing, an error, or not yet. */
function serve(answers: Record<string, Promise<Row[]>>) {
  backend.list.mockImplementation((name) => answers[name] ?? new Promise(() => undefined));
}

const panel = (name: string) => screen.getByRole('region', { name });

describe('<DashboardScreen>', () => {
  it('asks for the three collections, each panel busy with room kept for its rows meanwhile', async () => {
    serve({});
    render(<DashboardScreen />);
    expect(screen.getByRole('heading', { level: 1, name: 'Dashboard' }).tabIndex).toBe(-1);
    // What the screen is for, from its first render: the panels fill in below it.
    expect(screen.getByRole('heading', { level: 1 }).nextElementSibling?.textContent).toBe(
      'Your circle at a glance: the balances of its accounts, the symbols it follows and the latest news from its members.',
    );
    await waitFor(() => expect(backend.list.mock.calls.map((c) => c[0])).toEqual(['accounts', 'symbols', 'notifications']));
    // The notifications in the language on screen.
    expect(backend.list.mock.calls[2]![1]).toEqual({ language: 'en' });
    for (const name of ['Accounts', 'Symbols', 'Notifications']) {
      expect(panel(name).getAttribute('aria-busy')).toBe('true');
      expect(within(panel(name)).getByRole('status').textContent).toBe('Loading…');
      // Still loading is no failure: nothing is announced.
      expect(within(panel(name)).queryByRole('alert')).toBeNull();
    }
    // Each panel's skeleton is shaped as what it lists.
    expect(within(panel('Accounts')).getByRole('status').classList.contains('skeleton--rows')).toBe(true);
    expect(within(panel('Symbols')).getByRole('status').classList.contains('skeleton--rows')).toBe(true);
    expect(within(panel('Notifications')).getByRole('status').classList.contains('skeleton--notifications')).toBe(true);
  });

  it('lists the accounts with their balance, the symbols with their entity, and the notifications', async () => {
    serve({
      accounts: Promise.resolve([{ id: 'a1', name: 'Main', balance: 12.5, currency: 'EUR' }]),
      symbols: Promise.resolve([{ id: 's1', code: 'MSFT', entity: 'Microsoft' }]),
      notifications: Promise.resolve([
        { id: 'n1', title: 'Hello', body: 'World', level: 'info', read: false, createdAt: '2024-01-01T00:00:00Z' },
      ]),
    });
    render(<DashboardScreen />);
    await waitFor(() => expect(panel('Accounts').getAttribute('aria-busy')).toBeNull());
    expect(
      within(panel('Accounts'))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Main€12.50']);
    await waitFor(() => expect(panel('Symbols').getAttribute('aria-busy')).toBeNull());
    expect(
      within(panel('Symbols'))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['MSFTMicrosoft']);
    expect(await within(panel('Notifications')).findByRole('heading', { name: 'Hello' })).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('an empty collection says so and what comes next; a failed one says why and lists again on Retry', async () => {
    const user = userEvent.setup();
    serve({
      accounts: Promise.resolve([]),
      symbols: Promise.reject(new Error('down')),
      notifications: Promise.resolve([]),
    });
    render(<DashboardScreen />);
    expect(await within(panel('Accounts')).findByText('Nothing here yet. New entries show here as soon as they are added.')).toBeTruthy();
    expect((await screen.findByRole('alert')).textContent).toContain('Could not load this: down');
    expect(within(panel('Symbols')).getByText('Not available right now.')).toBeTruthy();
    expect(panel('Symbols').getAttribute('aria-busy')).toBeNull();
    expect(within(panel('Symbols')).queryByRole('status')).toBeNull();

    backend.list.mockResolvedValue([{ id: 's1', code: 'AAPL', entity: 'Apple' }]);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await within(panel('Symbols')).findByText('AAPL')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('offline with nothing kept, says why once for the whole screen, with one Retry', async () => {
    const offline = () => Promise.reject(new TypeError('Failed to fetch'));
    serve({ accounts: offline(), symbols: offline(), notifications: offline() });
    render(<DashboardScreen />);
    await waitFor(() => expect(screen.getAllByText('Not available right now.')).toHaveLength(3));
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: 'Retry' })).toHaveLength(1);
  });

  it('shows what the last visit read at once, and reads it again', async () => {
    localStorage.setItem('cache.symbols', JSON.stringify([{ id: 's1', code: 'MSFT', entity: 'Microsoft' }]));
    let answer: (rows: Row[]) => void = () => undefined;
    serve({ symbols: new Promise((resolve) => (answer = resolve)) });
    render(<DashboardScreen />);
    // No placeholder: the kept rows, the panel still busy while the new ones come.
    expect(within(panel('Symbols')).getByText('MSFT')).toBeTruthy();
    expect(within(panel('Symbols')).queryByRole('status')).toBeNull();
    expect(panel('Symbols').getAttribute('aria-busy')).toBe('true');
    answer([{ id: 's2', code: 'AAPL', entity: 'Apple' }]);
    expect(await within(panel('Symbols')).findByText('AAPL')).toBeTruthy();
    expect(within(panel('Symbols')).queryByText('MSFT')).toBeNull();
  });
});
