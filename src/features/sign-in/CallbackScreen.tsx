import { useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { withWords } from '../../i18n';
import { enSignIn } from '../../i18n/en-sign-in';
import { safeNext } from './safe-next';
import { loadSession } from '../../session';

const t = withWords(enSignIn);
/** A word this screen says. */
type Word = Parameters<typeof t>[0];

/** One completion per callback URL: a code can be exchanged once, however often the effect runs. */
const completions = new Map<string, Promise<string>>();
function complete(href: string): Promise<string> {
  let done = completions.get(href);
  if (!done) {
    done = loadSession().then((session) => session.finishSignIn(new URL(href)));
    completions.set(href, done);
  }
  return done;
}

function problemOf(error: unknown): Word {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'access_denied') return 'signIn.cancelled';
  if (error instanceof TypeError) return 'signIn.unreachable';
  return 'signIn.failed';
}

/** Where the provider sends the member back: the code becomes a session, then the app goes on. */
export default function CallbackScreen() {
  const [, navigate] = useLocation();
  const [problem, setProblem] = useState<Word | null>(null);

  useEffect(() => {
    let live = true;
    complete(location.href).then(
      (next) => live && navigate(safeNext(next), { replace: true }),
      (error: unknown) => {
        console.warn('Sign-in failed', error);
        // Stryker disable next-line ConditionalExpression: a state set on an unmounted screen is dropped by React, unseen
        if (live) setProblem(problemOf(error));
      },
    );
    // Stryker disable ArrayDeclaration: the router's navigate is one function for the screen's life, so both lists run the effect once
    return () => {
      live = false;
    };
  }, [navigate]);

  // Stryker restore ArrayDeclaration
  const retry = () => {
    void loadSession().then((session) => session.beginSignIn('/home'));
  };

  return (
    <div className="screen sign-in">
      <h1 tabIndex={-1}>{t('nav.signIn')}</h1>
      <div className="card">
        {problem ? (
          <>
            <p role="alert">{t(problem)}</p>
            <div className="actions">
              <button type="button" className="button button--filled" onClick={retry}>
                {t('app.crashed.retry')}
              </button>
              <Link href="/home" className="button button--outlined">
                {t('nav.home')}
              </Link>
            </div>
          </>
        ) : (
          <p role="status" aria-live="polite">
            {t('signIn.completing')}
          </p>
        )}
      </div>
    </div>
  );
}
