/**
 * Notifications, an inbox (openapi.yaml, "Notifications are an inbox"): the collection's routes,
 * each read answered as its caller sees it, and the caller's read marks.
 *
 * | method | path                         | answer                                                   |
 * |--------|------------------------------|----------------------------------------------------------|
 * | GET    | /notifications               | 200 the caller's view, in the language asked             |
 * | GET    | /notifications/{id}          | 200 the caller's view; 404                               |
 * | POST   | /notifications               | 201, as any collection (an admin's)                      |
 * | PUT    | /notifications/{id}          | 200; in another language (Content-Language) its text in it; |
 * |        |                              | in English, its translations go when its text changes    |
 * | DELETE | /notifications/{id}          | 204; its translations and every mark of it go            |
 * | GET    | /notifications/unread-count  | 200 { unread }                                           |
 * | POST   | /notifications/read-all      | 200 { unread }: marks read what the member was listed     |
 * | PUT    | /notifications/{id}/read     | 200 { unread }; 404                                      |
 * | DELETE | /notifications/{id}/read     | 200 { unread }; 404                                      |
 *
 * The caller's view: `read` is the member's mark, else the record's; `title` and `body` are in the
 * language `Accept-Language` asks for when the backend has it, else English; the welcome is left
 * out for a member who has a profile. A read with a bearer token is that member's (401 for a token
 * that is not valid), one without it a guest's.
 */
import type { HttpHandler } from 'msw';
import type { OperationSpec } from '../../openapi-kit/index.ts';
import type { Identity } from '../auth.ts';
import type { Records } from '../db.ts';
import { httpError } from '../errors.ts';
import { answerLanguage, languageRanges, RECORD_LANGUAGE } from '../languages.ts';
import { restCollection } from './collections.ts';
import type { MockContext } from './context.ts';

type Notification = Records['notifications'];

/** The answers of the reads vary with the language asked; a cache keeps one per language. */
const VARY = 'Accept-Language';

/** The caller's view of the notifications, and what each read answers. */
export function notificationReads(mock: MockContext) {
  const { contract, db, authenticate } = mock;
  const notifications = restCollection(mock, 'notifications');
  const { inbox } = db;

  /** The caller of an open read: the member its bearer token names (401 for a bad one), or a guest (null). */
  const callerOf = (request: Request): Promise<Identity | null> =>
    request.headers.has('authorization') ? authenticate(request) : Promise.resolve(null);

  /** The `Accept-Language` of the request, read as its ranges; 400 when it breaks the operation's pattern. */
  function rangesOf(request: Request, operation: OperationSpec): string[] {
    const header = request.headers.get('accept-language');
    const param = operation.params.find((p) => p.in === 'header' && p.name.toLowerCase() === 'accept-language');
    if (header !== null && param) {
      const problem = contract.checkAt(param.pointer, header, "header 'Accept-Language'");
      if (problem) throw httpError(400, problem);
    }
    return languageRanges(header);
  }

  /** The language a write's `Content-Language` names other than the record's (null: English, or none); 400 when it breaks its pattern. */
  function writtenLanguageOf(request: Request, operation: OperationSpec): string | null {
    const header = request.headers.get('content-language');
    const param = operation.params.find((p) => p.in === 'header' && p.name.toLowerCase() === 'content-language');
    if (header === null || !param) return null;
    const problem = contract.checkAt(param.pointer, header, "header 'Content-Language'");
    if (problem) throw httpError(400, problem);
    return header.toLowerCase() === RECORD_LANGUAGE ? null : header;
  }

  /** How `caller` sees each notification (null: not listed to them), and the language of each one seen. */
  function viewer(caller: Identity | null, ranges: readonly string[], listing = true) {
    const languages = new WeakMap<Notification, string>();
    const hasProfile = caller !== null && db.profileOf(caller.subject) !== undefined;
    const view = (row: Notification): Notification | null => {
      // The welcome a member with a profile no longer finds in the list can still be read by its id.
      if (listing && hasProfile && inbox.isUntilProfile(row.id)) return null;
      const language = answerLanguage(ranges, inbox.languagesOf(row.id));
      const read = caller === null ? undefined : inbox.markOf(caller.subject, row.id);
      const seen = { ...row, ...inbox.textIn(row.id, language), read: read ?? row.read };
      languages.set(seen, language);
      return seen;
    };
    /** The answer's Content-Language: the languages of `rows`, in the order they first appear; an empty list names the records'. */
    const contentLanguage = (rows: readonly Notification[]) =>
      [...new Set(rows.map((row) => languages.get(row)))].join(', ') || RECORD_LANGUAGE;
    return { view, contentLanguage };
  }

  /** The notifications listed to `caller`, as they see them (in English). */
  const listedTo = (caller: Identity | null): Notification[] => {
    const { view } = viewer(caller, []);
    return db.collections.notifications.all().flatMap((row) => view({ ...row }) ?? []);
  };

  /** The caller's unread count: what their list holds with `read` false. */
  const unreadOf = (caller: Identity | null) => ({
    status: 200 as const,
    body: { unread: listedTo(caller).filter((row) => !row.read).length },
  });

  return {
    notifications,
    writtenLanguageOf,
    listedTo,
    unreadOf,
    callerOf,
    async list(request: Request, operation: OperationSpec) {
      const ranges = rangesOf(request, operation);
      const { view, contentLanguage } = viewer(await callerOf(request), ranges);
      const answer = notifications.list(request, view);
      return { ...answer, headers: { 'content-language': contentLanguage(answer.body), vary: VARY } };
    },
    async read(request: Request, operation: OperationSpec, id: string) {
      const ranges = rangesOf(request, operation);
      const { view, contentLanguage } = viewer(await callerOf(request), ranges, false);
      const answer = notifications.read(id, view);
      return { ...answer, headers: { 'content-language': contentLanguage([answer.body]), vary: VARY } };
    },
  };
}

export function notificationHandlers(mock: MockContext): HttpHandler[] {
  const { route, db } = mock;
  const { inbox } = db;
  const reads = notificationReads(mock);
  const { notifications } = reads;

  /** Marks the notification for the member, then answers their unread count. */
  const mark = (identity: Identity, id: string, read: boolean) => {
    if (!notifications.has(id)) throw httpError(404, `Record '${id}' not found in collection 'notifications'`);
    inbox.mark(identity.subject, id, read);
    return reads.unreadOf(identity);
  };
  // The router has checked the token of each marking operation: they are secured.
  const member = (identity: Identity | null): Identity => identity!;

  return [
    route('get', '/notifications', ({ request, operation }) => reads.list(request, operation)),
    route('post', '/notifications', async ({ json }) => notifications.create(await json())),
    route('get', '/notifications/unread-count', async ({ request }) => reads.unreadOf(await reads.callerOf(request))),
    route('post', '/notifications/read-all', async ({ request, identity, json }) => {
      const caller = member(identity);
      // The body is optional: without one (or without lastReadAt), everything listed is marked. A
      // request that names a media type has a body of it, even an empty one (malformed JSON: 400).
      const none = request.body === null && !request.headers.has('content-type');
      const { lastReadAt }: { lastReadAt?: string } = none ? {} : await json();
      const upTo = lastReadAt === undefined ? Number.POSITIVE_INFINITY : Date.parse(lastReadAt);
      for (const row of reads.listedTo(caller)) if (Date.parse(row.createdAt) <= upTo) inbox.mark(caller.subject, row.id, true);
      return reads.unreadOf(caller);
    }),
    route('get', '/notifications/{id}', ({ request, operation, params }) => reads.read(request, operation, params.id)),
    route('put', '/notifications/{id}', async ({ request, operation, params: { id }, json }) => {
      const language = reads.writtenLanguageOf(request, operation);
      const before = db.collections.notifications.findFirst((q) => q.where((row) => row.id === id));
      const input = await json();
      // Without the record, the replace below answers what is wrong (400 for another id, else 404).
      if (language !== null && before) {
        // The text in another language: the record's other fields are replaced, its English stays.
        const answer = await notifications.replace(id, { ...input, title: before.title, body: before.body });
        inbox.setText(id, language, input);
        const body = { ...answer.body, title: input.title, body: input.body };
        return { ...answer, body, headers: { 'content-language': answerLanguage([language.toLowerCase()], inbox.languagesOf(id)) } };
      }
      const answer = await notifications.replace(id, input);
      if (before && (before.title !== answer.body.title || before.body !== answer.body.body)) inbox.dropTranslations(id);
      return { ...answer, headers: { 'content-language': RECORD_LANGUAGE } };
    }),
    route('delete', '/notifications/{id}', ({ params: { id } }) => {
      const answer = notifications.remove(id);
      inbox.forget(id);
      return answer;
    }),
    route('put', '/notifications/{id}/read', ({ identity, params: { id } }) => mark(member(identity), id, true)),
    route('delete', '/notifications/{id}/read', ({ identity, params: { id } }) => mark(member(identity), id, false)),
  ];
}
