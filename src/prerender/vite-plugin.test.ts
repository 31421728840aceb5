// @vitest-environment node
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { fillTemplate, scriptHashSource } from './vite-plugin';

/** index.html as the build hands it over: its entry script in place of the source one. */
const TEMPLATE = readFileSync(resolve(import.meta.dirname, '../../index.html'), 'utf8').replace(
  '<script type="module" src="/src/main.tsx"></script>',
  '<script type="module" crossorigin src="/assets/index-abc.js"></script>',
);

const page = { html: '<div class="app"><main><h1>Settings</h1><p>Every setting.</p></main></div>', title: 'Settings | Circle' };

describe('fillTemplate', () => {
  // `$&` and `$'` in the code: a replacement string would expand them.
  const code = "document.documentElement.dataset.x='$&$\\'';";
  const html = fillTemplate(TEMPLATE, page, { kind: 'route', route: 'settings', path: '/settings' }, code, 'b1');

  it('puts the pre-paint code inline in <head>, as it is, first in <head>: the first paint waits for no request', () => {
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain(
      `<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />\n    <script>${code}</script>`,
    );
    expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script>']);
  });

  it('refuses code that would end the element early', () => {
    for (const bad of ['a="</script>"', 'a="</SCRIPT >"', 'a="<!--"']) {
      expect(() => fillTemplate(TEMPLATE, page, { kind: 'route', route: 'settings', path: '/settings' }, bad, 'b1')).toThrow(/inlined/);
    }
  });

  it("puts the screen in #root, marked with its route, and the pre-paint script in place of the entry's", () => {
    expect(html).toContain(`<div id="root" data-prerendered="settings">${page.html}</div>`);
    expect(html).not.toContain('/assets/index-abc.js');
    expect(html).toContain('<title>Settings | Circle</title>');
    expect(html).not.toContain('data-members-only');
  });

  it("marks a members' frame on <html>, where the pre-paint script reads it before the body is parsed", () => {
    const frame = fillTemplate(TEMPLATE, page, { kind: 'frame', layout: 'sidenav', path: '/profile', membersOnly: true }, code, 'b1');
    expect(frame).toMatch(/<html [^>]* data-members-only[ >]/);
    expect(frame).toContain(`<div id="root">${page.html}</div>`);
    const shell = fillTemplate(TEMPLATE, page, { kind: 'frame', layout: 'home', path: '/' }, code, 'b1');
    expect(shell).not.toContain('data-members-only');
  });
});

describe('scriptHashSource', () => {
  it("is CSP's sha256 source of the code's UTF-8 bytes, base64", () => {
    // The example of CSP Level 3 (section 8.3): alert('Hello, world.');
    expect(scriptHashSource("alert('Hello, world.');")).toBe("'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='");
    const code = 'document.title="é";';
    expect(scriptHashSource(code)).toBe(`'sha256-${createHash('sha256').update(Buffer.from(code, 'utf8')).digest('base64')}'`);
  });
});
