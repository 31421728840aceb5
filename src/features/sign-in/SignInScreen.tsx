import { useLocation, useSearch } from 'wouter';
import { t } from '../../i18n';
import { isLoggedIn, signIn, signOut } from '../../state/auth';
import { config } from '../../config/load';

/** Only same-app paths are followed after sign-in, never another site. */
function safeNext(search: string): string {
  const next = new URLSearchParams(search).get('next') ?? '/home';
  return next.startsWith('/') && !next.startsWith('//') ? next : '/home';
}

export default function SignInScreen() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const signedIn = isLoggedIn.value;
  const next = safeNext(search);
  return (
    <div className="screen sign-in">
      <h1 tabIndex={-1}>{signedIn ? t('nav.signOut') : t('signIn.title')}</h1>
      {signedIn ? (
        <div className="card">
          <p>{t('signIn.signedIn')}</p>
          <button type="button" className="button button--outlined" onClick={() => signOut()}>
            {t('signIn.signOut')}
          </button>
        </div>
      ) : (
        <div className="card">
          {next.startsWith('/admin') && <p role="status">{t('signIn.needed')}</p>}
          <p>{t('signIn.intro', { issuer: config().identityProvider.issuer })}</p>
          <button
            type="button"
            className="button button--filled"
            onClick={() => {
              signIn();
              navigate(next, { replace: true });
            }}
          >
            {t('signIn.button')}
          </button>
        </div>
      )}
    </div>
  );
}
