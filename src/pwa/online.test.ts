import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchOnlineStatus } from './online';
import { isOnline, setOnline } from '../state/app';
import { resetSnackbar, showSnackbar, snackbar } from '../ui/snackbar/store';

describe('watchOnlineStatus', () => {
  let stop: () => void = () => {};
  afterEach(() => {
    stop();
    setOnline(true);
    resetSnackbar();
  });

  it("follows the browser's offline and online events and tells the user", () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    stop = watchOnlineStatus(window);
    expect(isOnline.value).toBe(true);

    onLine.mockReturnValue(false);
    window.dispatchEvent(new Event('offline'));
    expect(isOnline.value).toBe(false);
    expect(snackbar.value?.message).toBe(
      'You are offline. What you saw last is shown; your profile changes are saved on this device and sent when you are back online.',
    );

    onLine.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    expect(isOnline.value).toBe(true);
    expect(snackbar.value?.message).toBe('You are back online.');
  });

  it('back online, leaves a newer notice on screen (the offline changes were sent), and replaces its own offline one', () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    stop = watchOnlineStatus(window);
    onLine.mockReturnValue(false);
    window.dispatchEvent(new Event('offline'));
    showSnackbar({ message: 'Your offline changes were sent.', duration: 5000 });
    onLine.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    expect(snackbar.value?.message).toBe('Your offline changes were sent.');
    // Once nothing newer is shown, the next return online is said again.
    resetSnackbar();
    onLine.mockReturnValue(false);
    window.dispatchEvent(new Event('offline'));
    onLine.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    expect(snackbar.value?.message).toBe('You are back online.');
  });

  it('reads the state at start', () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    stop = watchOnlineStatus(window);
    expect(isOnline.value).toBe(false);
  });

  it('stops following once unsubscribed', () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    watchOnlineStatus(window)();
    onLine.mockReturnValue(false);
    window.dispatchEvent(new Event('offline'));
    expect(isOnline.value).toBe(true);
  });

  it('stops following the return online too once unsubscribed', () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    watchOnlineStatus(window)();
    onLine.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    expect(isOnline.value).toBe(false);
    expect(snackbar.value).toBeNull();
  });
});
