import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../api/client';
import { PROFILE } from '../test/profile-fixture';

describe('a saved profile', () => {
  it('comes with the ETag of its version, as the next If-Match, or none when the server sent none', async () => {
    // etagOf is built when the module loads: a fresh load sees it as it is built.
    vi.resetModules();
    const { etagOf, sendProfileSave } = await import('./requests');
    let etag: string | null = '"v2"';
    const client = createApiClient({
      baseUrl: 'https://api.example',
      fetch: async () =>
        new Response(JSON.stringify(PROFILE), { status: 200, headers: { 'content-type': 'application/json', ...(etag ? { etag } : {}) } }),
    });
    const save = { kind: 'update', id: 'p-1', fields: { bio: 'New' }, ifMatch: '"v1"' } as const;
    expect(await sendProfileSave(client, save, null)).toEqual({ profile: PROFILE, etag: '"v2"' });
    etag = null;
    expect(await sendProfileSave(client, save, null)).toEqual({ profile: PROFILE, etag: null });
    expect(etagOf(new Response(null, { headers: { etag: 'W/"v3"' } }))).toBe('W/"v3"');
  });
});
