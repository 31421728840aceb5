/**
 * The built app the server serves: its files, and the security headers every answer carries, whose
 * Content-Security-Policy follows the build (its inline scripts' hashes, the endpoints its UI
 * configuration names). A deploy puts another build in its place.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { contentSecurityPolicy, securityHeaders } from './security-headers.ts';
import { loadStaticFiles, serveStatic, type StaticFile } from './static-files.ts';

/**
 * The hash sources of the build's inline scripts for script-src, as the build wrote them
 * (src/prerender/vite-plugin.ts); only well-formed SHA-256 sources, so the file cannot loosen the policy.
 */
function readScriptHashes(distDir: string): string[] {
  const path = resolve(distDir, '.csp-script-hashes.json');
  if (!existsSync(path)) return [];
  try {
    const sources: unknown = JSON.parse(readFileSync(path, 'utf8'))['script-src'];
    return Array.isArray(sources) ? sources.filter((s) => typeof s === 'string' && /^'sha256-[A-Za-z0-9+/]{43}='$/.test(s)) : [];
  } catch {
    console.warn(`${path} is not valid JSON: the Content-Security-Policy allows no inline script`);
    return [];
  }
}

function readUiConfig(distDir: string): Record<string, unknown> {
  const path = resolve(distDir, 'assets/ui-config.json');
  if (!existsSync(path)) return {};
  try {
    // Stryker disable next-line StringLiteral: without an encoding the file comes as a Buffer, which JSON.parse reads as the same UTF-8 text
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    // Stryker disable next-line ConditionalExpression,LogicalOperator: a JSON value that is no object (null, a number, a string, an array) spreads into the configuration as no key it reads, so letting one through changes no policy
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    console.warn(`${path} is not valid JSON: the Content-Security-Policy uses the built-in endpoints`);
    return {};
  }
}

export interface Site {
  /** The security headers of every answer, the current build's policy among them. */
  readonly headers: Record<string, string>;
  /** Serves another build from now on. */
  deploy(distDir: string): void;
  /** Answers a request for a file of the build. */
  answer(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void>;
}

/** The site before any deploy: no file, and the built-in policy. */
export function createSite(): Site {
  let files = new Map<string, StaticFile>();
  let headers: Record<string, string> = securityHeaders(contentSecurityPolicy());
  // The site served before the current one too: a test suite that deploys a new build and then the
  // first one again compresses neither twice.
  let before = new Map<string, StaticFile>();
  const deploy = (dir: string) => {
    const next = loadStaticFiles(dir, [files, before]);
    before = files;
    files = next;
    headers = securityHeaders(contentSecurityPolicy(readUiConfig(dir), readScriptHashes(dir)));
  };
  return {
    get headers() {
      return headers;
    },
    deploy,
    // Async so that a failure becomes the rejection the request handler answers with a 500.
    async answer(req, res, pathname) {
      serveStatic(req, res, pathname, files, headers);
    },
  };
}
