/**
 * The profile with a real avatar: upload progress, the avatar URL, update, read, delete,
 * cancellation and the avatar limits.
 *
 * These talk to the Node mock server directly, not through Prism: Prism's proxy re-encodes binary
 * bodies as UTF-8 text (see src/prism-proxy.contract.test.ts), so no real image survives it. Every
 * answer is still checked against openapi.yaml by the recorder (ajv over the contract's schemas).
 */
import type { IncomingMessage } from 'node:http';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../api/client';
import { ApiError, isAbort } from '../api/errors';
import type { Profile } from './requests';
import { profileCalls } from '../test/profile-calls.test-support';
import type { TransferEvent } from '../api/transport';
import { startServer, type RunningServer } from '../../server/index.ts';
import { MAX_AVATAR_BYTES } from '../../mock-api/index.ts';
import { authorize, errorBody, recordedClient } from '../test/backend.test-support';
import { makePng, PNG_SIGNATURE, SVG } from '../../openapi-kit/node.ts';
import { AnswerContract, Recorder } from '../../openapi-kit/node.ts';
import { SAMPLE_PROFILE, signInAs } from '../../testkit/index.ts';

const contract = new AnswerContract();
const recorder = new Recorder(contract);
let server: RunningServer;
let api: ApiClient;
/** ada's `Bearer …`: every profile operation needs a signed-in member. */
let authorization: string;
const profiles = () => profileCalls(api);
/** The stored profile's current ETag, the If-Match of its next change. */
const etagNow = async () => (await profiles().read()).etag ?? '';
const PNG = makePng();
const pngBlob = () => new Blob([PNG], { type: 'image/png' });
let JPEG: Uint8Array<ArrayBuffer>;

beforeAll(async () => {
  server = await startServer({ port: 0, delayMs: 0, distDir: null });
  ({ authorization } = await signInAs(server.url, 'ada'));
  api = authorize(recordedClient(`${server.url}/api`, recorder), authorization);
  JPEG = new Uint8Array(
    await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3f51b5' } })
      .jpeg()
      .toBuffer(),
  );
});

afterAll(async () => {
  await server?.close();
});

beforeEach(async () => {
  const { response } = await api.POST('/commands/{name}', { params: { path: { name: 'reset' } } });
  expect(response.status).toBe(204);
});

afterEach(() => {
  expect(recorder.take(), 'answers that break the contract').toEqual([]);
});

/** Follows the avatar URL the API returned (relative to the origin), checking the answer. */
async function fetchAvatar(base: string, profile: Profile): Promise<Response> {
  expect(profile.avatar).toBeTruthy();
  const url = new URL(profile.avatar!, base).href;
  const response = await fetch(url, { headers: { authorization } });
  await recorder.recordRaw('GET', url, response, '/api');
  return response;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('profile with an avatar (Node mock server, contract-checked)', () => {
  it('the test avatar is a real PNG', async () => {
    const meta = await sharp(PNG).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 96, 96]);
    // More than one 16 KB upload chunk, so progress has several steps.
    expect(PNG.byteLength).toBeGreaterThan(32 * 1024);
  });

  it('create sends multipart/form-data and reports sent, growing upload, then download progress', async () => {
    const events: TransferEvent[] = [];
    const created = await profiles().create(SAMPLE_PROFILE, pngBlob(), { onProgress: (e) => events.push(e) });
    expect(recorder.last('createProfile').status).toBe(201);
    expect(created).toMatchObject(SAMPLE_PROFILE);
    expect(created.avatar).toMatch(new RegExp(`^/api/user/profile/${created.id}/avatar\\?v=\\d+$`));

    const types = events.map((e) => e.type).join(' ');
    expect(types).toMatch(/^sent( upload){2,}( download)+$/);
    const uploads = events.filter((e) => e.type === 'upload');
    const downloads = events.filter((e) => e.type === 'download');
    for (const list of [uploads, downloads]) {
      const loaded = list.map((e) => e.loaded);
      expect(loaded).toEqual([...loaded].sort((a, b) => a - b));
      expect(new Set(loaded).size).toBe(loaded.length);
      expect(new Set(list.map((e) => e.total)).size).toBe(1);
      expect(list.at(-1)!.loaded).toBe(list.at(-1)!.total);
    }
    // The multipart body carries the whole image; the download is the JSON profile, byte for byte.
    expect(uploads.at(-1)!.total).toBeGreaterThan(PNG.byteLength);
    expect(downloads.at(-1)!.total).toBe(Buffer.byteLength(JSON.stringify(created)));
  });

  it('the avatar URL serves the uploaded image with its content type', async () => {
    const created = await profiles().create(SAMPLE_PROFILE, pngBlob());
    const response = await fetchAvatar(server.url, created);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(PNG);
  });

  it('update changes the fields sent, and a new avatar gets a new URL and content type', async () => {
    const created = await profiles().create(SAMPLE_PROFILE, pngBlob());
    const version = Number(new URL(created.avatar!, server.url).searchParams.get('v'));
    const renamed = await profiles().update(created.id, { displayName: 'Ada L.', bio: 'Poetical science.' }, null, {
      ifMatch: await etagNow(),
    });
    expect(renamed).toEqual({ ...created, displayName: 'Ada L.', bio: 'Poetical science.', updatedAt: renamed.updatedAt });

    const events: TransferEvent[] = [];
    const withJpeg = await profiles().update(created.id, {}, new Blob([JPEG], { type: 'image/jpeg' }), {
      ifMatch: await etagNow(),
      onProgress: (e) => events.push(e),
    });
    expect(recorder.last('updateProfile').status).toBe(200);
    expect(events[0]).toEqual({ type: 'sent' });
    // A new image, a new URL: caches keyed on the old one cannot serve the old picture.
    expect(withJpeg.avatar).toBe(`/api/user/profile/${created.id}/avatar?v=${version + 1}`);
    expect(withJpeg.displayName).toBe('Ada L.');
    const response = await fetchAvatar(server.url, withJpeg);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(JPEG);
  });

  it('get answers the stored profile', async () => {
    const created = await profiles().create(SAMPLE_PROFILE, pngBlob());
    expect(await profiles().get()).toEqual(created);
  });

  it('delete removes the profile and its avatar', async () => {
    const created = await profiles().create(SAMPLE_PROFILE, pngBlob());
    await profiles().remove(created.id, await etagNow());
    expect(recorder.last('deleteProfile').status).toBe(204);
    expect(await profiles().get()).toBeNull();
    expect((await fetchAvatar(server.url, created)).status).toBe(404);
  });

  describe('avatar limits', () => {
    const refused = async (avatar: Blob, status: number, message: string) => {
      const error = await profiles()
        .create(SAMPLE_PROFILE, avatar)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).body).toEqual(errorBody(status, message));
      // Nothing was stored.
      expect(await profiles().get()).toBeNull();
    };

    it('an SVG is refused with 415', () =>
      refused(new Blob([SVG], { type: 'image/svg+xml' }), 415, 'The avatar must be a PNG, JPEG or WebP image'));

    it('an image over 2 MB is refused with 413', () => {
      const big = new Uint8Array(MAX_AVATAR_BYTES + 1);
      big.set(PNG_SIGNATURE);
      return refused(new Blob([big], { type: 'image/png' }), 413, 'The avatar must be at most 2 MB');
    });

    it('exactly 2 MB is still accepted', async () => {
      const limit = new Uint8Array(MAX_AVATAR_BYTES);
      limit.set(PNG);
      const created = await profiles().create(SAMPLE_PROFILE, new Blob([limit], { type: 'image/png' }));
      expect(created.avatar).toContain('/avatar');
    });

    it('PNG declared but JPEG content is refused with 422', () =>
      refused(new Blob([JPEG], { type: 'image/png' }), 422, "The avatar's content is not a PNG image"));

    it('PNG declared but garbage content is refused with 422', () =>
      refused(
        new Blob([new TextEncoder().encode('definitely not an image')], { type: 'image/png' }),
        422,
        "The avatar's content is not a PNG image",
      ));
  });

  describe('cancellation with an AbortController (server delay 300 ms)', () => {
    let slow: RunningServer;
    let slowApi: ApiClient;

    beforeAll(async () => {
      slow = await startServer({ port: 0, delayMs: 300, distDir: null });
      slowApi = authorize(recordedClient(`${slow.url}/api`, recorder), (await signInAs(slow.url, 'ada')).authorization);
    });

    afterAll(async () => {
      await slow?.close();
    });

    it("aborting at 'sent' rejects with an AbortError and nothing reaches the server", async () => {
      const controller = new AbortController();
      const events: TransferEvent[] = [];
      const arrived: string[] = [];
      const listener = (req: IncomingMessage) => arrived.push(`${req.method} ${req.url}`);
      slow.server.on('request', listener);
      const pending = profileCalls(slowApi).create(SAMPLE_PROFILE, pngBlob(), {
        signal: controller.signal,
        onProgress: (e) => {
          events.push(e);
          if (e.type === 'sent') controller.abort();
        },
      });
      const error = await pending.catch((e: unknown) => e);
      expect(isAbort(error), String(error)).toBe(true);
      expect((error as DOMException).name).toBe('AbortError');
      // 'sent' fires just before fetch() is called; an abort there sends nothing and reports no upload.
      expect(events).toEqual([{ type: 'sent' }]);
      await sleep(350);
      slow.server.off('request', listener);
      expect(arrived).toEqual([]);
      expect(await profileCalls(slowApi).get()).toBeNull();
    });

    it('aborting once the server has the whole request rejects with an AbortError, but the server still creates the profile', async () => {
      const controller = new AbortController();
      const events: TransferEvent[] = [];
      // Abort the moment the server has read the last byte of the body, i.e. while it sits in its
      // 300 ms delay: deterministic however slow the machine is.
      const onRequest = (req: IncomingMessage) => req.once('end', () => controller.abort());
      slow.server.once('request', onRequest);
      const pending = profileCalls(slowApi).create(SAMPLE_PROFILE, pngBlob(), {
        signal: controller.signal,
        onProgress: (e) => events.push(e),
      });
      const error = await pending.catch((e: unknown) => e);
      expect(isAbort(error), String(error)).toBe(true);
      const lastUpload = events.filter((e) => e.type === 'upload').at(-1);
      expect(lastUpload && lastUpload.loaded === lastUpload.total).toBe(true);
      expect(events.some((e) => e.type === 'download')).toBe(false);
      // The abort only ends the client's wait: the server had the whole request, does not watch
      // the connection, and creates the profile when its delay ends. A cancelled create is
      // therefore not a rolled-back one; the app must re-read the profile after a cancel.
      let stored: Profile | null = null;
      for (const deadline = Date.now() + 3000; !stored && Date.now() < deadline; ) {
        stored = await profileCalls(slowApi).get();
      }
      if (!stored) throw new Error('The server never stored the cancelled profile');
      expect(stored).toMatchObject(SAMPLE_PROFILE);
      expect(stored.avatar).toMatch(/\/avatar\?v=\d+$/);
    });
  });
});
