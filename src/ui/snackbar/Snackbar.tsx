import { dismissSnackbar, runSnackbarAction, snackbar } from './store';
import { t } from '../../i18n';

/**
 * The live region is always in the page so screen readers announce each new message; the
 * visible bar appears inside it.
 */
export function Snackbar() {
  const active = snackbar.value;
  const politeness = active?.politeness ?? 'polite';
  return (
    <div className="snackbar-region" role="status" aria-live={politeness} aria-atomic="true">
      {active && (
        <div className="snackbar" key={active.id} data-testid="snackbar">
          <p className="snackbar__message">{active.message}</p>
          {active.action && (
            <button type="button" className="button button--text snackbar__action" onClick={runSnackbarAction}>
              {active.action}
            </button>
          )}
          <button
            type="button"
            className="icon-button snackbar__close"
            aria-label={t('common.dismiss')}
            onClick={() => dismissSnackbar(active.id)}
          >
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </div>
      )}
    </div>
  );
}
