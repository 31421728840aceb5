// @vitest-environment node
import { getResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { type Authenticate, unauthorized } from '../auth.ts';
import { createContract } from '../contract.ts';
import { createDatabase } from '../db.ts';
import { createMockBackend } from '../mock.ts';
import type { OpenApiDocument } from '../openapi/index.ts';
import { loadSpecCached } from '../spec.node.ts';
import { profileHandlers } from './profile.ts';
import { createRouter } from './route.ts';
import { error, serverPerSuite } from './server.test-support.ts';

/** `Bearer <subject>` signs the subject in. */
const authenticate: Authenticate = async (request) => {
  const [scheme, subject] = (request.headers.get('authorization') ?? '').split(' ');
  if (scheme !== 'Bearer' || !subject) throw unauthorized('Sign in: this operation needs a bearer access token');
  return { subject, scopes: ['openid'] };
};

const server = serverPerSuite({ authenticate });
const { api } = server;
const ada = { authorization: 'Bearer ada' };
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
  it('stores the image, read back as uploaded and revalidated on every use', async () => {
    const created = await createWith(
      form([...textFields, ['interests', 'math, , poetry,'], ['avatar', new Blob([PNG], { type: 'image/png' })]]),
    );
    expect(created.status).toBe(201);
    const { id, avatar, interests } = created.body as { id: string; avatar: string; interests: string[] };
    expect([avatar, interests]).toEqual([`/api/user/profile/${id}/avatar?v=1`, ['math', 'poetry']]);
    const image = await fetch(`${server.url}${avatar}`, { headers: ada });
    expect([image.status, image.headers.get('content-type'), image.headers.get('cache-control')]).toEqual([200, 'image/png', 'no-cache']);
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(PNG);
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
