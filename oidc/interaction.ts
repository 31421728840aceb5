/**
 * The sign-in page of an authorization (oidc-provider's interaction): the form, the member's name
 * and password checked, failed attempts slowed and then refused (./throttle.ts), the way to cancel,
 * and the authorization finished once the member is known.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { checkCredentials } from './accounts.ts';
import { CLIENT_NAME } from './configuration.ts';
import { PAGE_MESSAGES, pageLanguage } from './messages.ts';
import { sendHtml } from './page-headers.ts';
import { errorPage, signInPage } from './pages.ts';
import { OIDC_PREFIX } from './paths.ts';
import { readForm } from './request-body.ts';
import { attemptKeys, type Throttle } from './throttle.ts';

const pause = (ms: number) => new Promise((resume) => setTimeout(resume, ms));

/** A step of the sign-in page `uid`: the page (`''`), its form sent (`login`), or cancelled (`abort`). */
export async function signInInteraction(
  provider: Provider,
  throttle: Throttle,
  req: IncomingMessage,
  res: ServerResponse,
  uid: string,
  step: string,
) {
  const action = `${OIDC_PREFIX}/interaction/${uid}/login`;
  const cancel = `${OIDC_PREFIX}/interaction/${uid}/abort`;
  const details = await provider.interactionDetails(req, res);
  // Stryker disable next-line StringLiteral: the error only leads to the 'sign-in expired' page; its message is never shown
  if (details.uid !== uid) throw new Error('The sign-in page does not match its session');
  const language = pageLanguage(details.params.ui_locales, req.headers['accept-language']);
  if (step === 'abort') {
    await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The sign-in was cancelled' });
    return;
  }
  if (step === 'login' && req.method === 'POST') {
    const form = await readForm(req);
    const username = form.get('username') ?? '';
    const keys = attemptKeys(username, req.socket.remoteAddress);
    const wait = throttle.retryAfter(keys);
    if (wait > 0) {
      // Refused without looking at the password: the right one must not get through a guessing run either.
      const seconds = Math.ceil(wait / 1000);
      const page = signInPage({ language, action, cancel, username, throttledMinutes: Math.ceil(seconds / 60), clientName: CLIENT_NAME });
      sendHtml(res, 429, page, { 'retry-after': String(seconds) });
      return;
    }
    // Stryker disable next-line StringLiteral: a missing password is refused whatever it defaults to
    const account = checkCredentials(username, form.get('password') ?? '');
    if (!account) {
      // The same answer for a name no member has: only the time it takes grows, alike for both.
      const delay = throttle.failed(keys);
      if (delay > 0) await pause(delay);
      sendHtml(res, 200, signInPage({ language, action, cancel, username, failed: true, clientName: CLIENT_NAME }));
      return;
    }
    throttle.succeeded(keys[0]!);
    // Stryker disable next-line BooleanLiteral: an authorization has this one interaction (the grant needs no consent), so there is never an earlier submission to merge
    await provider.interactionFinished(req, res, { login: { accountId: account.id } }, { mergeWithLastSubmission: false });
    return;
  }
  if (step === '' && req.method === 'GET') {
    sendHtml(res, 200, signInPage({ language, action, cancel, clientName: CLIENT_NAME }));
    return;
  }
  const m = PAGE_MESSAGES[language];
  sendHtml(res, 405, errorPage(language, m.notAllowedTitle, m.notAllowedDetail, '/'));
}
