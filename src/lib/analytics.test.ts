import { describe, expect, it, vi } from 'vitest';

/** The recorded events are module state: each test starts from an empty record. */
async function freshAnalytics() {
  vi.resetModules();
  return import('./analytics');
}

describe('track', () => {
  it('keeps the latest 100 events on the device, dropping the oldest first', async () => {
    const { track, trackedEvents } = await freshAnalytics();
    vi.spyOn(console, 'info').mockImplementation(() => {});
    for (let i = 0; i < 105; i++) track('test', `a${i}`);
    const actions = trackedEvents().map((e) => e.action);
    expect(actions).toHaveLength(100);
    expect(actions[0]).toBe('a5');
    expect(actions.at(-1)).toBe('a104');
  });

  it('keeps all of the first 100 events', async () => {
    const { track, trackedEvents } = await freshAnalytics();
    vi.spyOn(console, 'info').mockImplementation(() => {});
    for (let i = 0; i < 100; i++) track('test', `a${i}`);
    const actions = trackedEvents().map((e) => e.action);
    expect(actions).toHaveLength(100);
    expect(actions[0]).toBe('a0');
  });

  it('hands out a copy: events tracked later do not change a list already read', async () => {
    const { track, trackedEvents } = await freshAnalytics();
    vi.spyOn(console, 'info').mockImplementation(() => {});
    track('install', 'available');
    const before = trackedEvents();
    track('install', 'accepted');
    expect(before.map((e) => e.action)).toEqual(['available']);
    expect(trackedEvents().map((e) => e.action)).toEqual(['available', 'accepted']);
  });

  it('writes each event to the console in development', async () => {
    const { track } = await freshAnalytics();
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    track('install', 'accepted');
    expect(info).toHaveBeenCalledExactlyOnceWith('[analytics] install: accepted');
  });

  it('writes nothing to the console in a production build', async () => {
    vi.stubEnv('DEV', false);
    try {
      const { track, trackedEvents } = await freshAnalytics();
      const info = vi.spyOn(console, 'info').mockImplementation(() => {});
      track('install', 'accepted');
      expect(info).not.toHaveBeenCalled();
      expect(trackedEvents()).toHaveLength(1);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
