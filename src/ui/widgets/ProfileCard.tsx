import type { components } from '../../api/schema';
import { formatDate, languageName, withWords } from '../../i18n/index';
import { enMember } from '../../i18n/en-member';
import { isLanguage } from '../../config/languages';
import { Avatar } from './Avatar';

const t = withWords(enMember);

type Profile = components['schemas']['Profile'];

export function ProfileCard({ profile, compact = false }: { profile: Profile; compact?: boolean }) {
  return (
    <article className={`card profile-card${compact ? ' profile-card--compact' : ''}`} aria-labelledby="profile-card-name">
      <Avatar name={profile.displayName} url={profile.avatar} size={compact ? 64 : 96} />
      <div className="profile-card__body">
        {/* Focused when the member's own save brings the card back (the profile screen). */}
        <h2 id="profile-card-name" className="profile-card__name" tabIndex={-1}>
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
              <p className="muted">{t('profile.preferredLanguage', { language: languageName(profile.language) })}</p>
            )}
          </>
        )}
        <p className="muted">{t('profile.memberSince', { date: formatDate(profile.createdAt) })}</p>
      </div>
    </article>
  );
}
