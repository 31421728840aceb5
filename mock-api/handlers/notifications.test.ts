// @vitest-environment node
import { describe, expect, it } from 'vitest';
import notifications from '../data/notifications.json' with { type: 'json' };
import inbox from '../data/inbox.json' with { type: 'json' };
import { error, serverPerTest } from '../test/server.test-support.ts';
import { bearerOf, testAuthenticate } from '../../testkit/index.ts';

const server = serverPerTest({ authenticate: testAuthenticate });
const { api } = server;
/** ada is the admin, who writes the notifications; grace and linus are members. */
const ADMIN = bearerOf('ada');
const grace = bearerOf('grace');
const linus = bearerOf('linus');

type Seen = { id: string; title: string; body: string; read: boolean };
const list = async (headers: Record<string, string> = {}, query = '') => (await api(`/notifications${query}`, { headers })).body as Seen[];
/** Which notifications, by id, the list answers read. */
const readIds = async (headers: Record<string, string> = {}) => (await list(headers)).filter((n) => n.read).map((n) => n.id);
const unread = async (headers: Record<string, string> = {}) => (await api('/notifications/unread-count', { headers })).body;
const markRead = (id: string, headers: Record<string, string> = grace) => api(`/notifications/${id}/read`, { method: 'PUT', headers });
const markUnread = (id: string, headers: Record<string, string> = grace) => api(`/notifications/${id}/read`, { method: 'DELETE', headers });
const createProfile = (headers: Record<string, string>) =>
  api('/user/profile', { method: 'POST', headers, json: { displayName: 'Grace Hopper', username: 'grace_h', email: 'grace@example.org' } });

describe('read marks, per member', () => {
  it("start from each notification's stored read, for members and guests alike", async () => {
    // The seed: 1 and 2 unread, 3 read.
    expect(await readIds()).toEqual(['3']);
    expect(await readIds(grace)).toEqual(['3']);
    expect(await unread()).toEqual({ unread: 2 });
    expect(await unread(grace)).toEqual({ unread: 2 });
  });

  it('a mark changes what its member is answered, and nothing anyone else is', async () => {
    const marked = await markRead('2');
    expect([marked.status, marked.body]).toEqual([200, { unread: 1 }]);
    expect(await readIds(grace)).toEqual(['3', '2']);
    expect((await api('/notifications/2', { headers: grace })).body).toMatchObject({ id: '2', read: true });
    expect(await unread(grace)).toEqual({ unread: 1 });
    // Another member, a guest and the stored record are as they were.
    expect(await readIds(linus)).toEqual(['3']);
    expect(await readIds()).toEqual(['3']);
    expect((await api('/notifications/2', { headers: ADMIN })).body).toEqual(notifications[1]);
  });

  it('marks one unread again, even one stored as read; marking twice changes nothing more', async () => {
    expect((await markUnread('3')).body).toEqual({ unread: 3 });
    expect((await markUnread('3')).body).toEqual({ unread: 3 });
    expect(await readIds(grace)).toEqual([]);
    expect((await markRead('3')).body).toEqual({ unread: 2 });
    expect((await markRead('3')).body).toEqual({ unread: 2 });
    expect(await readIds(linus)).toEqual(['3']);
  });

  it('filters by the read the caller sees', async () => {
    await markRead('1');
    expect((await list(grace, '?read=false')).map((n) => n.id)).toEqual(['2']);
    expect((await list(grace, '?read=true')).map((n) => n.id)).toEqual(['3', '1']);
    expect((await list(linus, '?read=false')).map((n) => n.id)).toEqual(['2', '1']);
  });

  it('marks everything read, or only what was created up to lastReadAt', async () => {
    const upTo = await api('/notifications/read-all', {
      method: 'POST',
      headers: grace,
      json: { lastReadAt: notifications[0]!.createdAt },
    });
    expect([upTo.status, upTo.body]).toEqual([200, { unread: 1 }]);
    expect(await readIds(grace)).toEqual(['3', '1']);
    const all = await api('/notifications/read-all', { method: 'POST', headers: grace });
    expect([all.status, all.body]).toEqual([200, { unread: 0 }]);
    expect(await readIds(grace)).toEqual(['3', '2', '1']);
    expect(await readIds(linus)).toEqual(['3']);
  });

  it('marks only the notifications there were: one created after starts unread', async () => {
    await api('/notifications/read-all', { method: 'POST', headers: grace, json: {} });
    const created = await api('/notifications', {
      method: 'POST',
      headers: ADMIN,
      json: { title: 'Later', body: '', level: 'info', read: false, createdAt: '2020-01-01T00:00:00Z' },
    });
    expect(created.status).toBe(201);
    expect(await unread(grace)).toEqual({ unread: 1 });
  });

  it('forgets every mark of a deleted notification: a new one under its id starts unread', async () => {
    await markRead('2');
    await markRead('2', linus);
    expect((await api('/notifications/2', { method: 'DELETE', headers: ADMIN })).status).toBe(204);
    await api('/notifications', { method: 'POST', headers: ADMIN, json: { ...notifications[1], id: '2' } });
    expect(await readIds(grace)).toEqual(['3']);
    expect(await readIds(linus)).toEqual(['3']);
  });

  it('forgets every mark on a reset', async () => {
    await markRead('2');
    expect((await api('/commands/reset', { method: 'POST', headers: ADMIN })).status).toBe(204);
    expect(await readIds(grace)).toEqual(['3']);
  });

  it('needs a member: 401 without a token; 404 for a notification there is not', async () => {
    for (const method of ['PUT', 'DELETE']) {
      const anonymous = await api('/notifications/2/read', { method });
      expect([anonymous.status, anonymous.body]).toEqual([
        401,
        error(401, 'Unauthorized', 'Sign in: this operation needs a bearer access token'),
      ]);
      const missing = await api('/notifications/9/read', { method, headers: grace });
      expect([missing.status, missing.body]).toEqual([404, error(404, 'Not Found', "Record '9' not found in collection 'notifications'")]);
    }
    expect((await api('/notifications/read-all', { method: 'POST' })).status).toBe(401);
    expect(await readIds()).toEqual(['3']);
  });

  it('refuses a mark-all body that breaks its schema, and answers a bad token on a read with 401', async () => {
    const bad = await api('/notifications/read-all', { method: 'POST', headers: grace, json: { lastReadAt: 'yesterday' } });
    expect(bad.status).toBe(400);
    expect((await api('/notifications/read-all', { method: 'POST', headers: grace, json: { all: true } })).status).toBe(400);
    const empty = await api('/notifications/read-all', { method: 'POST', headers: { ...grace, 'content-type': 'application/json' } });
    expect([empty.status, empty.body]).toEqual([400, error(400, 'Bad Request', 'The body is not valid JSON')]);
    expect(await readIds(grace)).toEqual(['3']);
    expect((await api('/notifications', { headers: { authorization: 'Basic x' } })).status).toBe(401);
    expect((await api('/notifications/unread-count', { headers: { authorization: 'Basic x' } })).status).toBe(401);
  });

  it('the alias answers the same, for the same caller', async () => {
    await markRead('1');
    const own = await api('/notifications/own', { headers: { ...grace, 'accept-language': 'de' } });
    const canonical = await api('/notifications', { headers: { ...grace, 'accept-language': 'de' } });
    expect(own.body).toEqual(canonical.body);
    expect(own.headers.get('content-language')).toBe('de');
  });
});

describe('the welcome, once the member has a profile', () => {
  it('is neither listed nor counted to that member, and still read by its id', async () => {
    expect((await createProfile(grace)).status).toBe(201);
    expect((await list(grace)).map((n) => n.id)).toEqual(['3', '2']);
    expect(await unread(grace)).toEqual({ unread: 1 });
    expect((await api('/notifications/1', { headers: grace })).status).toBe(200);
    // Marking everything read marks what the member was listed, not the welcome.
    await api('/notifications/read-all', { method: 'POST', headers: grace });
    await api(`/user/profile/${((await api('/user/profile/myprofile', { headers: grace })).body as { id: string }).id}`, {
      method: 'DELETE',
      headers: { ...grace, 'if-match': '*' },
    });
    expect(await readIds(grace)).toEqual(['3', '2']);
    // Members without one, and guests, still have it.
    expect((await list(linus)).map((n) => n.id)).toEqual(['3', '2', '1']);
    expect((await list()).map((n) => n.id)).toEqual(['3', '2', '1']);
  });
});

describe('the language asked', () => {
  const fr = inbox.translations;

  it("answers each notification's title and body in it, saying so, and varies with it", async () => {
    const answer = await api('/notifications', { headers: { 'accept-language': 'fr-CA, fr;q=0.9, en;q=0.5' } });
    expect(answer.headers.get('content-language')).toBe('fr');
    expect(answer.headers.get('vary')).toBe('Accept-Language');
    expect(answer.body).toEqual([
      { ...notifications[2], ...fr['3'].fr },
      { ...notifications[1], ...fr['2'].fr },
      { ...notifications[0], ...fr['1'].fr },
    ]);
    const one = await api('/notifications/2', { headers: { 'accept-language': 'zh' } });
    expect(one.body).toEqual({ ...notifications[1], ...fr['2']['zh-Hans'] });
    expect(one.headers.get('content-language')).toBe('zh-Hans');
  });

  it('falls back to English, saying so: without the header, with `*`, or for a language there is not', async () => {
    for (const headers of [{}, { 'accept-language': '*' }, { 'accept-language': 'it, pt;q=0.5' }] as Record<string, string>[]) {
      const answer = await api('/notifications', { headers });
      expect(answer.headers.get('content-language')).toBe('en');
      expect(answer.body).toEqual([notifications[2], notifications[1], notifications[0]]);
    }
  });

  it('names every language of a list whose notifications differ, English for an empty one', async () => {
    await api('/notifications', {
      method: 'POST',
      headers: ADMIN,
      json: { title: 'English only', body: '', level: 'info', read: false, createdAt: '2026-11-21T00:00:00Z' },
    });
    const mixed = await api('/notifications', { headers: { 'accept-language': 'es' } });
    expect(mixed.headers.get('content-language')).toBe('en, es');
    expect((mixed.body as Seen[]).map((n) => n.title)).toEqual(['English only', fr['3'].es.title, fr['2'].es.title, fr['1'].es.title]);
    const none = await api('/notifications?level=error', { headers: { 'accept-language': 'es' } });
    expect([none.body, none.headers.get('content-language')]).toEqual([[], 'en']);
  });

  it('refuses with 400 an Accept-Language that breaks its pattern', async () => {
    const answer = await api('/notifications', { headers: { 'accept-language': 'fr;q=2' } });
    expect(answer.status).toBe(400);
    expect((answer.body as { message: string }).message).toMatch(/^header 'Accept-Language' must match pattern/);
    expect((await api('/notifications/1', { headers: { 'accept-language': 'fr,,' } })).status).toBe(400);
  });

  it("keeps a notification's translations while its English text stays, and drops them with it", async () => {
    const replace = (changes: object) =>
      api('/notifications/2', { method: 'PUT', headers: ADMIN, json: { ...notifications[1], id: undefined, ...changes } });
    const inGerman = async () => ((await api('/notifications/2', { headers: { 'accept-language': 'de' } })).body as Seen).title;
    expect((await replace({ level: 'warning' })).status).toBe(200);
    expect(await inGerman()).toBe(fr['2'].de.title);
    expect((await replace({ body: 'Now three places are left.' })).status).toBe(200);
    expect(await inGerman()).toBe(notifications[1]!.title);
  });
});

describe('the text written in another language', () => {
  const record = { ...notifications[1], id: undefined };
  const write = (language: string | null, changes: object = {}, id = '2') =>
    api(`/notifications/${id}`, {
      method: 'PUT',
      headers: { ...ADMIN, ...(language === null ? {} : { 'content-language': language }) },
      json: { ...record, ...changes },
    });
  const read = async (language: string) => {
    const answer = await api('/notifications/2', { headers: { 'accept-language': language } });
    return [answer.headers.get('content-language'), (answer.body as Seen).title];
  };

  it('is stored beside the English, answered in that language, and read back when asked for', async () => {
    const written = await write('pt-BR', { title: 'Olá', body: 'Três vagas', level: 'warning' });
    expect([written.status, written.headers.get('content-language')]).toEqual([200, 'pt-BR']);
    expect(written.body).toMatchObject({ title: 'Olá', body: 'Três vagas', level: 'warning' });
    expect(await read('pt-br')).toEqual(['pt-BR', 'Olá']);
    expect(await read('pt')).toEqual(['pt-BR', 'Olá']);
    expect(await read('pt-BR-x-rio')).toEqual(['pt-BR', 'Olá']);
    // The English stays; the record's other fields are replaced as by any replace.
    const english = await api('/notifications/2');
    expect([english.headers.get('content-language'), english.body]).toEqual(['en', { ...notifications[1], level: 'warning' }]);
    expect(await read('de')).toEqual(['de', inbox.translations['2'].de.title]);
  });

  it('replaces the text of a tag that differs only in case; en writes the English', async () => {
    await write('DE', { title: 'Neu' });
    expect(await read('de')).toEqual(['DE', 'Neu']);
    const english = await write('EN', { title: notifications[1]!.title });
    expect([english.status, english.headers.get('content-language')]).toEqual([200, 'en']);
    expect(await read('de')).toEqual(['DE', 'Neu']);
  });

  it('refuses a Content-Language that breaks its pattern with 400, and a notification there is not with 404', async () => {
    const bad = await write('fr, de');
    expect(bad.status).toBe(400);
    expect((bad.body as { message: string }).message).toMatch(/^header 'Content-Language' must match pattern/);
    expect((await write('fr', {}, '99')).status).toBe(404);
    expect((await write('fr', { id: '3' })).status).toBe(400);
    expect(await read('fr')).toEqual(['fr', inbox.translations['2'].fr.title]);
  });
});
