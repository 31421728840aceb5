// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import type { PageLanguage } from './messages.ts';

const LANGUAGES: PageLanguage[] = ['en', 'es', 'de', 'fr', 'zh-Hans'];

/**
 * The pages, their words and the stylesheet are made when the modules load: each test loads them
 * afresh so it sees the modules as they are now.
 */
async function load() {
  vi.resetModules();
  const [pages, { PAGE_MESSAGES }] = await Promise.all([import('./pages.ts'), import('./messages.ts')]);
  return { ...pages, PAGE_MESSAGES };
}

/** Every page is a whole document in its language, under the one stylesheet, kept out of search engines. */
function expectDocument(html: string, language: PageLanguage, title: string, script?: string) {
  expect(html.startsWith('<!doctype html>\n<html lang="')).toBe(true);
  expect(html).toContain(`<html lang="${language}">`);
  expect(html).toContain(`<title>${title} · Circle</title>`);
  expect(html).toContain('<link rel="stylesheet" href="/oidc/assets/pages.css">');
  expect(html).toContain('<meta name="robots" content="noindex">');
  // No inline style at all, and no script but the one a page is allowed by its hash.
  const scripts = [...html.matchAll(/<script[^>]*>([^<]*)<\/script>/g)].map(([, text]) => text);
  expect(scripts).toEqual(script === undefined ? [] : [script]);
  expect(html.replace(/<script>[^<]*<\/script>/g, '')).not.toMatch(/<script|style=/);
}

describe('the sign-in page', () => {
  it('in each language: heading, labels, the buttons and the demo accounts', async () => {
    const { PAGE_MESSAGES, signInPage, LOGO } = await load();
    for (const language of LANGUAGES) {
      const m = PAGE_MESSAGES[language];
      const html = signInPage({ language, action: '/oidc/interaction/u/login', cancel: '/oidc/interaction/u/abort', clientName: 'Circle' });
      expectDocument(html, language, m.signInTitle);
      expect(html).toContain(`<h1>${m.signInHeading('Circle')}</h1>`);
      expect(html).toContain(`<label for="username">${m.username}</label>`);
      expect(html).toContain(`<label for="password">${m.password}</label>`);
      expect(html).toContain(`<button type="submit" class="primary">${m.signIn}</button>`);
      // The way on first, then the way back: in the markup, so in the tab order and on the line.
      expect(html).toContain(
        `<div class="actions">\n<button type="submit" class="primary">${m.signIn}</button>\n<a href="/oidc/interaction/u/abort" class="secondary">${m.cancel}</a>\n</div>`,
      );
      expect(html).toContain(`<h2>${m.demoHeading}</h2>`);
      expect(html).toContain(m.demoHint('<code>ada</code>, <code>grace</code>, <code>linus</code>', '<code>circle</code>'));
      // The app's logo above the heading, as decoration: the heading names the app.
      expect(html).toContain(`<main>\n${LOGO}\n<h1>`);
      // No alert before an attempt: the heading is followed by the form.
      expect(html).toContain(`${m.signInHeading('Circle')}</h1>\n\n<form method="post"`);
      expect(html).not.toContain('role="alert"');
      // The empty name field has the focus.
      expect(html).toMatch(/id="username"[^>]*value="" autofocus>/);
      expect(html).toMatch(/id="password"[^>]*maxlength="128">/);
    }
  });

  it('after a failed attempt: the alert, both fields marked, the focus on the password', async () => {
    const { PAGE_MESSAGES, signInPage } = await load();
    const html = signInPage({ language: 'es', action: '/a', cancel: '/c', username: 'ada', failed: true, clientName: 'Circle' });
    expect(html).toContain(`<p id="problem" class="alert" role="alert">${PAGE_MESSAGES.es.failed}</p>`);
    expect(html).toMatch(/id="username"[^>]*value="ada" aria-invalid="true" aria-describedby="problem">/);
    expect(html).toMatch(/id="password"[^>]*maxlength="128" autofocus aria-invalid="true" aria-describedby="problem">/);
  });

  it('what a member typed and the addresses are escaped, never markup', async () => {
    const { PAGE_MESSAGES, signInPage } = await load();
    const html = signInPage({
      language: 'en',
      action: '/login?a=1&b="2"',
      cancel: "/abort?x='y'",
      username: `<img src=x onerror="alert('&')">`,
      failed: true,
      clientName: 'A & <B>',
    });
    expect(html).toContain('value="&lt;img src=x onerror=&quot;alert(&#39;&amp;&#39;)&quot;&gt;"');
    expect(html).toContain('action="/login?a=1&amp;b=&quot;2&quot;"');
    expect(html).toContain('<a href="/abort?x=&#39;y&#39;" class="secondary">');
    expect(html).toContain(`<h1>${PAGE_MESSAGES.en.signInHeading('A &amp; &lt;B&gt;')}</h1>`);
    expect(html).not.toContain('<img');
  });
});

describe('the sign-out pages', () => {
  it('the confirmation: the note, the provider’s form, and the two buttons that submit it', async () => {
    const { PAGE_MESSAGES, signOutPage } = await load();
    const form = '<form id="op.logoutForm" method="post" action="/oidc/session/end/confirm"></form>';
    for (const language of LANGUAGES) {
      const m = PAGE_MESSAGES[language];
      const html = signOutPage(language, form, 'Circle');
      expectDocument(html, language, m.signOutTitle);
      expect(html).toContain(`<h1>${m.signOutHeading('Circle')}</h1>\n<p>${m.signOutNote}</p>\n${form}\n`);
      expect(html).toContain(
        `<button type="submit" form="op.logoutForm" name="logout" value="yes" class="primary" autofocus>${m.signOut}</button>`,
      );
      expect(html).toContain(`<button type="submit" form="op.logoutForm" class="secondary">${m.staySignedIn}</button>`);
    }
  });

  it('signing out (asked by the app): the heading, the form sent with logout=yes by its script, a button without scripts', async () => {
    const { PAGE_MESSAGES, SIGN_OUT_SCRIPT, signingOutPage } = await load();
    const form = '<form id="op.logoutForm" method="post" action="/oidc/session/end/confirm"></form>';
    for (const language of LANGUAGES) {
      const m = PAGE_MESSAGES[language];
      const html = signingOutPage(language, form);
      expectDocument(html, language, m.signOutTitle, SIGN_OUT_SCRIPT);
      expect(html).toContain(`<h1>${m.signingOut}</h1>\n${form}\n<input type="hidden" form="op.logoutForm" name="logout" value="yes">`);
      expect(html).toContain(
        `<noscript><div class="actions"><button type="submit" form="op.logoutForm" class="primary" autofocus>${m.continue}</button></div></noscript>`,
      );
      expect(html).toContain(`<script>${SIGN_OUT_SCRIPT}</script>`);
    }
  });

  it('signed out: the heading and a link home', async () => {
    const { PAGE_MESSAGES, signedOutPage } = await load();
    for (const language of LANGUAGES) {
      const m = PAGE_MESSAGES[language];
      const html = signedOutPage(language, '/?from="provider"');
      expectDocument(html, language, m.signedOutTitle);
      expect(html).toContain(`<h1>${m.signedOutHeading}</h1><p><a href="/?from=&quot;provider&quot;">${m.back}</a></p>`);
    }
  });
});

describe('the error page', () => {
  it('says what went wrong as an alert, and the protocol’s reason under technical details', async () => {
    const { PAGE_MESSAGES, errorPage } = await load();
    for (const language of LANGUAGES) {
      const m = PAGE_MESSAGES[language];
      const html = errorPage(language, m.failedTitle, m.failedDetail, '/', 'invalid_request: <bad> & "worse"');
      expectDocument(html, language, m.failedTitle);
      expect(html).toContain(
        `<h1>${m.failedTitle}</h1><p role="alert">${m.failedDetail}</p><details><summary>${m.technical}</summary><p><code>invalid_request: &lt;bad&gt; &amp; &quot;worse&quot;</code></p></details><p><a href="/">${m.back}</a></p>`,
      );
    }
  });

  it('without technical details, none are offered', async () => {
    const { errorPage } = await load();
    const html = errorPage('de', 'Titel', 'Erklärung', '/home');
    expect(html).toContain('<h1>Titel</h1><p role="alert">Erklärung</p><p><a href="/home">');
    expect(html).not.toContain('<details>');
    expect(errorPage('de', 'Titel', 'Erklärung', '/home', '')).not.toContain('<details>');
  });
});

describe('the pages’ stylesheet', () => {
  it('is served from the provider’s assets and styles what the pages use, in light and dark', async () => {
    const { STYLESHEET, STYLESHEET_PATH, signInPage, signOutPage, errorPage } = await load();
    expect(STYLESHEET_PATH).toBe('/oidc/assets/pages.css');
    expect(STYLESHEET).toContain('color-scheme: light dark;');
    expect(STYLESHEET).toMatch(/@media \(prefers-color-scheme: dark\) \{\s*:root \{ --ink: /);
    expect(STYLESHEET).toMatch(/:focus-visible \{ outline: /);
    const pages = [
      signInPage({ language: 'en', action: '/a', cancel: '/c', failed: true, clientName: 'Circle' }),
      signOutPage('en', '<form id="op.logoutForm"></form>', 'Circle'),
      errorPage('en', 'Title', 'Detail', '/', 'reason'),
    ].join('\n');
    const classes = new Set([...pages.matchAll(/class="([^"]+)"/g)].flatMap(([, names = '']) => names.split(' ')));
    expect([...classes].sort()).toEqual(['actions', 'alert', 'hint', 'logo', 'primary', 'secondary']);
    for (const name of classes) expect(STYLESHEET, name).toContain(`.${name} {`);
    for (const element of ['body', 'main', 'h1', 'h2', 'label', 'input', 'button', 'details']) {
      expect(STYLESHEET, element).toMatch(new RegExp(`^${element} \\{`, 'm'));
    }
  });
});

describe('the logo', () => {
  it("draws the app's icon, public/logo.svg, shape for shape, hidden from assistive technology", async () => {
    const { LOGO } = await load();
    const { readFileSync } = await import('node:fs');
    const icon = readFileSync(new URL('../public/logo.svg', import.meta.url), 'utf8');
    const shapes = (svg: string) => svg.match(/<(rect|circle)\b[^>]*\/>/g);
    expect(shapes(LOGO)).toEqual(shapes(icon));
    expect(LOGO).toMatch(/^<svg class="logo" [^>]*aria-hidden="true" focusable="false">/);
  });
});
