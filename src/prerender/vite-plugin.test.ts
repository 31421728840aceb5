// @vitest-environment node
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fillTemplate } from './vite-plugin';

/** index.html as the build hands it over: its entry script in place of the source one. */
const TEMPLATE = readFileSync(resolve(import.meta.dirname, '../../index.html'), 'utf8').replace(
  '<script type="module" src="/src/main.tsx"></script>',
  '<script type="module" crossorigin src="/assets/index-abc.js"></script>',
);

const page = { html: '<div class="app"><main><h1>Settings</h1><p>Every setting.</p></main></div>', title: 'Settings | Circle' };

describe('fillTemplate', () => {
  const html = fillTemplate(TEMPLATE, page, { kind: 'route', route: 'settings', path: '/settings' }, '/assets/pre-paint-1.js', 'b1');

  it('holds the first paint for the pre-paint script, run once the whole screen is parsed', () => {
    const head = html.slice(0, html.indexOf('</head>'));
    // Deferred: it runs after the parser has read the whole body; render-blocking: no frame is
    // painted before it has run, so the first one has the whole screen in the member's theme.
    expect(head).toContain('<script defer blocking="render" src="/assets/pre-paint-1.js"></script>');
    expect(html.match(/<script\b/g)).toHaveLength(1);
  });

  it("puts the screen in #root, marked with its route, and the pre-paint script in place of the entry's", () => {
    expect(html).toContain(`<div id="root" data-prerendered="settings">${page.html}</div>`);
    expect(html).not.toContain('/assets/index-abc.js');
    expect(html).toContain('<title>Settings | Circle</title>');
  });
});
