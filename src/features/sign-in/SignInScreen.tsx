import { useState } from 'react';
import { useSearch } from 'wouter';
import { config } from '../../config/load';
import { withWords } from '../../i18n';
import { enSignIn } from '../../i18n/en-sign-in';
import { isLoggedIn, sessionExpired } from '../../state/auth';
import { memberName } from '../../profile';
import { safeNext } from './safe-next';
import { loadSession } from '../../session';

const t = withWords(enSignIn);

type Step = { kind: 'idle' } | { kind: 'redirecting' } | { kind: 'unreachable' };

export default function SignInScreen() {
  const search = useSearch();
  // Stryker disable next-line ObjectLiteral,StringLiteral: only the 'redirecting' and 'unreachable' steps are ever asked for, so any other first step reads as idle
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const next = safeNext(new URLSearchParams(search).get('next'));
  const signedIn = isLoggedIn.value;
  const who = memberName.value;

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
          <p>{t('signIn.intro', { issuer: new URL(config().identityProvider.issuer, location.origin).host })}</p>
          <p role="status" aria-live="polite">
            {step.kind === 'redirecting' ? t('signIn.redirecting') : ''}
          </p>
          {step.kind === 'unreachable' && <p role="alert">{t('signIn.unreachable')}</p>}
          <button type="button" className="button button--filled" onClick={signIn} disabled={step.kind === 'redirecting'}>
            {step.kind === 'unreachable' ? t('app.crashed.retry') : t('nav.signIn')}
          </button>
        </div>
      )}
    </div>
  );
}
