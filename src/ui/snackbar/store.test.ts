import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dismissSnackbar, resetSnackbar, runSnackbarAction, showSnackbar, snackbar } from './store';

describe('snackbar store', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => resetSnackbar());

  it('shows a message with an optional action', () => {
    const onAction = vi.fn();
    const id = showSnackbar({ message: 'Newer version of the app is available', action: 'Refresh', onAction });
    expect(snackbar.value).toMatchObject({ id, message: 'Newer version of the app is available', action: 'Refresh' });
    showSnackbar({ message: 'Plain' });
    expect(snackbar.value?.message).toBe('Plain');
    expect(snackbar.value?.action).toBeUndefined();
  });

  it('dismisses itself after its duration', () => {
    showSnackbar({ message: 'Saved', duration: 4000 });
    vi.advanceTimersByTime(3999);
    expect(snackbar.value?.message).toBe('Saved');
    vi.advanceTimersByTime(1);
    expect(snackbar.value).toBeNull();
  });

  it('stays without a duration until dismissed', () => {
    const id = showSnackbar({ message: 'Sticky' });
    vi.advanceTimersByTime(24 * 3600 * 1000);
    expect(snackbar.value?.message).toBe('Sticky');
    dismissSnackbar(id);
    expect(snackbar.value).toBeNull();
  });

  it('is replaced by a newer snackbar, whose life the older timer does not cut short', () => {
    showSnackbar({ message: 'Old', duration: 1000 });
    vi.advanceTimersByTime(500);
    showSnackbar({ message: 'New', duration: 3000 });
    expect(snackbar.value?.message).toBe('New');
    vi.advanceTimersByTime(600); // the old one's end has passed
    expect(snackbar.value?.message).toBe('New');
    vi.advanceTimersByTime(2400);
    expect(snackbar.value).toBeNull();
  });

  it('a newer snackbar without a duration stays even though the older one had a timer', () => {
    showSnackbar({ message: 'Old', duration: 1000 });
    showSnackbar({ message: 'New' });
    vi.advanceTimersByTime(10_000);
    expect(snackbar.value?.message).toBe('New');
  });

  it('dismissing by an old id leaves the newer snackbar alone', () => {
    const old = showSnackbar({ message: 'Old' });
    showSnackbar({ message: 'New' });
    dismissSnackbar(old);
    expect(snackbar.value?.message).toBe('New');
  });

  it('runSnackbarAction runs the action and dismisses the snackbar', () => {
    const onAction = vi.fn(() => {
      // The action sees the snackbar already gone, so it may show another one.
      expect(snackbar.value).toBeNull();
    });
    showSnackbar({ message: 'Update', action: 'Refresh', onAction, duration: 5000 });
    runSnackbarAction();
    expect(onAction).toHaveBeenCalledTimes(1);
    expect(snackbar.value).toBeNull();
    runSnackbarAction();
    expect(onAction).toHaveBeenCalledTimes(1);
  });

  it('a duration of zero or less means none: it stays until dismissed', () => {
    const none = showSnackbar({ message: 'Zero', duration: 0 });
    vi.advanceTimersByTime(60_000);
    expect(snackbar.value?.message).toBe('Zero');
    dismissSnackbar(none);
    showSnackbar({ message: 'Negative', duration: -5 });
    vi.advanceTimersByTime(60_000);
    expect(snackbar.value?.message).toBe('Negative');
  });

  it('runSnackbarAction on a snackbar without an action just dismisses it', () => {
    showSnackbar({ message: 'Saved' });
    expect(() => runSnackbarAction()).not.toThrow();
    expect(snackbar.value).toBeNull();
  });

  it('a snackbar shown by the action stays on screen', () => {
    showSnackbar({ message: 'First', action: 'Go', onAction: () => showSnackbar({ message: 'Second', duration: 2000 }), duration: 1000 });
    runSnackbarAction();
    expect(snackbar.value?.message).toBe('Second');
    vi.advanceTimersByTime(1500);
    expect(snackbar.value?.message).toBe('Second');
  });

  describe('a sticky snackbar (the update prompt)', () => {
    it('comes back once a newer passing snackbar is dismissed', () => {
      const onAction = vi.fn();
      showSnackbar({ message: 'Newer version of the app is available', action: 'Refresh', onAction, sticky: true });
      showSnackbar({ message: 'You are back online.', duration: 4000 });
      expect(snackbar.value?.message).toBe('You are back online.');
      vi.advanceTimersByTime(4000);
      expect(snackbar.value).toMatchObject({ message: 'Newer version of the app is available', action: 'Refresh' });
      runSnackbarAction();
      expect(onAction).toHaveBeenCalledTimes(1);
      expect(snackbar.value).toBeNull();
    });

    it('comes back after a chain of passing snackbars', () => {
      showSnackbar({ message: 'Update', sticky: true });
      showSnackbar({ message: 'One' });
      showSnackbar({ message: 'Two', duration: 1000 });
      dismissSnackbar();
      expect(snackbar.value?.message).toBe('Update');
    });

    it('shown with a duration, comes back and then stays: the notice that covered it ended its time', () => {
      showSnackbar({ message: 'Update', sticky: true, duration: 5000 });
      vi.advanceTimersByTime(1000);
      showSnackbar({ message: 'Passing', duration: 2000 });
      vi.advanceTimersByTime(2000);
      expect(snackbar.value?.message).toBe('Update');
      vi.advanceTimersByTime(60_000);
      expect(snackbar.value?.message).toBe('Update');
    });

    it('does not come back once dismissed itself', () => {
      const id = showSnackbar({ message: 'Update', sticky: true });
      dismissSnackbar(id);
      showSnackbar({ message: 'Passing', duration: 1000 });
      vi.advanceTimersByTime(1000);
      expect(snackbar.value).toBeNull();
    });

    it('waiting behind a passing one, is dropped for good when a newer sticky one is shown', () => {
      showSnackbar({ message: 'Update 1', sticky: true });
      showSnackbar({ message: 'Passing' });
      const second = showSnackbar({ message: 'Update 2', sticky: true });
      dismissSnackbar(second);
      showSnackbar({ message: 'Later', duration: 1000 });
      vi.advanceTimersByTime(1000);
      expect(snackbar.value).toBeNull();
    });

    it('is replaced for good by a newer sticky one', () => {
      showSnackbar({ message: 'Update 1', sticky: true });
      showSnackbar({ message: 'Update 2', sticky: true });
      showSnackbar({ message: 'Passing' });
      dismissSnackbar();
      expect(snackbar.value?.message).toBe('Update 2');
      dismissSnackbar();
      expect(snackbar.value).toBeNull();
    });
  });
});
