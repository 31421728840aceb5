import { type ReactNode, useEffect } from 'react';
import { formatMoney, withWords } from '../../i18n';
import { enDashboard } from '../../i18n/en-dashboard';
import { api } from '../../api/instance';
import { useAsync, type AsyncState } from '../../ui/widgets/useAsync';
import { renderMode } from '../../state/render-mode';
import { EmptyState, ErrorState, LoadingState } from '../../ui/widgets/states';
import { NotificationList } from '../../ui/widgets/NotificationList';
import { inboxError, inboxItems, listLanguage, loadInbox, showInbox } from '../../state/inbox';

const t = withWords(enDashboard);

function Panel<T extends unknown[]>({
  id,
  title,
  kind,
  state,
  render,
}: {
  id: string;
  title: string;
  /** What the panel lists: its skeleton is a few of them, as tall, so nothing moves when they come. */
  kind: 'rows' | 'notifications';
  state: AsyncState<T> & { reload: () => void };
  render: (data: T) => ReactNode;
}) {
  return (
    <section className="card panel" aria-labelledby={id} aria-busy={state.status === 'loading' || undefined}>
      <h2 id={id}>{title}</h2>
      {state.status === 'loading' && !state.data && <LoadingState shape={kind} />}
      {/* Why it failed is said once, for the whole screen (below the title). */}
      {state.status === 'error' && !state.data && <p className="muted">{t('dashboard.unavailable')}</p>}
      {state.data && (state.data.length ? render(state.data) : <EmptyState>{t('dashboard.empty')}</EmptyState>)}
    </section>
  );
}

/** The inbox's list as a panel's state; prerendered (and while hydrating) it is still loading, as the HTML is. */
function inboxState(): AsyncState<NonNullable<typeof inboxItems.value>> & { reload: () => void } {
  const reload = () => void loadInbox();
  const items = renderMode.value === 'static' ? null : inboxItems.value;
  if (items) return { status: 'success', data: items, reload };
  const error = inboxError.value;
  return error ? { status: 'error', error, reload } : { status: 'loading', reload };
}

export default function DashboardScreen() {
  const collections = api.collections();
  // What the last visit showed shows at once (after hydrating, on the prerendered page) while it is read again.
  const atOnce = renderMode.peek() === 'live';
  // Stryker disable ArrayDeclaration: any constant list loads once, as the empty one does
  const accounts = useAsync((signal) => collections.list('accounts', undefined, signal), [], { key: 'accounts', atOnce });
  const symbols = useAsync((signal) => collections.list('symbols', undefined, signal), [], { key: 'symbols', atOnce });
  // Stryker restore ArrayDeclaration
  // The notifications as the member sees them (their marks, the language on screen): the inbox's.
  // Stryker disable next-line ArrayDeclaration: any constant list shows the inbox once per mount alike
  useEffect(() => showInbox(), []);
  const notifications = inboxState();
  // One reason for the panels that have nothing to show (offline, each would say the same), and one Retry for them all.
  const failed = [accounts, symbols, notifications].filter((state) => state.status === 'error' && !state.data);
  return (
    <div className="screen dashboard">
      <h1 tabIndex={-1}>{t('dashboard.title')}</h1>
      <p className="screen__intro">{t('dashboard.intro')}</p>
      {failed[0]?.status === 'error' && (
        <ErrorState
          error={failed[0].error}
          onRetry={() => {
            for (const state of failed) state.reload();
          }}
        />
      )}
      <div className="card-grid">
        <Panel
          id="dash-accounts"
          title={t('dashboard.accounts')}
          kind="rows"
          state={accounts}
          render={(items) => (
            <ul className="data-list">
              {items.map((a) => (
                <li key={a.id}>
                  <span>{a.name}</span>
                  <span className="data-list__value">{formatMoney(a.balance, a.currency)}</span>
                </li>
              ))}
            </ul>
          )}
        />
        <Panel
          id="dash-symbols"
          title={t('dashboard.symbols')}
          kind="rows"
          state={symbols}
          render={(items) => (
            <ul className="data-list">
              {items.map((s) => (
                <li key={s.id}>
                  <span className="symbol-code">{s.code}</span>
                  <span className="data-list__value">{s.entity}</span>
                </li>
              ))}
            </ul>
          )}
        />
        <Panel
          id="dash-notifications"
          title={t('dashboard.notifications')}
          kind="notifications"
          state={notifications}
          render={(items) => <NotificationList items={items} lang={listLanguage.value} />}
        />
      </div>
    </div>
  );
}
