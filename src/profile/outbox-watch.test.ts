import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { log } from '../lib/logger';
import { watchProfileOutbox } from './outbox-watch';

const model = vi.hoisted(() => ({
  sendQueuedSave: vi.fn<() => Promise<string>>(),
  queuedSaveSent: vi.fn<(save: { kind: string; id?: string }) => void>(),
  loadPendingSave: vi.fn<() => Promise<object | null>>(),
  fetchProfile: vi.fn<() => Promise<unknown>>(),
}));
vi.mock('./outbox', () => ({
  sendQueuedSave: model.sendQueuedSave,
  queuedSaveSent: model.queuedSaveSent,
  loadPendingSave: model.loadPendingSave,
}));
vi.mock('./store', () => ({ fetchProfile: model.fetchProfile }));

const flush = () => new Promise((r) => setTimeout(r, 0));

/** The page's listeners, removed after each test: watching adds them and has no way to stop. */
let added: [string, EventListenerOrEventListenerObject][] = [];
let worker: EventTarget;

function withServiceWorker() {
  worker = new EventTarget();
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: worker });
}

function online(value: boolean) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(value);
}

const fromWorker = (data: unknown) => worker.dispatchEvent(new MessageEvent('message', { data }));

beforeEach(() => {
  model.sendQueuedSave.mockReset().mockResolvedValue('sent');
  model.queuedSaveSent.mockReset();
  model.loadPendingSave.mockReset().mockResolvedValue(null);
  model.fetchProfile.mockReset().mockResolvedValue(null);
  const addEventListener = window.addEventListener.bind(window);
  vi.spyOn(window, 'addEventListener').mockImplementation(
    (type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions) => {
      if (!listener) return;
      added.push([type, listener]);
      addEventListener(type, listener, options);
    },
  );
  withServiceWorker();
  online(true);
});

afterEach(() => {
  for (const [type, listener] of added) window.removeEventListener(type, listener);
  added = [];
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('watchProfileOutbox at start', () => {
  it('sends a save left waiting, when online', async () => {
    model.loadPendingSave.mockResolvedValue({ kind: 'update', id: 'p1' });
    watchProfileOutbox();
    await flush();
    expect(model.sendQueuedSave).toHaveBeenCalledTimes(1);
  });

  it('sends nothing when nothing waits', async () => {
    watchProfileOutbox();
    await flush();
    expect(model.sendQueuedSave).not.toHaveBeenCalled();
  });

  it('keeps a waiting save while offline, and sends it on the return online', async () => {
    online(false);
    model.loadPendingSave.mockResolvedValue({ kind: 'create' });
    watchProfileOutbox();
    await flush();
    expect(model.sendQueuedSave).not.toHaveBeenCalled();

    window.dispatchEvent(new Event('online'));
    expect(model.sendQueuedSave).toHaveBeenCalledTimes(1);
  });

  it('starts without a service worker, and a save that cannot be read back stops nothing', async () => {
    Reflect.deleteProperty(navigator, 'serviceWorker');
    model.loadPendingSave.mockRejectedValue(new Error('IndexedDB unavailable'));
    expect(() => watchProfileOutbox()).not.toThrow();
    await flush();
    window.dispatchEvent(new Event('online'));
    expect(model.sendQueuedSave).toHaveBeenCalledTimes(1);
  });

  it('reports a send that failed, without throwing', async () => {
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
    const failure = new Error('network down');
    model.sendQueuedSave.mockRejectedValue(failure);
    watchProfileOutbox();
    window.dispatchEvent(new Event('online'));
    await flush();
    expect(warn).toHaveBeenCalledWith('The queued save could not be sent', failure);
  });
});

describe('watchProfileOutbox and the service worker', () => {
  it.each(['create', 'update'] as const)(
    'a %s the worker sent is reported to the profile model, which reads the profile again',
    async (kind) => {
      watchProfileOutbox();
      await flush();
      fromWorker({ type: 'OUTBOX_SENT', kind, id: 'p1' });
      expect(model.queuedSaveSent).toHaveBeenCalledWith({ kind, id: 'p1' });
      expect(model.fetchProfile).toHaveBeenCalledTimes(1);
      expect(model.sendQueuedSave).not.toHaveBeenCalled();
    },
  );

  it('a profile that cannot be read again after a sent save is left for later', async () => {
    model.fetchProfile.mockRejectedValue(new Error('offline'));
    watchProfileOutbox();
    fromWorker({ type: 'OUTBOX_SENT', kind: 'create' });
    await flush();
    expect(model.queuedSaveSent).toHaveBeenCalledWith({ kind: 'create', id: undefined });
  });

  it('a replay the server refused with 412 is sent from the page, which opens the conflict', async () => {
    watchProfileOutbox();
    await flush();
    fromWorker({ type: 'OUTBOX_CONFLICT', kind: 'update', id: 'p1' });
    expect(model.sendQueuedSave).toHaveBeenCalledTimes(1);
    expect(model.queuedSaveSent).not.toHaveBeenCalled();
    expect(model.fetchProfile).not.toHaveBeenCalled();
  });

  it.each([
    ['another message', { type: 'SKIP_WAITING', kind: 'update' }],
    ['a sent save of an unknown kind', { type: 'OUTBOX_SENT', kind: 'delete', id: 'p1' }],
    ['a sent save of no kind', { type: 'OUTBOX_SENT' }],
    ['a message with no data', null],
  ])('%s changes nothing', async (_, data) => {
    watchProfileOutbox();
    await flush();
    fromWorker(data);
    expect(model.queuedSaveSent).not.toHaveBeenCalled();
    expect(model.fetchProfile).not.toHaveBeenCalled();
    expect(model.sendQueuedSave).not.toHaveBeenCalled();
  });
});
