import { useState, useSyncExternalStore } from 'react';
import { useSearch } from 'wouter';
import { config } from '../../config/load';
import { withWords } from '../../i18n';
import { enSignIn } from '../../i18n/en-sign-in';
import { isLoggedIn, sessionExpired } from '../../state/auth';
import { memberName } from '../../profile';
import { safeNext } from './safe-next';
import { renderMode } from '../../state/render-mode';
import { loadSession } from '../../session';

const t = withWords(enSignIn);

const noChange = () => () => undefined;
/** The provider's host, known only in the browser: none in the prerendered page and while it hydrates. */
function useIssuerHost(): string | null {
  return useSyncExternalStore(
    noChange,
    () => new URL(config().identityProvider.issuer, location.origin).host,
    () => null,
  );
}

type Step = { kind: 'idle' } | { kind: 'redirecting' } | { kind: 'unreachable' };

export default function SignInScreen() {
  const search = useSearch();
  // Stryker disable next-line ObjectLiteral,StringLiteral: only the 'redirecting' and 'unreachable' steps are ever asked for, so any other first step reads as idle
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const next = safeNext(new URLSearchParams(search).get('next'));
  const signedIn = isLoggedIn.value;
  const who = memberName.value;
  const issuer = useIssuerHost();

  const signIn = () => {
    setStep({ kind: 'redirecting' });
    loadSession()
      .then((session) => session.beginSignIn(next))
      .catch(() => setStep({ kind: 'unreachable' }));
  };
  const signOut = () => {
    void loadSession().then((session) => session.endSession());
  };

  return (
    <div className="screen sign-in">
      <h1 tabIndex={-1}>{signedIn ? t('nav.signOut') : t('nav.signIn')}</h1>
      {signedIn ? (
        <div className="card">
          {who && <p>{t('signIn.signedInAs', { name: who })}</p>}
          <button type="button" className="button button--outlined" onClick={signOut}>
            {t('nav.signOut')}
          </button>
        </div>
      ) : (
        <div className="card">
          {sessionExpired.value && <p role="alert">{t('signIn.expired')}</p>}
          {next.startsWith('/admin') && <p role="status">{t('signIn.needed')}</p>}
          {next.startsWith('/profile') && <p role="status">{t('signIn.profileNeeded')}</p>}
          <p>{t('signIn.intro')}</p>
          <p role="status" aria-live="polite">
            {step.kind === 'redirecting' ? t('signIn.redirecting') : ''}
          </p>
          {step.kind === 'unreachable' && <p role="alert">{t('signIn.unreachable')}</p>}
          {/* Painted from the HTML before the app runs: it starts the sign-in only once the app can. */}
          <button
            type="button"
            className="button button--filled"
            onClick={signIn}
            disabled={step.kind === 'redirecting' || renderMode.value === 'static'}
          >
            {step.kind === 'unreachable' ? t('app.crashed.retry') : t('nav.signIn')}
          </button>
          {/* Apart from the intro, which the page paints from its HTML: the line comes with the app. */}
          {issuer && <p className="sign-in__issuer">{t('signIn.issuer', { issuer })}</p>}
        </div>
      )}
    </div>
  );
}
