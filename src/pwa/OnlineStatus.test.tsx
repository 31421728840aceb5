import { afterEach, describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { OnlineStatus } from './OnlineStatus';
import { setOnline } from '../state/app';

afterEach(() => act(() => setOnline(true)));

describe('<OnlineStatus>', () => {
  it('takes no room while online, says in words when offline, and goes once back online', () => {
    act(() => setOnline(true));
    render(<OnlineStatus />);
    expect(screen.queryByTestId('online-status')).toBeNull();
    expect(screen.queryByText('Online')).toBeNull();

    act(() => setOnline(false));
    const chip = screen.getByTestId('online-status');
    expect(chip.textContent).toBe('Offline');
    expect(chip.className).toBe('status-chip status-chip--offline');

    act(() => setOnline(true));
    expect(screen.queryByTestId('online-status')).toBeNull();
  });

  it('starts offline when the browser is offline', () => {
    act(() => setOnline(false));
    render(<OnlineStatus />);
    expect(screen.getByTestId('online-status').textContent).toBe('Offline');
  });
});
