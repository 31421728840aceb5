/**
 * The peer contract-testing tools verify is compared with, at pinned versions. They are no
 * dependency of the project: each is installed on demand, from the npm registry, into its own
 * folder under .cache/peers/ (CIRCLE_PEERS_DIR moves it: a mutation run's sandbox copy of the
 * repository has no .cache).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const PEERS = {
  dredd: { packages: ['dredd@14.1.0'], bins: { dredd: 'dredd/bin/dredd' } },
  portman: {
    packages: ['@apideck/portman@1.33.0', 'newman@6.2.2'],
    bins: { portman: '@apideck/portman/bin/portman', newman: 'newman/bin/newman.js' },
  },
} as const;

export type PeerName = keyof typeof PEERS;
export const PEER_NAMES = Object.keys(PEERS) as PeerName[];

export const isPeerName = (name: string | undefined): name is PeerName => name !== undefined && Object.hasOwn(PEERS, name);

/** Where the tools are installed: CIRCLE_PEERS_DIR, else .cache/peers of this repository. */
export function peersDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CIRCLE_PEERS_DIR ? resolve(env.CIRCLE_PEERS_DIR) : resolve(import.meta.dirname, '../../.cache/peers');
}

/** The script of one of a tool's commands (run with Node), e.g. `bin('portman', 'newman')`. */
export function bin<N extends PeerName>(name: N, command: keyof (typeof PEERS)[N]['bins'], dir = peersDir()): string {
  const bins: Record<string, string> = PEERS[name].bins;
  return join(dir, name, 'node_modules', bins[command as string]!);
}

export function isInstalled(name: PeerName, dir = peersDir()): boolean {
  return Object.keys(PEERS[name].bins).every((command) => existsSync(bin(name, command as never, dir)));
}

/** The npm command line that installs a tool into its folder. */
export function installArgs(name: PeerName, dir = peersDir()): string[] {
  return ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', join(dir, name), ...PEERS[name].packages];
}

/** Installs the tool unless it is there; false when npm failed. */
export function ensureInstalled(name: PeerName, dir = peersDir()): boolean {
  if (isInstalled(name, dir)) return true;
  const args = installArgs(name, dir);
  console.error(`Installing ${name}: npm ${args.join(' ')}`);
  const npm = spawnSync('npm', args, { stdio: ['ignore', 'inherit', 'inherit'] });
  return npm.status === 0 && isInstalled(name, dir);
}
