/**
 * Imported just before oidc-provider, which warns as it loads of an "unsupported runtime" whenever
 * Node's release names no LTS line (`process.release.lts`). Node 26 builds made before that line got
 * its LTS name carry none, though 26 is a line this project supports (package.json's engines): on a
 * supported line, that one warning is left out. Any other message goes to the console as before.
 */
export function quietRuntimeNotice(release: { lts?: string | undefined } = process.release, version = process.versions.node): void {
  if (release.lts || ![22, 24, 26].includes(Number(version.split('.')[0]))) return;
  const warn = console.warn;
  // Dropped once, then the console is left as it was: oidc-provider loads once per process.
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith('oidc-provider WARNING: Unsupported runtime.')) console.warn = warn;
    else warn(...args);
  };
}

quietRuntimeNotice();
