/**
 * The provider's own pages: sign-in, sign-out confirmation, and errors. Plain HTML forms that work
 * without JavaScript, one stylesheet from the same origin (their Content-Security-Policy allows no
 * inline style or script), labels on every field and an alert for a failed attempt.
 */
import { ACCOUNTS, DEMO_PASSWORD } from './accounts.ts';
import { PAGE_MESSAGES, type PageLanguage } from './messages.ts';

export const STYLESHEET_PATH = '/oidc/assets/pages.css';

export const STYLESHEET = `
:root { color-scheme: light dark; --ink: #1b1b1f; --paper: #fdfbff; --card: #ffffff; --line: #75757f; --accent: #3949ab; --on-accent: #ffffff; --danger: #b3261e; }
@media (prefers-color-scheme: dark) {
  :root { --ink: #e4e1e6; --paper: #121316; --card: #1e1f23; --line: #9a99a3; --accent: #bac3ff; --on-accent: #0f1a63; --danger: #ffb4ab; }
}
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: var(--paper); color: var(--ink); font: 1rem/1.5 system-ui, sans-serif; }
main { width: min(26rem, 100% - 2rem); margin: 2rem auto; padding: 1.5rem; background: var(--card); border: 1px solid var(--line); border-radius: 12px; }
.logo { display: block; margin: 0 0 1rem; }
h1 { font-size: 1.5rem; margin: 0 0 1rem; }
h2 { font-size: 1rem; margin: 1.5rem 0 .25rem; }
label { display: block; font-weight: 600; margin-top: 1rem; }
input { display: block; width: 100%; margin-top: .25rem; padding: .625rem .75rem; font: inherit; color: inherit; background: transparent; border: 1px solid var(--line); border-radius: 8px; }
input[aria-invalid="true"] { border-color: var(--danger); }
button { min-height: 44px; padding: 0 1.25rem; font: inherit; font-weight: 600; border-radius: 22px; border: 1px solid var(--accent); cursor: pointer; }
.primary { background: var(--accent); color: var(--on-accent); }
.secondary { background: transparent; color: var(--accent); }
.actions { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; margin-top: 1.25rem; }
.actions a { display: inline-flex; align-items: center; min-height: 44px; padding: 0 1.25rem; font-weight: 600; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.alert { color: var(--danger); font-weight: 600; }
details { margin-top: 1rem; font-size: .875rem; }
.hint { font-size: .875rem; }
`;

const html = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The app's logo, as its icon draws it (public/logo.svg): the provider imports nothing of the app,
 * so it is repeated here. Decoration: the heading under it names the app.
 */
export const LOGO =
  '<svg class="logo" viewBox="0 0 512 512" width="48" height="48" aria-hidden="true" focusable="false">' +
  '<rect width="512" height="512" rx="96" fill="#3F51B5"/>' +
  '<circle cx="256" cy="256" r="150" fill="none" stroke="#fff" stroke-width="44"/>' +
  '<circle cx="256" cy="106" r="40" fill="#E91E63"/>' +
  '<circle cx="386" cy="331" r="40" fill="#fff"/>' +
  '<circle cx="126" cy="331" r="40" fill="#fff"/>' +
  '</svg>';

function page(language: PageLanguage, title: string, body: string): string {
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${html(title)} · Circle</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">
</head>
<body>
<main>
${LOGO}
${body}
</main>
</body>
</html>`;
}

export interface SignInPage {
  language: PageLanguage;
  /** Where the form posts. */
  action: string;
  /** Where "Cancel" goes: ends the sign-in and returns to the app with access_denied. */
  cancel: string;
  /** The name the member typed before, kept after a failed attempt. */
  username?: string;
  failed?: boolean;
  /** Too many failed attempts: sign-in is refused for about this many minutes. */
  throttledMinutes?: number;
  clientName: string;
}

export function signInPage({ language, action, cancel, username = '', failed = false, throttledMinutes, clientName }: SignInPage): string {
  const m = PAGE_MESSAGES[language];
  const invalid = failed ? ' aria-invalid="true" aria-describedby="problem"' : '';
  const problem = throttledMinutes !== undefined ? m.throttled(throttledMinutes) : failed ? m.failed : null;
  const demo = ACCOUNTS.map((a) => `<code>${html(a.id)}</code>`).join(', ');
  return page(
    language,
    m.signInTitle,
    `<h1>${html(m.signInHeading(clientName))}</h1>
${problem === null ? '' : `<p id="problem" class="alert" role="alert">${html(problem)}</p>`}
<form method="post" action="${html(action)}">
<label for="username">${html(m.username)}</label>
<input id="username" name="username" autocomplete="username" autocapitalize="none" spellcheck="false" required maxlength="64" value="${html(username)}"${failed ? '' : ' autofocus'}${invalid}>
<label for="password">${html(m.password)}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="128"${failed ? ' autofocus' : ''}${invalid}>
<div class="actions">
<button type="submit" class="primary">${html(m.signIn)}</button>
<a href="${html(cancel)}" class="secondary">${html(m.cancel)}</a>
</div>
</form>
<h2>${html(m.demoHeading)}</h2>
<p class="hint">${m.demoHint(demo, `<code>${html(DEMO_PASSWORD)}</code>`)}</p>`,
  );
}

/** oidc-provider gives the confirmation form (its action and hidden token) without buttons; they are added here. */
export function signOutPage(language: PageLanguage, form: string, clientName: string): string {
  const m = PAGE_MESSAGES[language];
  return page(
    language,
    m.signOutTitle,
    `<h1>${html(m.signOutHeading(clientName))}</h1>
<p>${html(m.signOutNote)}</p>
${form}
<div class="actions">
<button type="submit" form="op.logoutForm" name="logout" value="yes" class="primary" autofocus>${html(m.signOut)}</button>
<button type="submit" form="op.logoutForm" class="secondary">${html(m.staySignedIn)}</button>
</div>`,
  );
}

/** The one script of the provider's pages: it sends the sign-out the app already made (see signingOutPage). */
export const SIGN_OUT_SCRIPT = "document.getElementById('op.logoutForm').submit();";

/**
 * The sign-out the app asked for with the member's own ID token: the app has already signed out
 * (and cleared the member's data), so asking "Sign out?" again would only offer a "Stay signed in"
 * that keeps no one signed in. The form goes on by itself; without scripts, with one button.
 */
export function signingOutPage(language: PageLanguage, form: string): string {
  const m = PAGE_MESSAGES[language];
  return page(
    language,
    m.signOutTitle,
    `<h1>${html(m.signingOut)}</h1>
${form}
<input type="hidden" form="op.logoutForm" name="logout" value="yes">
<noscript><div class="actions"><button type="submit" form="op.logoutForm" class="primary" autofocus>${html(m.continue)}</button></div></noscript>
<script>${SIGN_OUT_SCRIPT}</script>`,
  );
}

export function signedOutPage(language: PageLanguage, home: string): string {
  const m = PAGE_MESSAGES[language];
  return page(language, m.signedOutTitle, `<h1>${html(m.signedOutHeading)}</h1><p><a href="${html(home)}">${html(m.back)}</a></p>`);
}

/** A page for what went wrong: the member's own words, and the protocol's (English) reason under "Technical details". */
export function errorPage(language: PageLanguage, title: string, detail: string, home: string, technical?: string): string {
  const m = PAGE_MESSAGES[language];
  const more = technical ? `<details><summary>${html(m.technical)}</summary><p><code>${html(technical)}</code></p></details>` : '';
  return page(
    language,
    title,
    `<h1>${html(title)}</h1><p role="alert">${html(detail)}</p>${more}<p><a href="${html(home)}">${html(m.back)}</a></p>`,
  );
}
