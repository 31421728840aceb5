import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError } from '../../api/errors';
import { setConnectivity } from '../../lib/connectivity';
import { EmptyState, ErrorState, LoadingState, errorText } from './states';

const OFFLINE = 'You are offline: this needs a connection. Try again when you are back online.';

afterEach(() => {
  act(() => {
    setConnectivity(true);
  });
});

describe('<LoadingState>', () => {
  it('is a status region saying it is loading, in words for assistive technology, and shaped as lines of text', () => {
    render(<LoadingState />);
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('Loading…');
    expect(status.firstElementChild?.className).toBe('visually-hidden');
    expect(status.className).toBe('state state--loading skeleton skeleton--lines');
  });

  it('takes the shape of what is coming', () => {
    render(<LoadingState shape="notifications" />);
    expect(screen.getByRole('status').classList.contains('skeleton--notifications')).toBe(true);
  });

  it('says what is loading when told', () => {
    render(<LoadingState label="Loading your profile…" />);
    expect(screen.getByRole('status').textContent).toBe('Loading your profile…');
  });
});

describe('<EmptyState>', () => {
  it('shows what it is given', () => {
    render(<EmptyState>No notifications yet.</EmptyState>);
    expect(screen.getByText('No notifications yet.').tagName).toBe('P');
  });
});

describe('errorText', () => {
  it("is the error's own message when online, or the text of anything else thrown", () => {
    expect(errorText(new Error('Server exploded'))).toBe('Server exploded');
    expect(errorText('plain words')).toBe('plain words');
  });

  it('offline, says a connection is needed instead of a network error', () => {
    setConnectivity(false);
    expect(errorText(new TypeError('Failed to fetch'))).toBe(OFFLINE);
  });

  it("offline, still gives the server's own answer when there was one", () => {
    setConnectivity(false);
    const refused = new ApiError(403, { status: 403, error: 'Forbidden', message: 'Not your profile' });
    expect(errorText(refused)).toBe('Not your profile');
  });
});

describe('<ErrorState>', () => {
  it('is an alert saying what could not be loaded and why, with a retry that runs', async () => {
    const user = userEvent.setup();
    const retry = vi.fn();
    render(<ErrorState error={new Error('Server exploded')} onRetry={retry} />);
    const alert = screen.getByRole('alert');
    expect(alert.querySelector('p')?.textContent).toBe('Could not load this: Server exploded');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalledOnce();
  });

  it('offers no retry when there is nothing to retry', () => {
    render(<ErrorState error={new Error('Gone')} />);
    expect(screen.getByRole('alert').textContent).toBe('Could not load this: Gone');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('offline, says a connection is needed', () => {
    setConnectivity(false);
    render(<ErrorState error={new TypeError('Failed to fetch')} />);
    expect(screen.getByRole('alert').textContent).toBe(`Could not load this: ${OFFLINE}`);
  });
});
