// @vitest-environment node
/**
 * The build the server serves: the Content-Security-Policy of its answers follows the build's UI
 * configuration, on start and on a deploy.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { contentSecurityPolicy } from './security-headers.ts';
import { cleanAfterEachTest, start, work } from './server.test-support.ts';
import type { RunningServer } from './server.ts';

cleanAfterEachTest();

describe("the build's UI configuration", () => {
  const build = (config: string | null) => {
    const dir = join(work, `dist-${Math.random().toString(36).slice(2)}`);
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html>');
    if (config !== null) writeFileSync(join(dir, 'assets/ui-config.json'), config);
    return dir;
  };
  const policyOf = async (server: RunningServer) => (await fetch(`${server.url}/api/symbols`)).headers.get('content-security-policy');

  it('adds the endpoints it names to connect-src, on start and on a deploy', async () => {
    const named = build(JSON.stringify({ apiBaseUrl: 'https://api.example.org/v1' }));
    const server = await start({ distDir: named });
    expect(await policyOf(server)).toBe(contentSecurityPolicy({ apiBaseUrl: 'https://api.example.org/v1' }));
    expect(await policyOf(server)).toContain("connect-src 'self' https://api.example.org");
    server.deploy(build(null));
    expect(await policyOf(server)).toBe(contentSecurityPolicy());
  });

  it('keeps the built-in endpoints without a configuration, and says nothing about it', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const server = await start({ distDir: build(null) });
    expect(await policyOf(server)).toBe(contentSecurityPolicy());
    expect(warn).not.toHaveBeenCalled();
  });

  it('keeps the built-in endpoints for a configuration that is no JSON object, and warns about one that is no JSON', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const server = await start({ distDir: build('null') });
    expect(await policyOf(server)).toBe(contentSecurityPolicy());
    expect(warn).not.toHaveBeenCalled();
    const broken = build('{"apiBaseUrl": ');
    server.deploy(broken);
    expect(await policyOf(server)).toBe(contentSecurityPolicy());
    expect(warn).toHaveBeenCalledWith(
      `${join(broken, 'assets/ui-config.json')} is not valid JSON: the Content-Security-Policy uses the built-in endpoints`,
    );
  });
});
