// @vitest-environment node
import { getResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { Authenticate } from '../auth.ts';
import { createContract } from '../contract.ts';
import { createDatabase, etagOf } from '../db.ts';
import { createMockBackend } from '../mock.ts';
import type { OpenApiDocument } from '../../openapi-kit/index.ts';
import { loadSpecCached } from '../../openapi-kit/node.ts';
import { profileHandlers } from './profile.ts';
import { createRouter } from './route.ts';
import { error, serverPerTest } from '../test/server.test-support.ts';
import { bearerOf, testAuthenticate } from '../../testkit/index.ts';

/** A test token (`Bearer test-<subject>`, testkit's) signs the subject in. */
const authenticate: Authenticate = testAuthenticate;

const server = serverPerTest({ authenticate });
const { api } = server;
const ada = bearerOf('ada');
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const fields = { displayName: 'Ada Lovelace', username: 'ada_l', email: 'ada@example.org' };

const form = (entries: [string, string | Blob][]) => {
  const body = new FormData();
  for (const [key, value] of entries) body.append(key, value);
  return body;
};
const textFields = Object.entries(fields);
const createWith = (body: BodyInit, headers: Record<string, string> = {}) =>
  api('/user/profile', { method: 'POST', headers: { ...ada, ...headers }, body });
const badRequest = (message: string) => error(400, 'Bad Request', message);
const grace = bearerOf('grace');
const png = () => new Blob([PNG], { type: 'image/png' });

/** Creates a profile for the member signed in by `who`, with an avatar when asked; its id and ETag. */
async function createProfile(who: Record<string, string>, withAvatar: boolean) {
  const username = who === grace ? 'grace_h' : 'ada_l';
  const entries: [string, string | Blob][] = [...textFields.filter(([key]) => key !== 'username'), ['username', username]];
  const answer = await api('/user/profile', {
    method: 'POST',
    headers: who,
    body: form(withAvatar ? [...entries, ['avatar', png()]] : entries),
  });
  expect(answer.status).toBe(201);
  return { id: (answer.body as { id: string }).id, etag: answer.headers.get('etag')! };
}

/** The profile handlers on another document (a changed copy of openapi.yaml), called in-process. */
async function handlersOn(change: (doc: Doc) => void) {
  const doc = structuredClone(loadSpecCached()) as Doc;
  change(doc);
  const contract = createContract(doc);
  const router = createRouter(contract, '*/api', authenticate);
  const handlers = router.inPathOrder(
    profileHandlers({
      contract,
      db: await createDatabase(createContract(loadSpecCached())),
      route: router.route,
      basePath: '/api',
      authenticate,
    }),
  );
  return async (path: string, init: RequestInit) => {
    const response = await getResponse(handlers, new Request(`http://localhost/api${path}`, init));
    return { status: response?.status, body: (await response?.json()) as unknown };
  };
}
// biome-ignore lint/suspicious/noExplicitAny: the tests change any part of the document, each checked by the code under test
type Doc = OpenApiDocument & { paths: Record<string, any>; components: { schemas: Record<string, any> } };

describe('a profile form', () => {
  it('is refused with 400 when the avatar is text, not a file', async () => {
    const answer = await createWith(form([...textFields, ['avatar', 'me.png']]));
    expect([answer.status, answer.body]).toEqual([400, badRequest('body.avatar must be a file, not text')]);
  });

  it('is refused with 400 when it has a field the form does not have', async () => {
    const answer = await createWith(form([...textFields, ['colour', 'blue']]));
    expect([answer.status, answer.body]).toEqual([400, badRequest("body has an unknown field 'colour'")]);
  });

  it('is refused with 400 when a field is given twice', async () => {
    const answer = await createWith(form([...textFields, ['displayName', 'Ada']]));
    expect([answer.status, answer.body]).toEqual([400, badRequest('body.displayName is given more than once')]);
  });

  it('is refused with 400 when a text field is a file', async () => {
    const answer = await createWith(form([['displayName', new Blob(['Ada'], { type: 'text/plain' })], ...textFields.slice(1)]));
    expect([answer.status, answer.body]).toEqual([400, badRequest('body.displayName must be text')]);
  });

  it('is refused with 400 when its interests, read as a list, break the JSON schema (more than 10 tags)', async () => {
    const eleven = Array.from({ length: 11 }, (_, i) => `tag${i}`).join(',');
    const answer = await createWith(form([...textFields, ['interests', eleven]]));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ status: 400, error: 'Bad Request', message: expect.stringMatching(/^body\.interests /) });
    // Ten are the most a profile holds, and are taken.
    const ten = Array.from({ length: 10 }, (_, i) => `tag${i}`).join(',');
    expect((await createWith(form([...textFields, ['interests', ten]]))).status).toBe(201);
  });

  it('creates the profile with its avatar', async () => {
    const answer = await createWith(
      form([...textFields, ['interests', 'math, poetry'], ['avatar', new Blob([PNG], { type: 'image/png' })]]),
    );
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ ...fields, interests: ['math', 'poetry'] });
  });
});

describe('a profile form with an avatar', () => {
  it('stores the image, read back as uploaded and kept by no cache', async () => {
    const created = await createWith(
      form([...textFields, ['interests', 'math, , poetry,'], ['avatar', new Blob([PNG], { type: 'image/png' })]]),
    );
    expect(created.status).toBe(201);
    const { id, avatar, interests } = created.body as { id: string; avatar: string; interests: string[] };
    expect([avatar, interests]).toEqual([`/api/user/profile/${id}/avatar?v=1`, ['math', 'poetry']]);
    const image = await fetch(`${server.url}${avatar}`, { headers: ada });
    expect([image.status, image.headers.get('content-type'), image.headers.get('cache-control')]).toEqual([200, 'image/png', 'no-store']);
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(PNG);
  });

  it("is answered no-store by the mock itself, as the browser's worker serves it (no server adds the header there)", async () => {
    const backend = await createMockBackend({ contract: createContract(loadSpecCached()), delayMs: 0, anyOrigin: true, authenticate });
    const call = (path: string, init: RequestInit = {}) => getResponse(backend.handlers, new Request(`http://localhost/api${path}`, init));
    const created = await call('/user/profile', {
      method: 'POST',
      headers: ada,
      body: form([...textFields, ['avatar', new Blob([PNG], { type: 'image/png' })]]),
    });
    const { avatar } = (await created!.json()) as { avatar: string };
    const image = await call(avatar.slice('/api'.length), { headers: ada });
    expect([image?.status, image?.headers.get('content-type'), image?.headers.get('cache-control')]).toEqual([
      200,
      'image/png',
      'no-store',
    ]);
  });

  it('takes the type of the avatar part in any case', async () => {
    const boundary = 'b0undary';
    const part = (headers: string, content: string) => `--${boundary}\r\n${headers}\r\n\r\n${content}\r\n`;
    const text = textFields.map(([key, value]) => part(`Content-Disposition: form-data; name="${key}"`, value)).join('');
    const body = new Uint8Array([
      ...new TextEncoder().encode(
        `${text}--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="me.png"\r\nContent-Type: IMAGE/PNG\r\n\r\n`,
      ),
      ...PNG,
      ...new TextEncoder().encode(`\r\n--${boundary}--\r\n`),
    ]);
    const created = await createWith(body, { 'content-type': `multipart/form-data; boundary=${boundary}` });
    expect(created.status).toBe(201);
    const image = await fetch(`${server.url}${(created.body as { avatar: string }).avatar}`, { headers: ada });
    expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/png']);
  });

  it('of a new profile must carry its required fields, even with an avatar', async () => {
    const answer = await createWith(form([['avatar', new Blob([PNG], { type: 'image/png' })]]));
    expect([answer.status, answer.body]).toEqual([400, badRequest("body must have required property 'displayName'")]);
    expect((await api('/user/profile/myprofile', { headers: ada })).status).toBe(204);
  });
});

describe('a profile body of another media type', () => {
  it('is refused with 415', async () => {
    const answer = await createWith(JSON.stringify(fields), { 'content-type': 'text/plain' });
    expect([answer.status, answer.body]).toEqual([
      415,
      error(415, 'Unsupported Media Type', 'The body must be multipart/form-data or JSON'),
    ]);
    expect((await api('/user/profile/myprofile', { headers: ada })).status).toBe(204);
  });
});

describe('an update', () => {
  it('with no field and no avatar is refused with 400, and changes nothing', async () => {
    const created = await createWith(JSON.stringify(fields), { 'content-type': 'application/json' });
    expect(created.status).toBe(201);
    const { id } = created.body as { id: string };
    const etag = created.headers.get('etag')!;
    for (const body of [form([]), form([['avatar', new Blob([], { type: 'image/png' })]])]) {
      const answer = await api(`/user/profile/${id}`, { method: 'PATCH', headers: { ...ada, 'if-match': etag }, body });
      expect([answer.status, answer.body]).toEqual([400, badRequest('body has no field to change')]);
    }
    const read = await api('/user/profile/myprofile', { headers: ada });
    expect([read.status, read.headers.get('etag')]).toEqual([200, etag]);
  });
});

describe('an update carrying only an avatar', () => {
  it('changes the avatar alone, each upload under a new URL', async () => {
    const created = await createWith(JSON.stringify(fields), { 'content-type': 'application/json' });
    const { id } = created.body as { id: string };
    let etag = created.headers.get('etag')!;
    for (const version of [1, 2]) {
      const answer = await api(`/user/profile/${id}`, {
        method: 'PATCH',
        headers: { ...ada, 'if-match': etag },
        body: form([['avatar', new Blob([PNG], { type: 'image/png' })]]),
      });
      expect([answer.status, answer.body]).toMatchObject([200, { ...fields, avatar: `/api/user/profile/${id}/avatar?v=${version}` }]);
      etag = answer.headers.get('etag')!;
    }
  });
});

describe('a JSON profile body', () => {
  it('is refused with 400 naming the field that breaks its schema', async () => {
    const answer = await createWith(JSON.stringify({ ...fields, colour: 'blue' }), { 'content-type': 'application/json' });
    expect([answer.status, answer.body]).toEqual([400, badRequest("body has an unknown field 'colour'")]);
  });
});

describe('a change with a stale If-Match', () => {
  it('is refused with 412 and the current ETag', async () => {
    const created = await createWith(JSON.stringify(fields), { 'content-type': 'application/json' });
    const { id } = created.body as { id: string };
    const current = created.headers.get('etag')!;
    const answer = await api(`/user/profile/${id}`, { method: 'DELETE', headers: { ...ada, 'if-match': '"stale.1"' } });
    expect([answer.status, answer.headers.get('etag'), answer.body]).toEqual([
      412,
      current,
      error(
        412,
        'Precondition Failed',
        `The profile changed since it was read (its ETag is now ${current}): read it again, then send its current ETag`,
      ),
    ]);
  });
});

describe('a deleted profile', () => {
  it('takes its avatar and its owner with it', async () => {
    const backend = await createMockBackend({ contract: createContract(loadSpecCached()), delayMs: 0, anyOrigin: true, authenticate });
    const call = async (path: string, init: RequestInit) => {
      const response = await getResponse(backend.handlers, new Request(`http://localhost/api${path}`, init));
      return { status: response?.status, body: (await response?.text()) || null };
    };
    const created = await call('/user/profile', {
      method: 'POST',
      headers: ada,
      body: form([...textFields, ['avatar', new Blob([PNG], { type: 'image/png' })]]),
    });
    expect(created.status).toBe(201);
    const { id } = JSON.parse(created.body!) as { id: string };
    expect([backend.db.avatars.count(), backend.db.owners.size]).toEqual([1, 1]);
    expect(await call(`/user/profile/${id}`, { method: 'DELETE', headers: { ...ada, 'if-match': '*' } })).toEqual({
      status: 204,
      body: null,
    });
    expect([backend.db.profiles.count(), backend.db.avatars.count(), backend.db.owners.size]).toEqual([0, 0, 0]);
  });
});

describe('the profile handlers', () => {
  it('refuse to start on a document whose profile operation takes no form', async () => {
    const doc = structuredClone(loadSpecCached()) as OpenApiDocument & {
      paths: Record<string, { post: { requestBody: { content: Record<string, unknown> } } }>;
    };
    delete doc.paths['/user/profile']!.post.requestBody.content['multipart/form-data'];
    const contract = createContract(doc);
    const context = {
      contract,
      db: await createDatabase(createContract(loadSpecCached())),
      route: createRouter(contract, '*/api', authenticate).route,
      basePath: '/api',
      authenticate,
    };
    expect(() => profileHandlers(context)).toThrow('createProfile must accept application/json and multipart/form-data');
  });
});

describe('a profile form, field by field', () => {
  it('is refused with 400 when it has a file field the form does not have', async () => {
    const answer = await createWith(form([...textFields, ['extra', png()]]));
    expect([answer.status, answer.body]).toEqual([400, badRequest("body has an unknown field 'extra'")]);
  });

  it('is refused with 400 when its interests are longer than the form allows, though they read as a valid list', async () => {
    const answer = await createWith(form([...textFields, ['interests', `math,${' '.repeat(260)}poetry`]]));
    expect([answer.status, answer.body]).toEqual([400, badRequest('body.interests must NOT have more than 260 characters')]);
  });

  it('of an update is refused with 400 when its interests, read as a list, break the JSON schema', async () => {
    const { id, etag } = await createProfile(ada, false);
    const eleven = Array.from({ length: 11 }, (_, i) => `tag${i}`).join(',');
    const answer = await api(`/user/profile/${id}`, {
      method: 'PATCH',
      headers: { ...ada, 'if-match': etag },
      body: form([['interests', eleven]]),
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ status: 400, error: 'Bad Request', message: expect.stringMatching(/^body\.interests /) });
  });
});

describe('a profile body over its x-max-body-bytes', () => {
  it('is refused with 413 as JSON past 64 KB', async () => {
    const answer = await createWith(JSON.stringify({ ...fields, bio: 'x'.repeat(70_000) }), { 'content-type': 'application/json' });
    expect([answer.status, answer.body]).toEqual([413, error(413, 'Payload Too Large', 'A JSON body must be at most 64 KB')]);
  });

  it('is refused with 413 as a form past the avatar and its fields, by the handler itself', async () => {
    // In-process: the Node server's own cap (the largest body any operation takes) would answer first.
    const call = await handlersOn(() => {});
    const answer = await call('/user/profile', {
      method: 'POST',
      headers: ada,
      body: form([...textFields, ['bio', 'x'.repeat(2_200_000)]]),
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({
      status: 413,
      error: 'Payload Too Large',
      message: expect.stringMatching(/^A form body must be at most /),
    });
  });
});

describe('a second create', () => {
  it('is refused with 409, saying to update instead', async () => {
    await createProfile(ada, false);
    const answer = await createWith(JSON.stringify(fields), { 'content-type': 'application/json' });
    expect([answer.status, answer.body]).toEqual([409, error(409, 'Conflict', 'A profile already exists: update it instead')]);
  });
});

describe('an Idempotency-Key', () => {
  it('of a profile since deleted is a new save, while other members have profiles', async () => {
    await createProfile(grace, false);
    const key = { 'idempotency-key': 'k-1', 'content-type': 'application/json' };
    const first = await api('/user/profile', { method: 'POST', headers: { ...ada, ...key }, body: JSON.stringify(fields) });
    const { id } = first.body as { id: string };
    expect((await api(`/user/profile/${id}`, { method: 'DELETE', headers: { ...ada, 'if-match': '*' } })).status).toBe(204);
    const again = await api('/user/profile', { method: 'POST', headers: { ...ada, ...key }, body: JSON.stringify(fields) });
    expect(again.status).toBe(201);
    expect((again.body as { id: string }).id).not.toBe(id);
    expect((await api('/user/profile/myprofile', { headers: ada })).body).toEqual(again.body);
  });
});

describe('each member’s avatar', () => {
  const image = (id: string, who: Record<string, string>) => api(`/user/profile/${id}/avatar`, { headers: who });

  it('is theirs alone: uploads, deletes and reads of one member leave the other’s as it was', async () => {
    const theirs = await createProfile(grace, true);
    const mine = await createProfile(ada, false);
    const missing = await image(mine.id, ada);
    expect([missing.status, missing.body]).toEqual([404, error(404, 'Not Found', `Profile '${mine.id}' has no avatar`)]);
    const changed = await api(`/user/profile/${mine.id}`, {
      method: 'PATCH',
      headers: { ...ada, 'if-match': mine.etag },
      body: form([['avatar', png()]]),
    });
    expect((changed.body as { avatar: string }).avatar).toBe(`/api/user/profile/${mine.id}/avatar?v=1`);
    expect((await image(theirs.id, grace)).status).toBe(200);
    expect((await api(`/user/profile/${mine.id}`, { method: 'DELETE', headers: { ...ada, 'if-match': '*' } })).status).toBe(204);
    expect((await image(theirs.id, grace)).status).toBe(200);
  });
});

describe('every change', () => {
  it('counts the profile’s version up by one, which its ETag carries', async () => {
    const { id, etag } = await createProfile(ada, false);
    expect(etag).toBe(etagOf(id, 1));
    const changed = await api(`/user/profile/${id}`, {
      method: 'PATCH',
      headers: { ...ada, 'if-match': etag, 'content-type': 'application/json' },
      body: JSON.stringify({ bio: 'Hi' }),
    });
    expect([changed.status, changed.headers.get('etag')]).toEqual([200, etagOf(id, 2)]);
  });
});

describe('a profile no member owns', () => {
  it('is refused with 403 to every member', async () => {
    const backend = await createMockBackend({ contract: createContract(loadSpecCached()), delayMs: 0, anyOrigin: true, authenticate });
    const now = '2026-01-01T00:00:00Z';
    await backend.db.profiles.create({
      id: 'p-9',
      ...fields,
      bio: '',
      language: 'en',
      interests: [],
      avatar: null,
      createdAt: now,
      updatedAt: now,
    });
    const response = await getResponse(
      backend.handlers,
      new Request('http://localhost/api/user/profile/p-9', { method: 'DELETE', headers: { ...ada, 'if-match': '*' } }),
    );
    expect([response?.status, await response?.json()]).toEqual([403, error(403, 'Forbidden', "Profile 'p-9' belongs to another member")]);
  });
});

describe('the profile handlers on another document', () => {
  it('refuse to start when the create takes no body at all', async () => {
    await expect(handlersOn((doc) => delete doc.paths['/user/profile'].post.requestBody)).rejects.toThrow(
      'createProfile must accept application/json and multipart/form-data',
    );
  });

  it('check a new profile against the JSON schema even when the form requires no field', async () => {
    const call = await handlersOn((doc) => delete doc.components.schemas.ProfileForm.required);
    const answer = await call('/user/profile', { method: 'POST', headers: ada, body: form([['avatar', png()]]) });
    expect(answer).toEqual({ status: 400, body: badRequest("body must have required property 'displayName'") });
  });

  it('answer 500 naming the cause when a profile operation is left open', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const call = await handlersOn((doc) => {
      doc.paths['/user/profile/myprofile'].get.security = [];
    });
    expect((await call('/user/profile/myprofile', {})).status).toBe(500);
    expect(log).toHaveBeenCalledWith(
      'Mock backend failure in getMyProfile',
      new Error('A profile operation ran without an identity: is it secured in openapi.yaml?'),
    );
    log.mockRestore();
  });

  it('answer 500 naming the cause when the profile they would store breaks the contract', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const call = await handlersOn((doc) => {
      doc.components.schemas.Profile.required = [...(doc.components.schemas.Profile.required ?? []), 'nickname'];
    });
    expect(
      (
        await call('/user/profile', {
          method: 'POST',
          headers: { ...ada, 'content-type': 'application/json' },
          body: JSON.stringify(fields),
        })
      ).status,
    ).toBe(500);
    expect(String(log.mock.calls[0]?.[1])).toMatch(/^Error: The profile would break the contract: /);
    log.mockRestore();
  });
});
