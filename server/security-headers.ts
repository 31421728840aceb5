import { BUILTIN_CONFIG, type AppConfig } from '../src/index.ts';

/** The origin of an absolute URL, or null for a same-origin path or a malformed value. */
function originOf(url: string | undefined): string | null {
  if (!url) return null;
  // A path on the app's own origin (`/api/`, `//host/…` too) is no URL without a base: null.
  const parsed = URL.parse(url);
  return parsed && ['https:', 'http:', 'wss:', 'ws:'].includes(parsed.protocol) ? parsed.origin : null;
}

/**
 * connect-src lists the app's own origin plus exactly the endpoints the configuration names;
 * script-src the origin plus the hash sources of the build's inline scripts (the pre-paint script).
 */
export function contentSecurityPolicy(overrides: Partial<AppConfig> = {}, scriptHashes: readonly string[] = []): string {
  const config = { ...BUILTIN_CONFIG, ...overrides };
  const endpoints = [config.apiBaseUrl, config.eventBusUrl, config.chatBot?.v1, config.chatBot?.v2, config.identityProvider?.issuer];
  const connect = new Set(["'self'"]);
  for (const url of endpoints) {
    const origin = originOf(url);
    if (origin) connect.add(origin);
  }
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scriptHashes].join(' '),
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src ${[...connect].join(' ')}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function securityHeaders(csp: string): Record<string, string> {
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
    'cross-origin-opener-policy': 'same-origin',
    // Another site's page may not load the app's files or the API's answers (an image or a script tag reads across origins).
    'cross-origin-resource-policy': 'same-origin',
    'x-frame-options': 'DENY',
  };
}
