import { lazy, Suspense, useEffect } from 'react';
import { Link } from 'wouter';
import { t } from '../../i18n';
import { fetchProfile, profile, profileLoading } from '../../profile';
import { installOffered, isInstalled, isOnline } from '../../state/app';
import { isLoggedIn } from '../../state/auth';
import { renderMode } from '../../state/render-mode';
import { LoadingState } from '../../ui/widgets/states';
import { InstallButton } from '../../pwa/InstallButton';

// The latest notifications come with the inbox's model and the API client, after the screen has
// painted: their code is not the first screen's.
const LatestNotifications = lazy(() => import('./LatestNotifications'));
const ProfileCard = lazy(() => import('../../ui/widgets/ProfileCard').then((m) => ({ default: m.ProfileCard })));

export default function HomeScreen() {
  const signedIn = isLoggedIn.value;
  // A profile left in memory by another session is never shown to a visitor who is signed out.
  const member = signedIn ? profile.value : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: signedIn is a signal read in render; the profile is fetched again when a session starts.
  useEffect(() => {
    if (signedIn) fetchProfile().catch(() => undefined);
  }, [signedIn]);

  return (
    <div className="screen home">
      <section className="hero" aria-labelledby="home-title">
        {/* Decoration drawn by the stylesheet, not an image: it needs no request, paints with the
            HTML's first frame in the theme's colours, and is never the screen's largest paint (the
            heading and intro, in the HTML, are). */}
        <div className="hero__art" aria-hidden="true" />
        <h1 id="home-title" tabIndex={-1}>
          {member ? t('home.welcomeBack', { name: member.displayName }) : t('home.title')}
        </h1>
        <p className="hero__intro">{t('home.intro')}</p>
        {/* Online is the top bar's to say; offline, what that means here is said here. */}
        {!isOnline.value && (
          <p className="hero__status" data-testid="home-online">
            {t('status.offlineHint')}
          </p>
        )}
        {installOffered.value && (
          <div className="hero__install">
            <p>{t('install.hint')}</p>
            <InstallButton />
          </div>
        )}
        {isInstalled.value && <p className="muted">{t('install.installed')}</p>}
      </section>

      <section className={`home__profile${signedIn ? '' : ' home__profile--signed-out'}`} aria-label={t('nav.profile')}>
        {member ? (
          <>
            <Suspense fallback={<LoadingState shape="card" />}>
              <ProfileCard profile={member} compact />
            </Suspense>
            <Link href="/profile" className="button button--outlined">
              {t('home.viewProfile')}
            </Link>
          </>
        ) : !signedIn ? (
          <div className="card cta">
            <h2>{t('home.signedOutProfile')}</h2>
            <p>{t('signIn.profileNeeded')}</p>
            <Link href="/sign-in?next=%2Fprofile" className="button button--filled">
              {t('nav.signIn')}
            </Link>
          </div>
        ) : profileLoading.value ? (
          <LoadingState shape="card" />
        ) : (
          <div className="card cta">
            <h2>{t('home.createProfileCta')}</h2>
            <p>{t('home.createProfileText')}</p>
            <Link href="/profile" className="button button--filled">
              {t('home.createProfileCta')}
            </Link>
          </div>
        )}
      </section>

      <section className="home__notifications" aria-labelledby="home-notifications">
        <div className="section-head">
          <h2 id="home-notifications">{t('home.latestNotifications')}</h2>
          {/* A member's inbox, where they mark them; everyone's on the dashboard. */}
          <Link href={signedIn ? '/notifications' : '/dashboard'} className="text-link">
            {t(signedIn ? 'home.inbox' : 'home.allNotifications')}
          </Link>
        </div>
        {/* What the build prerenders, and the hydration's first render, wait for the list. */}
        {renderMode.value === 'static' ? (
          <LoadingState shape="notifications" />
        ) : (
          <Suspense fallback={<LoadingState shape="notifications" />}>
            <LatestNotifications canMark={signedIn} />
          </Suspense>
        )}
      </section>
    </div>
  );
}
