/**
 * The headers every page and answer of the provider gets: a strict policy (no script but the one
 * sign-out that goes on by itself, allowed by its hash), no sniffing, no referrer, no framing, no
 * caching, no opener; and the HTML answer that carries them.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { SIGN_OUT_SCRIPT } from './pages.ts';

const PAGE_POLICY = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** The sign-out that goes on by itself runs one script, allowed by its hash alone. */
export const SIGNING_OUT_POLICY = `${PAGE_POLICY}; script-src 'sha256-${createHash('sha256').update(SIGN_OUT_SCRIPT).digest('base64')}'`;

export const PAGE_HEADERS = {
  'content-security-policy': PAGE_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  // A page of another site that opened this one (window.open) keeps no handle on it, and none
  // of the provider's answers may be embedded by another site.
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

export function sendHtml(res: ServerResponse, status: number, html: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { ...PAGE_HEADERS, ...headers, 'content-type': 'text/html; charset=utf-8' });
  res.end(html);
}
