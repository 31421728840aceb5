// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { quietRuntimeNotice } from './runtime-notice.ts';

const NOTICE = 'oidc-provider WARNING: Unsupported runtime. Use Node.js v22.x LTS, or a later LTS release.';
const original = console.warn;
afterEach(() => {
  console.warn = original;
  vi.unstubAllGlobals();
});

/** What reaches the console when other warnings come, then oidc-provider's, then more. */
function warnings(quiet: () => void): unknown[][] {
  const seen = vi.fn();
  console.warn = seen;
  quiet();
  console.warn('a warning of the app', 1);
  console.warn({ about: NOTICE });
  console.warn(`see: ${NOTICE}`);
  console.warn(NOTICE);
  console.warn(NOTICE);
  return seen.mock.calls;
}

const ALL = [['a warning of the app', 1], [{ about: NOTICE }], [`see: ${NOTICE}`], [NOTICE], [NOTICE]];
const QUIETED = [['a warning of the app', 1], [{ about: NOTICE }], [`see: ${NOTICE}`], [NOTICE]];

describe('the runtime notice of oidc-provider', () => {
  it('is left out once on a supported line whose release names no LTS; everything else shows', () => {
    for (const version of ['22.23.3', '24.21.0', '26.10.0']) {
      expect(
        warnings(() => quietRuntimeNotice({}, version)),
        version,
      ).toEqual(QUIETED);
    }
  });

  it('shows on a line this project does not support, and nothing changes where the release names its LTS', () => {
    expect(warnings(() => quietRuntimeNotice({}, '27.0.0'))).toEqual(ALL);
    expect(warnings(() => quietRuntimeNotice({}, '20.20.0'))).toEqual(ALL);
    expect(warnings(() => quietRuntimeNotice({ lts: 'Krypton' }, '24.21.0'))).toEqual(ALL);
  });

  it('is left out as the module loads, from the running Node', async () => {
    const quiet = async (release: object, node: string) => {
      vi.stubGlobal('process', Object.create(process, { release: { value: release }, versions: { value: { ...process.versions, node } } }));
      vi.resetModules();
      await import('./runtime-notice.ts');
    };
    expect(warnings(() => undefined)).toEqual(ALL);
    const seen = vi.fn();
    console.warn = seen;
    await quiet({ name: 'node' }, '26.10.0');
    console.warn(NOTICE);
    console.warn('after');
    expect(seen.mock.calls).toEqual([['after']]);
  });
});
