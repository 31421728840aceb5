// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { altText, caption, escapeHtml, sheetHtml, type ShotResult } from './page.ts';
import { SCREENS, type Screen, shotsFor } from './plan.ts';

const FACTS = { date: '2026-11-30T10:00:00.000Z', commit: 'abc1234', seconds: 61.4 };
const taken = (screens: readonly Screen[]): ShotResult[] =>
  shotsFor(screens, ['en', 'zh-Hans']).map((shot) => ({ shot, width: shot.viewport.width, height: 1000 }));

describe('escapeHtml', () => {
  it('escapes what could end an element or a quoted attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
    expect(escapeHtml('简体中文 plain')).toBe('简体中文 plain');
  });
});

describe('the captions', () => {
  const shot = shotsFor([SCREENS.find((s) => s.id === 'admin')!], ['zh-Hans']).at(-1)!;

  it('name the screen, the width, the theme and the language', () => {
    expect(caption(shot)).toBe('Admin: symbols · 1280 px · dark · Simplified Chinese (zh-Hans)');
  });

  it('and the alt text says what is seen, for someone who cannot see it', () => {
    expect(altText(shot)).toBe(
      'Admin: symbols screen (/admin/symbols, signed in as ada, the admin) on a desktop 1280×800 viewport, dark theme, in Simplified Chinese (zh-Hans)',
    );
  });
});

describe('the sheet', () => {
  it('groups the shots by screen, each a section the navigation links to', () => {
    const ids = ['home', 'sign-in', 'profile'];
    const html = sheetHtml(taken(SCREENS.filter((s) => ids.includes(s.id))), FACTS);
    for (const id of ids) {
      expect(html).toContain(`<section id="${id}" aria-labelledby="${id}-title">`);
      expect(html).toContain(`<a href="#${id}">`);
    }
    expect(html.match(/<section /g)).toHaveLength(3);
    // Per screen: phone light, phone dark, desktop light, desktop dark.
    expect(html.match(/<h3>/g)).toHaveLength(12);
    expect(html).toContain('<h3>Home: phone 390×844, light theme (INDIGO_PINK)</h3>');
  });

  it('shows every image with its size, alt text and caption, linked to its full size', () => {
    const results = taken([SCREENS[0]!]);
    const html = sheetHtml(results, FACTS);
    const images = [...html.matchAll(/<img ([^>]*)>/g)].map((m) => m[1]!);
    expect(images).toHaveLength(results.length);
    for (const attributes of images) expect(attributes).toMatch(/alt="Home screen [^"]+" width="\d+" height="1000"/);
    expect(html).toContain(
      '<a href="home-phone-dark-zh-Hans.webp"><img src="home-phone-dark-zh-Hans.webp" alt="Home screen (/home, signed out) on a phone 390×844 viewport, dark theme, in Simplified Chinese (zh-Hans)"',
    );
    expect(html).toContain('<figcaption>Home · 390 px · dark · Simplified Chinese (zh-Hans)</figcaption>');
  });

  it('is one page in English with its styles inline and no script', () => {
    const html = sheetHtml(taken([SCREENS[0]!]), FACTS);
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain('<style>');
    expect(html).not.toMatch(/<script|<link /);
    expect(html).toContain('<a class="skip" href="#main">');
    expect(html).toContain('8 shots, taken 2026-11-30T10:00:00.000Z at commit abc1234 in 61 s.');
  });

  it('escapes what it writes, and says which shots were not taken and why', () => {
    const odd: Screen = { id: 'odd', title: 'A <b> & "c"', path: '/x?a=1&b=2', as: null, state: 'signed out' };
    const [first, second] = shotsFor([odd], ['en']);
    const html = sheetHtml(
      [
        { shot: first!, width: 390, height: 900 },
        { shot: second!, error: 'Timeout <20000ms> exceeded' },
      ],
      { ...FACTS, commit: null },
    );
    expect(html).toContain('<h2 id="odd-title">A &lt;b&gt; &amp; &quot;c&quot;</h2>');
    expect(html).toContain('alt="A &lt;b&gt; &amp; &quot;c&quot; screen (/x?a=1&amp;b=2, signed out)');
    expect(html).toContain('<p>Not taken: Timeout &lt;20000ms&gt; exceeded</p>');
    expect(html).toContain('1 shot, 1 not taken, taken 2026-11-30T10:00:00.000Z in 61 s.');
    expect(html).not.toContain('<b>');
  });
});
