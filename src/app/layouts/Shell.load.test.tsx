import { beforeEach, describe, expect, it, vi } from 'vitest';
import { stubSilentNetwork } from '../../test/silent-network';
import { PROFILE } from '../../test/profile-fixture';

/**
 * The shell as a fresh load of its modules sees it. Each test here resets the module registry:
 * apart from Shell.test.tsx, whose components and lazy parts must all come from one registry.
 */
const session = vi.hoisted(() => ({ endSession: vi.fn(async (_everywhere?: boolean) => undefined) }));
vi.mock('../../session', () => ({ loadSession: async () => session }));
// A signed-in shell asks for the profile, which never comes here.
beforeEach(stubSilentNetwork);

/** The home layout's shell from the registry as it is now (the caller resets it), with the Testing Library of that registry. */
async function renderFreshShell() {
  const testing = await import('@testing-library/react');
  const { Shell: FreshShell } = await import('./Shell');
  testing.render(
    <FreshShell layout="home">
      <p>content</p>
    </FreshShell>,
  );
  return testing;
}

describe('<Shell> after a reload, before the session is read back', () => {
  it('shows the account menu while who is signed in is not known yet, with the profile kept from the last visit', async () => {
    // The signed-in flag is kept across reloads; the member comes later, from IndexedDB.
    localStorage.setItem('auth.isLoggedIn', 'true');
    localStorage.setItem('profile.last', JSON.stringify({ ...PROFILE, displayName: 'Countess Ada' }));
    // The model reads what the last visit kept as it loads: a fresh one.
    vi.resetModules();
    const testing = await renderFreshShell();
    try {
      // The menu's code is asked for by the shell itself, the member being signed in.
      expect(await testing.screen.findByRole('button', { name: 'Account: Countess Ada' })).toBeTruthy();
    } finally {
      testing.cleanup();
      localStorage.clear();
    }
  });
});

describe("<Shell> a member's parts, on demand", () => {
  it('a visitor signed out asks for none of their code; a sign-in brings the account menu', async () => {
    vi.resetModules();
    const asked = vi.fn();
    vi.doMock('./member-shell', async (importOriginal) => {
      const actual = await importOriginal<typeof import('./member-shell')>();
      return {
        ...actual,
        loadMemberParts: () => {
          asked();
          return actual.loadMemberParts();
        },
      };
    });
    const auth = await import('../../state/auth');
    const testing = await renderFreshShell();
    try {
      expect(testing.screen.getByRole('link', { name: 'Sign in' })).toBeTruthy();
      expect(asked).not.toHaveBeenCalled();
      testing.act(() => auth.sessionStarted({ subject: 'ada', name: 'Ada Lovelace', email: null }));
      expect(asked).toHaveBeenCalledTimes(1);
      expect(await testing.screen.findByRole('button', { name: 'Account: Ada Lovelace' })).toBeTruthy();
    } finally {
      testing.act(() => auth.sessionEnded('signed-out'));
      testing.cleanup();
      vi.doUnmock('./member-shell');
    }
  });
});

describe('<Shell> account actions, as loaded', () => {
  it('styles the way in as a small tonal button of the top bar (only the icon under the breakpoint)', async () => {
    // The class list is fixed when the module loads: a fresh load sees it as the code has it.
    vi.resetModules();
    const testing = await renderFreshShell();
    try {
      expect(testing.screen.getByRole('link', { name: 'Sign in' }).className).toBe('button button--tonal button--small topbar__action');
    } finally {
      testing.cleanup();
    }
  });
});
