import { afterEach, describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { OnlineStatus } from './OnlineStatus';
import { setOnline } from '../state/app';

afterEach(() => act(() => setOnline(true)));

describe('<OnlineStatus>', () => {
  it('says in words whether the app is online, and follows the connection', () => {
    act(() => setOnline(true));
    render(<OnlineStatus />);
    const chip = screen.getByTestId('online-status');
    expect(chip.textContent).toBe('Online');
    expect(chip.className).toBe('status-chip status-chip--online');

    act(() => setOnline(false));
    expect(chip.textContent).toBe('Offline');
    expect(chip.className).toBe('status-chip status-chip--offline');

    act(() => setOnline(true));
    expect(chip.textContent).toBe('Online');
  });

  it('starts offline when the browser is offline', () => {
    act(() => setOnline(false));
    render(<OnlineStatus />);
    expect(screen.getByTestId('online-status').textContent).toBe('Offline');
  });
});
