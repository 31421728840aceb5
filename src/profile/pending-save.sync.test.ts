import { describe, expect, it, vi } from 'vitest';
import { OUTBOX_SYNC_TAG, requestOutboxSync } from './pending-save';

/** A browser whose service worker container answers getRegistration() with `registration`. */
function withWorker(getRegistration: () => Promise<unknown>) {
  vi.stubGlobal('navigator', { serviceWorker: { getRegistration } });
}

describe('requestOutboxSync', () => {
  it('registers the tag with the worker and resolves true', async () => {
    const register = vi.fn(() => Promise.resolve());
    withWorker(() => Promise.resolve({ sync: { register } }));
    await expect(requestOutboxSync()).resolves.toBe(true);
    expect(register).toHaveBeenCalledExactlyOnceWith(OUTBOX_SYNC_TAG);
  });

  it('resolves false without a service worker container', async () => {
    vi.stubGlobal('navigator', {});
    await expect(requestOutboxSync()).resolves.toBe(false);
  });

  it('resolves false when no worker is registered for the page', async () => {
    withWorker(() => Promise.resolve(undefined));
    await expect(requestOutboxSync()).resolves.toBe(false);
  });

  it('resolves false where the browser has no Background Sync', async () => {
    withWorker(() => Promise.resolve({}));
    await expect(requestOutboxSync()).resolves.toBe(false);
  });

  it('resolves false when the browser refuses the registration', async () => {
    const register = vi.fn(() => Promise.reject(new DOMException('denied', 'NotAllowedError')));
    withWorker(() => Promise.resolve({ sync: { register } }));
    await expect(requestOutboxSync()).resolves.toBe(false);
    expect(register).toHaveBeenCalledOnce();
  });

  it('resolves false when the worker registration cannot be read', async () => {
    withWorker(() => Promise.reject(new DOMException('insecure', 'SecurityError')));
    await expect(requestOutboxSync()).resolves.toBe(false);
  });
});
