// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { quietRuntimeNotice } from './runtime-notice.ts';

const NOTICE = 'oidc-provider WARNING: Unsupported runtime. Use Node.js v22.x LTS, or a later LTS release.';
const original = console.warn;
afterEach(() => {
  console.warn = original;
});

/** What reaches the console when oidc-provider warns, then something else warns twice. */
function warnings(release: { lts?: string }, version: string): unknown[][] {
  const seen = vi.fn();
  console.warn = seen;
  quietRuntimeNotice(release, version);
  console.warn(NOTICE);
  console.warn('a warning of the app', 1);
  console.warn(NOTICE);
  return seen.mock.calls;
}

describe('the runtime notice of oidc-provider', () => {
  it('is left out once on a supported line whose release names no LTS; everything else shows', () => {
    for (const version of ['22.23.3', '24.21.0', '26.10.0']) {
      expect(warnings({}, version), version).toEqual([['a warning of the app', 1], [NOTICE]]);
    }
  });

  it('shows on a line this project does not support, and nothing changes where the release names its LTS', () => {
    expect(warnings({}, '27.0.0')).toEqual([[NOTICE], ['a warning of the app', 1], [NOTICE]]);
    expect(warnings({}, '20.20.0')).toEqual([[NOTICE], ['a warning of the app', 1], [NOTICE]]);
    expect(warnings({ lts: 'Krypton' }, '24.21.0')).toEqual([[NOTICE], ['a warning of the app', 1], [NOTICE]]);
  });
});
