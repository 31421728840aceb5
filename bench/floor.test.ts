// @vitest-environment node
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../server/index.ts';
import { FLOOR_PAGES, floorPage, startFloorServer, type FloorServer } from './floor';

let server: FloorServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('floorPage', () => {
  it('is the same page with and without one render-blocking script in its head', () => {
    const bare = floorPage('bare');
    const script = floorPage('script');
    expect(bare).not.toContain('<script');
    expect(script.match(/<script\b[^>]*>/g)).toEqual(['<script defer blocking="render" src="/floor.js">']);
    expect(script.indexOf('<script')).toBeLessThan(script.indexOf('<link rel="stylesheet"'));
    expect(script.replace(/<script\b[^>]*><\/script>\n/, '')).toBe(bare);
    for (const page of [bare, script]) {
      expect(page).toMatch(/^<!doctype html>\n<html lang="en">/);
      expect(page).toContain('<h1>');
      expect(page).toContain('<link rel="stylesheet" href="/floor.css">');
      // A description and a title: what Lighthouse's SEO audit asks of any page.
      expect(page).toContain('<title>Floor</title>');
      expect(page).toMatch(/<meta name="description" content="[^"]+">/);
    }
  });
});

describe('startFloorServer', () => {
  it("serves both pages, their stylesheet and script with the app's security headers, on 127.0.0.1", async () => {
    server = await startFloorServer();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const bare = await fetch(`${server.url}${FLOOR_PAGES.bare}`);
    expect(bare.status).toBe(200);
    expect(bare.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(bare.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(bare.headers.get('content-security-policy')).toBe(contentSecurityPolicy());
    expect(await bare.text()).toBe(floorPage('bare'));
    expect(await (await fetch(`${server.url}${FLOOR_PAGES.script}`)).text()).toBe(floorPage('script'));
    const css = await fetch(`${server.url}/floor.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await css.text()).toContain('body{');
    const js = await fetch(`${server.url}/floor.js`);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it("serves the build's favicon when it is given one, and answers 404 for it otherwise", async () => {
    server = await startFloorServer();
    expect((await fetch(`${server.url}/favicon.ico`)).status).toBe(404);
    await server.close();
    dir = mkdtempSync(join(tmpdir(), 'floor-'));
    const icon = Buffer.from([0, 0, 1, 0, 1, 0, 16, 16]);
    writeFileSync(join(dir, 'favicon.ico'), icon);
    server = await startFloorServer(join(dir, 'favicon.ico'));
    const answer = await fetch(`${server.url}/favicon.ico`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('image/x-icon');
    expect(Buffer.from(await answer.arrayBuffer())).toEqual(icon);
    expect((await fetch(`${server.url}/elsewhere`)).status).toBe(404);
  });

  it('stops listening when closed', async () => {
    const floor = await startFloorServer();
    await floor.close();
    await expect(fetch(`${floor.url}/`)).rejects.toThrow();
  });
});
