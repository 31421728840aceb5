import type { Profile } from '../../api/profile';
import { formatDate, t } from '../../i18n/index';
import { LANGUAGE_NAMES, isLanguage } from '../../config/languages';
import { useAvatarSrc } from './useAvatarSrc';

/** Initials shown when there is no avatar. */
function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => [...w][0]!.toUpperCase())
    .join('');
}

export function Avatar({ profile, size = 96 }: { profile: Profile; size?: number }) {
  const src = useAvatarSrc(profile.avatar);
  if (src) {
    return <img className="avatar" src={src} alt={t('profile.avatarAlt', { name: profile.displayName })} width={size} height={size} />;
  }
  return (
    <span className="avatar avatar--initials" role="img" aria-label={t('profile.noAvatar')} data-size={size}>
      {initials(profile.displayName)}
    </span>
  );
}

export function ProfileCard({ profile, compact = false }: { profile: Profile; compact?: boolean }) {
  return (
    <article className={`card profile-card${compact ? ' profile-card--compact' : ''}`} aria-labelledby="profile-card-name">
      <Avatar profile={profile} size={compact ? 64 : 96} />
      <div className="profile-card__body">
        <h2 id="profile-card-name" className="profile-card__name">
          {profile.displayName}
        </h2>
        <p className="profile-card__username">@{profile.username}</p>
        {!compact && (
          <>
            <p className="profile-card__email">{profile.email}</p>
            {profile.bio && <p className="profile-card__bio">{profile.bio}</p>}
            {profile.interests.length > 0 ? (
              <ul className="chips" aria-label={t('field.interests')}>
                {profile.interests.map((tag) => (
                  <li key={tag} className="chip">
                    {tag}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">{t('profile.interestsNone')}</p>
            )}
            {profile.language && isLanguage(profile.language) && (
              <p className="muted">{t('profile.preferredLanguage', { language: LANGUAGE_NAMES[profile.language] })}</p>
            )}
          </>
        )}
        <p className="muted">{t('profile.memberSince', { date: formatDate(profile.createdAt) })}</p>
      </div>
    </article>
  );
}
