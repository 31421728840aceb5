import type { CSSProperties } from 'react';
import { t } from '../../i18n/index';
import { useAvatarSrc } from './useAvatarSrc';

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
 * A member's avatar: their image, or their initials when they have none. While an image is on its
 * way its place stays empty: initials shown first would flash before it on every load. Beside the
 * name it stands for (`decorative`), it says nothing to assistive technology.
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
  if (src === undefined) return <span className="avatar" data-size={size} style={style} />;
  const named = decorative ? { 'aria-hidden': true } : { role: 'img', 'aria-label': t('profile.noAvatar') };
  return (
    <span className="avatar avatar--initials" {...named} data-size={size} style={style}>
      {initials(name)}
    </span>
  );
}
