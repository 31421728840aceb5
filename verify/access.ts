/**
 * Who may call, beyond credentials: what a document says of requests without any, and of requests
 * from another site's page.
 *
 * - An operation the document leaves open (no security requirement, or an empty one among them)
 *   answers a valid request without credentials as it would with them: never 401; a secured one
 *   answers a bearer token no server issued with 401, as it answers none, and so the member's own
 *   token (--header's `Authorization: Bearer …`) misplaced: after another scheme (`xBearer …`), or
 *   followed by more text. Such a header is no bearer credential (RFC 6750 §2.1), whatever it holds.
 *   Two spaces before the token are (`"Bearer" 1*SP b64token`): the member's own token sent so is
 *   taken as with one, never answered 401.
 *   Each credential given with --refused-header (an expired token, a revoked one, one for another
 *   audience, an ID token) gets 401 from it too.
 * - `x-cross-site-refusal: STATUS` at the top of the document: a request with a method that is not
 *   safe, without a bearer token (`Authorization: Bearer <b64token>`, RFC 6750), coming from another
 *   site (an `Origin` that is not the API's own, `null` included, or `Sec-Fetch-Site: cross-site` or
 *   `same-site`), answers STATUS on every operation that documents it, before anything else is
 *   looked at (and on no other: there it is an answer the operation does not document). An `Authorization` of another form exempts nothing; a bearer token does (the
 *   request is answered as without its `Origin`), and so does the API's own origin. A safe method
 *   is never refused for its site.
 *
 * Each refusal is counted under "invalid input", each request that must get through under "valid
 * input". The variants of a check (which sign of another site, which look-alike of a token) turn
 * with the operation's place in the document, so that a run sends each a few times and a seed
 * always the same ones.
 */
import type { OpenApiSpec, OperationSpec } from '../openapi-kit/index.ts';
import type { Credentials } from './exchange.ts';
import { SAFE_METHODS, type Session } from './session.ts';
import type { SingleExchanges } from './singles.ts';

/** A site no server is: what another site's page sends as its `Origin`. */
export const OTHER_ORIGIN = 'https://verify-other-site.invalid';

/** Signs of another site besides its `Origin`: the opaque origin browsers send, and Fetch metadata. */
const OTHER_SITE: ReadonlyArray<Array<[string, string]>> = [
  [['sec-fetch-site', 'cross-site']],
  [['origin', 'null']],
  [['sec-fetch-site', 'same-site']],
];

/** A bearer token as RFC 6750 writes it that no server issued. */
const UNKNOWN_TOKEN = 'Bearer verify.not-a-token.issued-by-anyone';

/** The member's own bearer token misplaced: after another scheme, then before trailing text. */
const MISPLACED: ReadonlyArray<{ before: string; after: string; says: string }> = [
  { before: 'x', after: '', says: 'after another scheme (xBearer <token>)' },
  { before: '', after: ' verify', says: 'followed by more text (Bearer <token> verify)' },
];

/** What RFC 6750 allows between `Bearer` and the token besides one space (`1*SP`). */
const WIDER_GAP = '  ';

/** `Authorization` values that are no bearer token as RFC 6750 writes it. */
const NOT_BEARER: readonly string[] = ['Basic dmVyaWZ5OnZlcmlmeQ==', 'xBearer verify', 'Bearer verify verify', 'Bearer'];

/** The status `x-cross-site-refusal` names, or null when the document states no such refusal. */
export function crossSiteRefusal(spec: Pick<OpenApiSpec, 'doc'>): number | null {
  const stated = (spec.doc as unknown as Record<string, unknown>)['x-cross-site-refusal'];
  return typeof stated === 'number' && Number.isInteger(stated) && stated >= 400 && stated < 500 ? stated : null;
}

const documents = (op: OperationSpec, status: number) => op.statuses.includes(String(status));

export class AccessChecks {
  private readonly session: Session;
  private readonly singles: SingleExchanges;
  private readonly refusal: number | null;

  constructor(session: Session, singles: SingleExchanges) {
    this.session = session;
    this.singles = singles;
    this.refusal = crossSiteRefusal(session.spec);
  }

  /** Every check of this module for one operation; `place` is its index in the document. */
  async operation(op: OperationSpec, place: number): Promise<void> {
    await this.open(op);
    await this.unknownToken(op);
    await this.misplacedToken(op, place);
    await this.spacedToken(op);
    await this.refusedCredentials(op);
    if (this.refusal !== null) await this.crossSite(op, this.refusal, place);
  }

  /** A secured operation refuses a bearer token it never issued as it refuses none (RFC 6750: 401 with its challenge). */
  private async unknownToken(op: OperationSpec): Promise<void> {
    if (!op.secured || !documents(op, 401)) return;
    await this.singles.sendValidAs(
      op,
      'unknown token',
      { credentials: 'none', headers: [['authorization', UNKNOWN_TOKEN]] },
      'invalid input',
      {
        kind: 'exact',
        statuses: [401],
        why: `${op.method} ${op.path} with a bearer token no server issued`,
      },
    );
  }

  /**
   * The credentials a secured operation takes (the admin's where it needs a role and they were
   * given), when they are one `Authorization` header written as `pattern` says and nothing else
   * (another header, an API key or a cookie, would decide the request whatever that one holds).
   */
  private loneBearer(op: OperationSpec, pattern: RegExp): { as: Credentials; name: string; whose: string } | null {
    if (!op.secured) return null;
    const { target } = this.session;
    const as = target.defaultCredentials(op);
    const headers = target.headersOf(as);
    const [given] = headers;
    if (headers.length !== 1 || given![0].toLowerCase() !== 'authorization' || !pattern.test(given![1])) return null;
    return { as, name: given![0], whose: as === 'admin' ? "the admin's" : "the member's" };
  }

  /**
   * A secured operation refuses the caller's own valid token where it is not a bearer credential,
   * when the credentials are one `Authorization: Bearer <token>` (loneBearer). The variant turns
   * with `place`.
   */
  private async misplacedToken(op: OperationSpec, place: number): Promise<void> {
    const bearer = documents(op, 401) ? this.loneBearer(op, /^Bearer +\S+$/i) : null;
    if (!bearer) return;
    const misplaced = MISPLACED[place % MISPLACED.length]!;
    await this.singles.sendValidAs(
      op,
      'misplaced token',
      { credentials: bearer.as, wrap: { name: bearer.name, ...misplaced } },
      'invalid input',
      { kind: 'exact', statuses: [401], why: `${op.method} ${op.path} with ${bearer.whose} own token ${misplaced.says}` },
    );
  }

  /**
   * A secured operation takes the caller's own valid token after two spaces (`Bearer  <token>`) as
   * it takes it after one: never 401. When the credentials are one `Authorization: Bearer <token>`
   * (loneBearer), written with one space.
   */
  private async spacedToken(op: OperationSpec): Promise<void> {
    const bearer = this.loneBearer(op, /^Bearer \S+$/i);
    if (!bearer) return;
    await this.singles.sendValidAs(
      op,
      'token after two spaces',
      { credentials: bearer.as, wrap: { name: bearer.name, before: '', after: '', gap: WIDER_GAP } },
      'valid input',
      {
        kind: 'valid',
        not: {
          statuses: [401],
          because: `${op.method} ${op.path} takes ${bearer.whose} own token after two spaces (Bearer  <token>) as after one (RFC 6750: "Bearer" 1*SP b64token)`,
        },
      },
    );
  }

  /** A secured operation refuses each credential --refused-header gives, sent alone. */
  private async refusedCredentials(op: OperationSpec): Promise<void> {
    if (!op.secured || !documents(op, 401)) return;
    const { refusedHeaders } = this.session.target;
    for (let n = 1; n <= refusedHeaders.length; n++) {
      await this.singles.sendValidAs(op, `refused credential ${n}`, { credentials: `refused ${n}` }, 'invalid input', {
        kind: 'exact',
        statuses: [401],
        why: `${op.method} ${op.path} with the credential the server must refuse (--refused-header ${n}: ${refusedHeaders[n - 1]![0]})`,
      });
    }
  }

  /** An open operation needs no credentials. */
  private async open(op: OperationSpec): Promise<void> {
    if (op.secured) return;
    await this.singles.sendValidAs(op, 'no credentials', { credentials: 'none' }, 'valid input', {
      kind: 'valid',
      not: { statuses: [401], because: `${op.method} ${op.path} needs no credentials (the document secures it with none)` },
    });
  }

  private async crossSite(op: OperationSpec, status: number, place: number): Promise<void> {
    const other: Array<[string, string]> = [['origin', OTHER_ORIGIN]];
    const { singles } = this;
    if (!documents(op, status)) {
      // Refused only where documented: elsewhere a write from another site gets one of the operation's own answers.
      if (!SAFE_METHODS.includes(op.method))
        await singles.sendValidAs(op, 'from another site, not refused here', { credentials: 'none', headers: other }, 'invalid input', {
          kind: 'unspecified',
        });
      return;
    }
    if (SAFE_METHODS.includes(op.method)) {
      // A read from another site is judged as any read: without credentials, a secured one answers 401.
      if (op.secured && documents(op, 401))
        await singles.sendValidAs(op, 'read from another site', { credentials: 'none', headers: other }, 'invalid input', {
          kind: 'exact',
          statuses: [401],
          why: `${op.method} ${op.path} from another site without credentials (a read is not refused for its site; the operation is secured)`,
        });
      return;
    }
    const refused = (why: string) => ({
      kind: 'exact' as const,
      statuses: [status],
      why: `${op.method} ${op.path} ${why} (x-cross-site-refusal)`,
    });
    await singles.sendValidAs(
      op,
      'from another site',
      { credentials: 'none', headers: other },
      'invalid input',
      refused('from another site without a bearer token'),
    );
    const sign = OTHER_SITE[place % OTHER_SITE.length]!;
    await singles.sendValidAs(
      op,
      'from another site, by its headers',
      { credentials: 'none', headers: sign },
      'invalid input',
      refused(`with ${sign.map(([name, value]) => `${name}: ${value}`).join(', ')} and no bearer token`),
    );
    const lookalike = NOT_BEARER[place % NOT_BEARER.length]!;
    await singles.sendValidAs(
      op,
      'from another site, with no bearer token',
      { credentials: 'none', headers: [...other, ['authorization', lookalike]] },
      'invalid input',
      refused(`from another site with Authorization: ${lookalike}, which is no bearer token`),
    );
    if (this.session.target.injectedHeaders.length > 0)
      await singles.sendValidAs(op, 'from another site, with credentials', { headers: other }, 'valid input', {
        kind: 'valid',
        not: {
          statuses: [status],
          because: `${op.method} ${op.path} from another site with a bearer token is answered as from the API's own (x-cross-site-refusal exempts it)`,
        },
      });
    if (op.secured && documents(op, 401))
      await singles.sendValidAs(
        op,
        "from the API's own origin",
        { credentials: 'none', headers: [['origin', new URL(this.session.target.bases.api).origin]] },
        'invalid input',
        {
          kind: 'exact',
          statuses: [401],
          why: `${op.method} ${op.path} from the API's own origin without credentials (not refused for its site; the operation is secured)`,
        },
      );
  }
}
