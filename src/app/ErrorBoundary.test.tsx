import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ErrorBoundary } from './ErrorBoundary';

let shouldThrow = true;
function Flaky({ label = 'Screen content' }: { label?: string }) {
  if (shouldThrow) throw new Error('render failed');
  return <p>{label}</p>;
}

function fallback(error: Error, retry: () => void) {
  return (
    <div role="alert">
      <p>Failed: {error.message}</p>
      <button type="button" onClick={retry}>
        Try again
      </button>
    </div>
  );
}

function ThrowsString(): never {
  throw 'plain string';
}

describe('<ErrorBoundary>', () => {
  beforeEach(() => {
    shouldThrow = true;
    // React and the boundary both log the failure; the test reads the boundary's log.
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });

  it('renders its children when nothing fails', () => {
    shouldThrow = false;
    render(
      <ErrorBoundary fallback={fallback}>
        <Flaky />
      </ErrorBoundary>,
    );
    expect(screen.getByText('Screen content')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the fallback with the error when a child throws, and logs it', () => {
    render(
      <div>
        <p>Shell stays</p>
        <ErrorBoundary fallback={fallback}>
          <Flaky />
        </ErrorBoundary>
      </div>,
    );
    expect(screen.getByRole('alert').textContent).toContain('Failed: render failed');
    expect(screen.getByText('Shell stays')).toBeTruthy();
    expect(screen.queryByText('Screen content')).toBeNull();
    expect(vi.mocked(console.error).mock.calls.some((c) => c[0] === 'A screen failed' && (c[1] as Error).message === 'render failed')).toBe(
      true,
    );
  });

  it('retry renders the children again and calls onRetry', async () => {
    const user = userEvent.setup();
    const onRetry = vi.fn();
    render(
      <ErrorBoundary fallback={fallback} onRetry={onRetry}>
        <Flaky />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert')).toBeTruthy();
    shouldThrow = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
    expect(screen.getByText('Screen content')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('retry renders the children again when no one asked to be told', async () => {
    render(
      <ErrorBoundary fallback={fallback}>
        <Flaky />
      </ErrorBoundary>,
    );
    shouldThrow = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('Screen content')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the fallback again when the retried children still throw', async () => {
    const user = userEvent.setup();
    render(
      <ErrorBoundary fallback={fallback}>
        <Flaky />
      </ErrorBoundary>,
    );
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByRole('alert')).toBeTruthy();
  });

  it('a new resetKey (another route) clears the failure', () => {
    const { rerender } = render(
      <ErrorBoundary fallback={fallback} resetKey="/a">
        <Flaky />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert')).toBeTruthy();
    shouldThrow = false;
    rerender(
      <ErrorBoundary fallback={fallback} resetKey="/a">
        <Flaky label="Same route" />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert')).toBeTruthy();
    rerender(
      <ErrorBoundary fallback={fallback} resetKey="/b">
        <Flaky label="Other route" />
      </ErrorBoundary>,
    );
    expect(screen.getByText('Other route')).toBeTruthy();
  });

  it('turns a thrown non-Error into an Error for the fallback', () => {
    render(
      <ErrorBoundary fallback={fallback}>
        <ThrowsString />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert').textContent).toContain('Failed: plain string');
  });
});
