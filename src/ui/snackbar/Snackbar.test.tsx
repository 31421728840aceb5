import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Snackbar } from './Snackbar';
import { resetSnackbar, showSnackbar, snackbar } from './store';

describe('<Snackbar>', () => {
  afterEach(() => act(() => resetSnackbar()));

  it('keeps an empty polite live region in the page when nothing is shown', () => {
    render(<Snackbar />);
    const region = screen.getByRole('status');
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.textContent).toBe('');
  });

  it('renders the message inside the role=status live region', () => {
    render(<Snackbar />);
    act(() => void showSnackbar({ message: 'You are back online.' }));
    const region = screen.getByRole('status');
    expect(region.textContent).toContain('You are back online.');
    expect(region.contains(screen.getByText('You are back online.'))).toBe(true);
  });

  it('announces problems assertively', () => {
    render(<Snackbar />);
    act(() => void showSnackbar({ message: 'Storage refused', politeness: 'assertive' }));
    expect(screen.getByRole('status').getAttribute('aria-live')).toBe('assertive');
  });

  it('has a real action button reachable by keyboard: Tab then Enter runs it', async () => {
    const user = userEvent.setup();
    const onAction = vi.fn();
    render(<Snackbar />);
    act(() => void showSnackbar({ message: 'Newer version of the app is available', action: 'Refresh', onAction }));
    const button = screen.getByRole('button', { name: 'Refresh' });
    expect(button.tagName).toBe('BUTTON');
    await user.tab();
    expect(document.activeElement).toBe(button);
    await user.keyboard('{Enter}');
    expect(onAction).toHaveBeenCalledTimes(1);
    expect(snackbar.value).toBeNull();
    expect(screen.queryByText('Newer version of the app is available')).toBeNull();
  });

  it('shows no action button without an action, and a labelled dismiss button always', async () => {
    const user = userEvent.setup();
    render(<Snackbar />);
    act(() => void showSnackbar({ message: 'Saved' }));
    expect(screen.getAllByRole('button').map((b) => b.getAttribute('aria-label') ?? b.textContent)).toEqual(['Dismiss']);
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('Saved')).toBeNull();
  });

  it('shows the newer snackbar when one replaces another', () => {
    render(<Snackbar />);
    act(() => void showSnackbar({ message: 'Old' }));
    act(() => void showSnackbar({ message: 'New' }));
    expect(screen.queryByText('Old')).toBeNull();
    expect(screen.getByText('New')).toBeTruthy();
  });
});
