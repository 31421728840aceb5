/** The last exchanges of the API, newest first, for GET /__mock/requests. */
export interface Exchange {
  method: string;
  /** Path and query, as requested, credentials in the query redacted (redactPath). */
  path: string;
  /** The answer's status; 0 when the connection was dropped without one. */
  status: number;
  /** When the request arrived (ISO 8601). */
  time: string;
  /** Milliseconds from the request's arrival to its answer. */
  duration: number;
}

export interface Journal {
  readonly size: number;
  record(exchange: Exchange): void;
  /** Newest first. */
  entries(): Exchange[];
  clear(): void;
}

/**
 * Query parameters whose values are credentials (OAuth and OpenID Connect names, and the usual
 * others): a token sent in the URL stays out of the list any page of the origin can read. A name
 * the operation documents as its own query parameter (the symbols' filter `code`) is no credential
 * there and is listed as sent.
 */
const SECRET_PARAMS: ReadonlySet<string> = new Set([
  'access_token',
  'refresh_token',
  'id_token',
  'id_token_hint',
  'code',
  'code_verifier',
  'token',
  'client_secret',
  'client_assertion',
  'assertion',
  'password',
  'api_key',
  'apikey',
  'key',
  'secret',
]);

/**
 * Names that look like a credential whatever else they say (`jwt`, `authToken`, `x-auth`,
 * `sessionid`, `bearer`, `my_secret`, `apiKey`…). Too wide is safe: a value is only hidden.
 */
const SECRET_PATTERN = /jwt|auth|session|sessid|(^|[._-])sid$|bearer|token|secret|passw|api[_-]?key|credential/;

/** Whether a query parameter's name is a credential's: in SECRET_PARAMS or like SECRET_PATTERN, `[]` or `[x]` after it (PHP's arrays) ignored. */
function isSecretParam(name: string): boolean {
  const bare = name.toLowerCase().replace(/(\[[^\]]*\])+$/, '');
  return SECRET_PARAMS.has(bare) || SECRET_PATTERN.test(bare);
}

const REDACTED = 'REDACTED';

/** The path as requested, the value of each credential-like query parameter replaced (but those in `documented`); the rest as written. */
export function redactPath(path: string, documented: ReadonlySet<string> = new Set()): string {
  const at = path.indexOf('?');
  if (at < 0) return path;
  const [query, fragment = null] = path.slice(at + 1).split(/#(.*)/s, 2);
  const pairs = (query ?? '').split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const raw = eq < 0 ? pair : pair.slice(0, eq);
    let name = raw;
    try {
      name = decodeURIComponent(raw.replaceAll('+', ' '));
    } catch {
      // A name that is no valid %-encoding is compared as written.
    }
    const secret = isSecretParam(name) && !documented.has(name);
    return secret && eq >= 0 ? `${raw}=${REDACTED}` : pair;
  });
  return `${path.slice(0, at)}?${pairs.join('&')}${fragment === null ? '' : `#${fragment}`}`;
}

/** The query parameters the operation an exchange reached documents (none when it reached none). */
export type DocumentedQuery = (method: string, pathname: string) => ReadonlySet<string>;

export function createJournal(size: number, documented: DocumentedQuery = () => new Set()): Journal {
  const kept: Exchange[] = [];
  return {
    size,
    record(exchange) {
      const pathname = exchange.path.split(/[?#]/, 1)[0]!;
      kept.push({ ...exchange, path: redactPath(exchange.path, documented(exchange.method, pathname)) });
      if (kept.length > size) kept.splice(0, kept.length - size);
    },
    entries: () => kept.toReversed(),
    clear: () => {
      kept.length = 0;
    },
  };
}
