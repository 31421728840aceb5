import { useState } from 'react';
import { Link, Redirect, useParams } from 'wouter';
import { withWords } from '../../i18n';
import { enAdmin } from '../../i18n/en-admin';
import './admin.css';
import '../../ui/table.css';
import { api } from '../../api/instance';
import { COLLECTION_NAMES, type CollectionName } from '../../api/collections';
import { useAsync } from '../../ui/widgets/useAsync';
import { EmptyState, ErrorState, LoadingState } from '../../ui/widgets/states';
import { backendMessage } from './backend-message';
import { ConfirmDialog } from '../../ui/widgets/ConfirmDialog';
import { showSnackbar } from '../../ui/snackbar/store';
import { RecordEditor, type EditTarget } from './RecordEditor';
import { columnLabel } from './record-form';
import { COLLECTION_SCHEMAS } from '../../api/collection-fields';
import { isAdmin, member } from '../../state/auth';
import { memberName } from '../../profile';
import { MAX_RECORDS } from '../../api/collection-names';
import { enMember } from '../../i18n/en-member';

const t = withWords(enAdmin, enMember);

type Row = { id: string } & Record<string, unknown>;

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function isCollection(name: string | undefined): name is CollectionName {
  // Stryker disable next-line StringLiteral: the only caller passes a defined name, so the fallback is never read
  return (COLLECTION_NAMES as readonly string[]).includes(name ?? '');
}

function CollectionTable({ name }: { name: CollectionName }) {
  // Stryker disable next-line ArrayDeclaration: the table is keyed by its collection's name, so another name is a new table that loads anew
  // What the last visit listed shows at once, while it is read again.
  // Push subscriptions are not kept: they are the devices' endpoints and keys, an admin's to read
  // (openapi.yaml), and a kept list would outlive the admin's sign-out on this device.
  const keep = name === 'subscription' ? undefined : { key: name, atOnce: true };
  const rows = useAsync((signal) => api.collections().list(name, undefined, signal) as Promise<Row[]>, [name], keep);
  const [editing, setEditing] = useState<EditTarget | null>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);
  // Stryker disable next-line ArrayDeclaration: without rows no table is drawn, so the columns of the fallback are never shown
  const columns = [...new Set((rows.data ?? []).flatMap((r) => Object.keys(r)))];
  // A full collection refuses a new record (422): the button says so before it is pressed.
  const max = MAX_RECORDS[name];
  const full = max !== undefined && rows.data !== undefined && rows.data.length >= max;

  async function remove(row: Row) {
    setDeleting(null);
    try {
      await api.collections().remove(name, row.id);
      showSnackbar({ message: t('admin.deletedRecord', { id: row.id }), duration: 4000 });
      rows.reload();
    } catch (error) {
      showSnackbar({ message: backendMessage(error), politeness: 'assertive', duration: 8000 });
    }
  }

  return (
    // Not a named region itself: the table's scroll container below is the region of this name.
    <section className="admin-table">
      <div className="admin-table__head">
        <h2 id="admin-collection-title">{t('admin.collection', { name })}</h2>
        {/* Not disabled outright: a disabled button takes no focus, and its reason would go unheard. */}
        <button
          type="button"
          className="button button--filled"
          aria-disabled={full || undefined}
          aria-describedby={full ? 'admin-full' : undefined}
          onClick={() => !full && setEditing({ collection: name, record: null })}
        >
          {t('admin.new')}
        </button>
      </div>
      {full && (
        <p className="field__hint admin-table__full" id="admin-full">
          {t('admin.full', { max })}
        </p>
      )}
      {rows.status === 'loading' && !rows.data && <LoadingState shape="rows" />}
      {rows.status === 'error' && <ErrorState error={rows.error} onRetry={rows.reload} />}
      {rows.data && rows.data.length === 0 && <EmptyState>{t('admin.empty')}</EmptyState>}
      {rows.data && rows.data.length > 0 && (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must take keyboard focus, or its hidden columns cannot be reached (WCAG 2.1.1).
        <section className="table-scroll" tabIndex={0} aria-labelledby="admin-collection-title">
          <table className="table">
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c} scope="col">
                    {columnLabel(COLLECTION_SCHEMAS[name], c)}
                  </th>
                ))}
                <th scope="col">{t('admin.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.data.map((row) => (
                <tr key={row.id}>
                  {columns.map((c) => (
                    <td key={c}>{cell(row[c])}</td>
                  ))}
                  <td className="table__actions">
                    <button
                      type="button"
                      className="button button--text button--small"
                      onClick={() => setEditing({ collection: name, record: row })}
                      aria-label={`${t('common.edit')} ${row.id}`}
                    >
                      {t('common.edit')}
                    </button>
                    <button
                      type="button"
                      className="button button--text button--small button--danger-text"
                      onClick={() => setDeleting(row)}
                      aria-label={`${t('common.delete')} ${row.id}`}
                    >
                      {t('common.delete')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {editing && (
        <RecordEditor
          target={editing}
          onClose={() => setEditing(null)}
          onSaved={(id) => {
            setEditing(null);
            showSnackbar({ message: t('admin.saved', { id }), duration: 4000 });
            rows.reload();
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        // Stryker disable next-line StringLiteral: with nothing to delete the dialog is closed, and its title is not shown
        title={t('admin.deleteConfirm', { id: deleting?.id ?? '' })}
        body={cell(deleting)}
        confirmLabel={t('common.delete')}
        // Stryker disable next-line ConditionalExpression: with nothing to delete the dialog is closed, so its confirm cannot be pressed
        onConfirm={() => deleting && void remove(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </section>
  );
}

/** What a signed-in member who is no admin sees here: why, and the way back. */
function NeedsAdmin({ name }: { name: string }) {
  return (
    <div className="screen admin">
      <h1 tabIndex={-1}>{t('admin.needsAdmin.title')}</h1>
      <p>{t('admin.needsAdmin.body', { name })}</p>
      <p>
        <Link href="/home" className="button button--tonal">
          {t('admin.needsAdmin.home')}
        </Link>
      </p>
    </div>
  );
}

export default function AdminScreen() {
  // The route asks for a signed-in member; the session is read back after the first render, and
  // nothing of the collections is shown (or requested) until it says whether they are an admin.
  if (!member.value) return <LoadingState />;
  if (!isAdmin.value) return <NeedsAdmin name={memberName.value || member.value.subject} />;
  return <CollectionsAdmin />;
}

function CollectionsAdmin() {
  const params = useParams<{ collection?: string }>();
  const [resetting, setResetting] = useState(false);
  const [generation, setGeneration] = useState(0);
  if (params.collection !== undefined && !isCollection(params.collection)) return <Redirect to="/404" replace />;
  const name = params.collection;

  async function reset() {
    setResetting(true);
    try {
      await api.reset();
      showSnackbar({ message: t('admin.resetDone'), duration: 4000 });
      // Stryker disable next-line ArithmeticOperator: any new generation remounts the table, counting down as well as up
      setGeneration((g) => g + 1);
    } catch (error) {
      showSnackbar({ message: backendMessage(error), politeness: 'assertive', duration: 8000 });
    } finally {
      setResetting(false);
    }
  }

  return (
    <div className="screen admin">
      <h1 tabIndex={-1}>{t('admin.title')}</h1>
      <p>{t('admin.intro')}</p>
      {name ? (
        <CollectionTable key={`${name}:${generation}`} name={name} />
      ) : (
        <ul className="link-grid">
          {COLLECTION_NAMES.map((c) => (
            <li key={c}>
              <Link className="card link-card" href={`/admin/${c}`}>
                {c}
              </Link>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="button button--outlined" onClick={() => void reset()} disabled={resetting}>
        {t('admin.reset')}
      </button>
    </div>
  );
}
