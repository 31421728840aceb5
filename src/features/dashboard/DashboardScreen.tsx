import type { ReactNode } from 'react';
import { formatMoney, t } from '../../i18n';
import { api } from '../../api/instance';
import { useAsync, type AsyncState } from '../../ui/widgets/useAsync';
import { EmptyState, ErrorState, LoadingState } from '../../ui/widgets/states';
import { NotificationList } from '../../ui/widgets/NotificationList';

function Panel<T extends unknown[]>({
  id,
  title,
  kind,
  state,
  render,
}: {
  id: string;
  title: string;
  /** What the panel lists: its loading state keeps room for a few rows of it, so nothing moves when they come. */
  kind: 'rows' | 'notifications';
  state: AsyncState<T> & { reload: () => void };
  render: (data: T) => ReactNode;
}) {
  return (
    <section className="card panel" aria-labelledby={id} aria-busy={state.status === 'loading' || undefined}>
      <h2 id={id}>{title}</h2>
      {state.status === 'loading' && !state.data && (
        <div className={`panel__placeholder panel__placeholder--${kind}`}>
          <LoadingState />
        </div>
      )}
      {state.status === 'error' && !state.data && <ErrorState error={state.error} onRetry={state.reload} />}
      {state.data && (state.data.length ? render(state.data) : <EmptyState>{t('dashboard.empty')}</EmptyState>)}
    </section>
  );
}

export default function DashboardScreen() {
  const collections = api.collections();
  // Stryker disable ArrayDeclaration: any constant list loads once, as the empty one does
  const accounts = useAsync((signal) => collections.list('accounts', undefined, signal), []);
  const symbols = useAsync((signal) => collections.list('symbols', undefined, signal), []);
  const notifications = useAsync((signal) => collections.list('notifications', undefined, signal), []);
  // Stryker restore ArrayDeclaration
  return (
    <div className="screen dashboard">
      <h1 tabIndex={-1}>{t('dashboard.title')}</h1>
      <p className="screen__intro">{t('dashboard.intro')}</p>
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
          render={(items) => <NotificationList items={items} />}
        />
      </div>
    </div>
  );
}
