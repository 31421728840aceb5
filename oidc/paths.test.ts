// @vitest-environment node
import { expect, it, vi } from 'vitest';

it('the provider lives under /oidc, where docs/accounts.md and the app’s issuer put it', async () => {
  // A constant made when the module loads: loaded afresh so the test sees the module as it is now.
  vi.resetModules();
  const { OIDC_PREFIX } = await import('./paths.ts');
  expect(OIDC_PREFIX).toBe('/oidc');
});
