// @vitest-environment node
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fillTemplate, SCREEN_END_ID } from './vite-plugin';

/** index.html as the build hands it over: its entry script in place of the source one. */
const TEMPLATE = readFileSync(resolve(import.meta.dirname, '../../index.html'), 'utf8').replace(
  '<script type="module" src="/src/main.tsx"></script>',
  '<script type="module" crossorigin src="/assets/index-abc.js"></script>',
);

const page = { html: '<div class="app"><main><h1>Settings</h1><p>Every setting.</p></main></div>', title: 'Settings | Circle' };

describe('fillTemplate', () => {
  const html = fillTemplate(TEMPLATE, page, { kind: 'route', route: 'settings', path: '/settings' }, '/assets/pre-paint-1.js', 'b1');

  it('holds the first paint until the whole screen is parsed: the marker it waits for comes right after the screen', () => {
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain(`<link rel="expect" href="#${SCREEN_END_ID}" blocking="render" />`);
    const root = html.indexOf('<div id="root"');
    const marker = html.indexOf(`<template id="${SCREEN_END_ID}"></template>`);
    expect(root).toBeGreaterThan(0);
    expect(marker).toBe(html.indexOf(`${page.html}</div>`, root) + `${page.html}</div>`.length);
    // One marker only: a second one earlier in the page would let a paint through before the screen.
    expect(html.split(`id="${SCREEN_END_ID}"`)).toHaveLength(2);
  });

  it("puts the screen in #root, marked with its route, and the pre-paint script in place of the entry's", () => {
    expect(html).toContain(`<div id="root" data-prerendered="settings">${page.html}</div>`);
    expect(html).toContain('<script async src="/assets/pre-paint-1.js"></script>');
    expect(html).not.toContain('/assets/index-abc.js');
    expect(html).toContain('<title>Settings | Circle</title>');
  });
});
