import type { CSSProperties } from 'react';
import { withWords } from '../../i18n/index';
import { enMember } from '../../i18n/en-member';
import { useAvatarSrc } from './useAvatarSrc';

const t = withWords(enMember);

/** Initials shown when there is no avatar: the first character of the first two words. */
export function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => [...w][0]!.toUpperCase())
    .join('');
}

/**
 * A member's avatar: their image, or their initials when they have none and while the image is on
 * its way (never an empty disc: an image once fetched is kept for the page, so the initials show
 * before it only the first time). Beside the name it stands for (`decorative`), it says nothing to
 * assistive technology.
 */
export function Avatar({
  name,
  url,
  size = 96,
  decorative = false,
}: {
  name: string;
  url: string | null | undefined;
  size?: number;
  decorative?: boolean;
}) {
  const src = useAvatarSrc(url);
  const style = { '--avatar-size': `${size}px` } as CSSProperties;
  if (src)
    return (
      <img className="avatar" src={src} alt={decorative ? '' : t('profile.avatarAlt', { name })} width={size} height={size} style={style} />
    );
  const named = decorative
    ? { 'aria-hidden': true }
    : { role: 'img', 'aria-label': src === null ? t('profile.noAvatar') : t('profile.avatarAlt', { name }) };
  return (
    <span className="avatar avatar--initials" {...named} data-size={size} style={style}>
      {initials(name)}
    </span>
  );
}
