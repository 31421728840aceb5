import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerServiceWorker } from './register';
import { resetSnackbar, snackbar } from '../ui/snackbar/store';
import { recentReads } from '../api/recent-reads';

/** A service worker as the page sees it: a state and its statechange event. */
class FakeWorker extends EventTarget {
  messages: unknown[] = [];
  state: ServiceWorkerState;

  constructor(state: ServiceWorkerState) {
    super();
    this.state = state;
  }
  postMessage(message: unknown) {
    this.messages.push(message);
  }
  become(state: ServiceWorkerState) {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

class FakeRegistration extends EventTarget {
  active: FakeWorker | null = null;
  waiting: FakeWorker | null = null;
  installing: FakeWorker | null = null;
  update = vi.fn(async () => undefined);
}

class FakeContainer extends EventTarget {
  controller: FakeWorker | null;
  registration = new FakeRegistration();
  register = vi.fn(async () => this.registration);
  constructor(controlled: boolean) {
    super();
    this.controller = controlled ? new FakeWorker('activated') : null;
  }
}

const start = (container: FakeContainer) => registerServiceWorker(container as unknown as ServiceWorkerContainer);
const updatePrompt = () => snackbar.value?.message === 'Newer version of the app is available';

beforeEach(() => {
  vi.useFakeTimers();
  resetSnackbar();
});
afterEach(() => resetSnackbar());

describe('registerServiceWorker', () => {
  it('registers /sw.js for the whole origin, bypassing the HTTP cache for the script', async () => {
    const container = new FakeContainer(true);
    await start(container);
    expect(container.register).toHaveBeenCalledWith('/sw.js', { scope: '/', updateViaCache: 'none' });
  });

  it('a page the active worker does not control (loaded while it was activating) asks to be claimed', async () => {
    const container = new FakeContainer(false);
    const active = new FakeWorker('activated');
    container.registration.active = active;
    await start(container);
    expect(active.messages).toEqual([{ type: 'CLAIM' }]);
  });

  it('asks for no claim when a worker controls the page, or none is active yet', async () => {
    const controlled = new FakeContainer(true);
    const current = new FakeWorker('activated');
    controlled.registration.active = current;
    await start(controlled);
    expect(current.messages).toEqual([]);
    // Still activating: its activation claims the page itself.
    const first = new FakeContainer(false);
    const activating = new FakeWorker('activating');
    first.registration.active = activating;
    await start(first);
    expect(activating.messages).toEqual([]);
  });

  it('on a first visit, before any worker is active, resolves the registration and checks for a new version', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const container = new FakeContainer(false);
    await expect(start(container)).resolves.toBe(container.registration);
    expect(container.registration.update).toHaveBeenCalledTimes(1);
    expect(error).not.toHaveBeenCalled();
  });

  it('checks for a new version at start, every hour, and when the tab becomes visible again', async () => {
    const container = new FakeContainer(true);
    await start(container);
    const update = container.registration.update;
    expect(update).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000);
    expect(update).toHaveBeenCalledTimes(2);
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(update).toHaveBeenCalledTimes(2);
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(update).toHaveBeenCalledTimes(3);
  });

  it('a failed update check is not an error the user sees', async () => {
    const container = new FakeContainer(true);
    container.registration.update.mockRejectedValueOnce(new TypeError('offline'));
    await expect(start(container)).resolves.toBe(container.registration);
    await vi.advanceTimersByTimeAsync(0);
    expect(snackbar.value).toBeNull();
  });

  it('offers the update when a new worker has installed while an old one controls the page', async () => {
    const container = new FakeContainer(true);
    await start(container);
    const next = new FakeWorker('installing');
    container.registration.installing = next;
    container.registration.dispatchEvent(new Event('updatefound'));
    expect(updatePrompt()).toBe(false);
    next.become('installed');
    expect(updatePrompt()).toBe(true);
  });

  it('offers a worker already waiting at start', async () => {
    const container = new FakeContainer(true);
    container.registration.waiting = new FakeWorker('installed');
    await start(container);
    expect(updatePrompt()).toBe(true);
  });

  it('offers a worker that was installing at start, whose updatefound came before the page listened', async () => {
    const container = new FakeContainer(true);
    const next = new FakeWorker('installing');
    container.registration.installing = next;
    await start(container);
    expect(updatePrompt()).toBe(false);
    next.become('installed');
    expect(updatePrompt()).toBe(true);
  });

  it('offers a worker once, though it was installing at start and its updatefound comes after', async () => {
    const container = new FakeContainer(true);
    const next = new FakeWorker('installing');
    container.registration.installing = next;
    await start(container);
    container.registration.dispatchEvent(new Event('updatefound'));
    const shown = new Set<number>();
    const stop = snackbar.subscribe((s) => s && shown.add(s.id));
    next.become('installed');
    stop();
    expect(updatePrompt()).toBe(true);
    expect(shown.size).toBe(1);
  });

  it('the first install is silent: no controller, no prompt', async () => {
    const container = new FakeContainer(false);
    await start(container);
    const first = new FakeWorker('installing');
    container.registration.installing = first;
    container.registration.dispatchEvent(new Event('updatefound'));
    first.become('installed');
    expect(snackbar.value).toBeNull();
  });

  it('Refresh asks the waiting worker to take over and reloads once it controls the page', async () => {
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload } as Location);
    const container = new FakeContainer(true);
    container.registration.waiting = new FakeWorker('installed');
    await start(container);
    snackbar.value?.onAction?.();
    expect(container.registration.waiting.messages).toEqual([{ type: 'SKIP_WAITING' }]);
    expect(reload).not.toHaveBeenCalled();
    container.dispatchEvent(new Event('controllerchange'));
    expect(reload).toHaveBeenCalledOnce();
    // A later change of worker without a Refresh does not reload.
    container.dispatchEvent(new Event('controllerchange'));
    expect(reload).toHaveBeenCalledOnce();
  });

  it('Refresh after another tab made the new worker active reloads at once: no controller change is coming', async () => {
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload } as Location);
    const container = new FakeContainer(true);
    const next = new FakeWorker('installed');
    container.registration.waiting = next;
    await start(container);
    // The other tab's Refresh: the worker takes over every tab, this one is not reloaded by it.
    next.become('activating');
    container.registration.waiting = null;
    container.controller = next;
    container.dispatchEvent(new Event('controllerchange'));
    expect(reload).not.toHaveBeenCalled();
    snackbar.value?.onAction?.();
    expect(reload).toHaveBeenCalledOnce();
    expect(next.messages).toEqual([]);
  });

  it('Refresh asks the newest waiting worker when the one offered was replaced', async () => {
    const container = new FakeContainer(true);
    const offered = new FakeWorker('installed');
    container.registration.waiting = offered;
    await start(container);
    const newer = new FakeWorker('installed');
    offered.become('redundant');
    container.registration.waiting = newer;
    snackbar.value?.onAction?.();
    expect(newer.messages).toEqual([{ type: 'SKIP_WAITING' }]);
    expect(offered.messages).toEqual([]);
  });

  it('the first worker to take control is handed what this visit already read', async () => {
    const container = new FakeContainer(false);
    await start(container);
    const first = new FakeWorker('activated');
    container.controller = first;
    container.dispatchEvent(new Event('controllerchange'));
    expect(first.messages).toEqual([expect.objectContaining({ type: 'WARM', urls: expect.any(Array), assets: expect.any(Array) })]);
  });

  it('the update offer stays until answered and names its action Refresh', async () => {
    const container = new FakeContainer(true);
    container.registration.waiting = new FakeWorker('installed');
    await start(container);
    expect(snackbar.value).toMatchObject({ message: 'Newer version of the app is available', action: 'Refresh', sticky: true });
  });

  it("hands the first worker only this origin's built assets the visit loaded, and only once", async () => {
    const origin = window.location.origin;
    vi.spyOn(performance, 'getEntriesByType').mockImplementation((type: string) =>
      type === 'resource'
        ? ([
            { name: `${origin}/assets/index-1a2b.js` },
            { name: `${origin}/logo.svg` },
            { name: `https://cdn.example/assets/font.woff2` },
            { name: `${origin}/assets/index-3c4d.css` },
          ] as PerformanceEntry[])
        : [],
    );
    const container = new FakeContainer(false);
    await start(container);
    const first = new FakeWorker('activated');
    container.controller = first;
    container.dispatchEvent(new Event('controllerchange'));
    expect(first.messages).toEqual([
      { type: 'WARM', urls: recentReads(), assets: [`${origin}/assets/index-1a2b.js`, `${origin}/assets/index-3c4d.css`] },
    ]);

    // A later change of worker (without a Refresh) hands nothing again.
    container.dispatchEvent(new Event('controllerchange'));
    expect(first.messages).toHaveLength(1);
  });

  it('a change of controller to none hands nothing and breaks nothing', async () => {
    const container = new FakeContainer(false);
    await start(container);
    expect(() => container.dispatchEvent(new Event('controllerchange'))).not.toThrow();
  });

  it('a browser that registers nothing (a blocked worker) resolves null without an error', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const container = new FakeContainer(true);
    container.register.mockResolvedValueOnce(undefined as unknown as FakeRegistration);
    await expect(start(container)).resolves.toBeNull();
    expect(error).not.toHaveBeenCalled();
  });

  it('a registration refused resolves null and is logged as an error', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const container = new FakeContainer(true);
    const refusal = new DOMException('The operation is insecure.', 'SecurityError');
    container.register.mockRejectedValueOnce(refusal);
    await expect(start(container)).resolves.toBeNull();
    expect(error).toHaveBeenCalledWith('Service worker registration failed', refusal);
  });

  it('a failed update check is written to the log as information', async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    const container = new FakeContainer(true);
    const offline = new TypeError('offline');
    container.registration.update.mockRejectedValueOnce(offline);
    await start(container);
    await vi.advanceTimersByTimeAsync(0);
    expect(info).toHaveBeenCalledWith('Update check failed', offline);
  });

  it('without service workers it says so and resolves null', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await expect(registerServiceWorker(undefined)).resolves.toBeNull();
    expect(warn).toHaveBeenCalledWith('Service workers are disabled or not supported by this browser');
  });
});
