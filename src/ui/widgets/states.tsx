import type { ReactNode } from 'react';
import { t } from '../../i18n';
import { isOnline } from '../../lib/connectivity';
import { ApiError } from '../../api/errors';

/** What is coming: `lines` of text, `rows` of a list, `notifications`, a profile `card`. */
export type LoadingShape = 'lines' | 'rows' | 'notifications' | 'card';

/**
 * A skeleton of what is loading, as tall as it will be (nothing moves when it comes): its shape is
 * the stylesheet's (.skeleton--…), drawn without an element per line; its words are for assistive
 * technology.
 */
export function LoadingState({ label, shape = 'lines' }: { label?: string; shape?: LoadingShape }) {
  return (
    <div className={`state state--loading skeleton skeleton--${shape}`} role="status">
      <span className="visually-hidden">{label ?? t('common.loading')}</span>
    </div>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="state state--empty">{children}</p>;
}

/** What went wrong in the user's words; offline gets its own message instead of a raw network error. */
export function errorText(error: unknown): string {
  if (!isOnline.value && !(error instanceof ApiError)) return t('status.needsNetwork');
  return error instanceof Error ? error.message : String(error);
}

export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  return (
    <div className="state state--error" role="alert">
      <p>{t('common.loadFailed', { message: errorText(error) })}</p>
      {onRetry && (
        <button type="button" className="button button--outlined" onClick={onRetry}>
          {t('common.retry')}
        </button>
      )}
    </div>
  );
}
