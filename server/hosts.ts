/**
 * The host names the server answers to, as Vite's `server.allowedHosts` does: a page of another
 * site that re-points its own name at this machine (DNS rebinding) sends its own name as `Host`,
 * and is refused before any route is matched. Allowed without asking: IP addresses (a page
 * cannot take one over), `localhost` and `*.localhost` (they never leave the machine), the name
 * the server listens on; besides them, the names given with `--allowed-hosts` (a name starting
 * with a dot allows that domain and every name below it).
 */

/** The host name of a `Host` header, as the URL parser writes it (lower case, IPv6 in brackets); null when there is none to read. */
export function hostNameOf(header: string | undefined): string | null {
  if (header === undefined || header === '') return null;
  // A Host header is a host and an optional port, nothing else: a path, user info or query is refused.
  if (/[/?#@\\\s]/.test(header)) return null;
  return URL.parse(`http://${header}`)?.hostname ?? null;
}

/** Whether the server answers requests that name `hostname`; `allowed` are the configured names (see above). */
export function hostAllowed(hostname: string, allowed: readonly string[]): boolean {
  // The URL parser writes an IPv4 address as four decimal numbers and an IPv6 one in brackets, so a
  // name made of hex letters and dots (`bad.cafe`, a domain anyone can register) is no IP address.
  if (/^(?:\d+\.){3}\d+$/.test(hostname) || /^\[[\d.:a-f]+\]$/i.test(hostname)) return true;
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  return allowed.some((entry) => {
    const name = entry.toLowerCase();
    return name.startsWith('.') ? hostname === name.slice(1) || hostname.endsWith(name) : hostname === name;
  });
}
