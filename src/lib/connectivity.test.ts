import { describe, expect, it, vi } from 'vitest';

/** The status is read from the navigator when the module loads: each test loads it afresh. */
async function freshConnectivity() {
  vi.resetModules();
  return import('./connectivity');
}

describe('connectivity', () => {
  it("starts from the browser's own status", async () => {
    vi.stubGlobal('navigator', { onLine: false });
    const offline = await freshConnectivity();
    expect(offline.isOnline.value).toBe(false);

    vi.stubGlobal('navigator', { onLine: true });
    const online = await freshConnectivity();
    expect(online.isOnline.value).toBe(true);
  });

  it('counts as online where the navigator reports no status (the prerender in Node)', async () => {
    vi.stubGlobal('navigator', {});
    const { isOnline } = await freshConnectivity();
    expect(isOnline.value).toBe(true);
  });

  it('counts as online where there is no navigator at all', async () => {
    vi.stubGlobal('navigator', undefined);
    const { isOnline } = await freshConnectivity();
    expect(isOnline.value).toBe(true);
  });

  it('reports a change of status, and the new status is what everyone reads', async () => {
    vi.stubGlobal('navigator', { onLine: true });
    const { isOnline, setConnectivity } = await freshConnectivity();
    expect(setConnectivity(false)).toBe(true);
    expect(isOnline.value).toBe(false);
    expect(setConnectivity(true)).toBe(true);
    expect(isOnline.value).toBe(true);
  });

  it('reports no change when told the status it already has', async () => {
    vi.stubGlobal('navigator', { onLine: false });
    const { isOnline, setConnectivity } = await freshConnectivity();
    expect(setConnectivity(false)).toBe(false);
    expect(isOnline.value).toBe(false);
  });
});
