import { lazy, Suspense, useEffect, useState } from 'react';
import {
  deleteProfile,
  dismissRefusedSave,
  fetchProfile,
  hasProfileDraft,
  loadPendingSave,
  pendingProfileSave,
  profile,
  profileConflict,
  profileError,
  profileLoading,
  refusedProfileSave,
  sendQueuedSave,
} from '../../state/profile';
import { t } from '../../i18n';
import '../../i18n/en-profile';
import { showSnackbar } from '../../ui/snackbar/store';
import { ConfirmDialog } from '../../ui/widgets/ConfirmDialog';
import { ErrorState, LoadingState } from '../../ui/widgets/states';
import { ProfileCard } from '../../ui/widgets/ProfileCard';
import { ProfileForm } from './ProfileForm';

// Only a save the profile changed under needs it: its own chunk, fetched then.
const ConflictResolver = lazy(() => import('./ConflictResolver'));

export default function ProfileScreen() {
  const member = profile.value;
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState<unknown>(null);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  // The delete was refused because the profile changed elsewhere: the current one is shown, and asked about again.
  const [staleDelete, setStaleDelete] = useState(false);
  const conflict = profileConflict.value;
  // A save kept as a conflict does not wait for the network: it waits for the member's choice.
  const pending = pendingProfileSave.value;
  const waiting = pending !== null && !(pending.kind === 'update' && pending.conflict);

  const refused = refusedProfileSave.value;
  const refusedMessage = refused ? t('profile.saveFailed', { message: refused.message }) : null;
  const refusedUpdate = refused?.save.kind === 'update';
  useEffect(() => {
    // A queued edit the server refused reopens the form, with the reason and what was typed.
    if (refusedUpdate) setEditing(true);
  }, [refusedUpdate]);

  const load = () => {
    setFailed(null);
    fetchProfile()
      .then((p) => {
        // An edit left unsaved (reload, crash, update) reopens the form with what was typed.
        if (p && hasProfileDraft(p.id)) setEditing(true);
        // A save kept as a conflict that could not be shown yet (at start, before the session was back).
        loadPendingSave()
          .then((kept) =>
            // Stryker disable next-line OptionalChaining: reading a missing save's kind throws into the catch below, which does nothing too
            kept?.kind === 'update' && kept.conflict && !profileConflict.peek() ? sendQueuedSave() : undefined,
          )
          .catch(() => undefined);
      })
      .catch((error: unknown) => setFailed(error))
      .finally(() => setLoaded(true));
  };
  // Stryker disable next-line ArrayDeclaration: any constant list runs the read once, as the empty one does
  useEffect(load, []);

  async function onDelete() {
    // The question closes even when the profile has gone meanwhile: there is then nothing to send.
    setConfirming(false);
    if (!member) return;
    try {
      if ((await deleteProfile(member.id)) === 'changed') {
        setStaleDelete(true);
        setConfirming(true);
        return;
      }
      setStaleDelete(false);
      showSnackbar({ message: t('profile.deleted'), duration: 4000 });
    } catch {
      showSnackbar({ message: profileError.value ?? t('app.crashed.body'), politeness: 'assertive' });
    }
  }

  return (
    <div className="screen profile">
      <h1 tabIndex={-1}>{t('profile.title')}</h1>
      {conflict && (
        <Suspense fallback={<LoadingState />}>
          <ConflictResolver key={conflict.etag} conflict={conflict} onResolved={() => setEditing(false)} />
        </Suspense>
      )}
      {waiting && !conflict && (
        <p className="notice" role="status" data-testid="pending-save">
          {t('profile.pendingSave')}
        </p>
      )}
      {!loaded && !member && profileLoading.value && <LoadingState />}
      {failed !== null && !member && <ErrorState error={failed} onRetry={load} />}
      {loaded && failed === null && !member && (
        <>
          <p>{t('profile.none')}</p>
          <ProfileForm
            profile={null}
            initialError={refusedMessage}
            onDone={() => {
              dismissRefusedSave();
              setEditing(false);
            }}
          />
        </>
      )}
      {member && !editing && !conflict && (
        <>
          <ProfileCard profile={member} />
          <div className="actions">
            <button type="button" className="button button--filled" onClick={() => setEditing(true)}>
              {t('common.edit')}
            </button>
            <button type="button" className="button button--danger-outlined" onClick={() => setConfirming(true)}>
              {t('profile.delete')}
            </button>
          </div>
        </>
      )}
      {member && editing && !conflict && (
        <ProfileForm
          profile={member}
          initialError={refusedMessage}
          onDone={() => {
            dismissRefusedSave();
            setEditing(false);
          }}
          onCancel={() => {
            dismissRefusedSave();
            setEditing(false);
          }}
        />
      )}
      <ConfirmDialog
        open={confirming}
        title={t('profile.deleteConfirmTitle')}
        body={t(staleDelete ? 'profile.deleteChanged' : 'profile.deleteConfirmBody')}
        confirmLabel={t('common.delete')}
        onConfirm={() => void onDelete()}
        onCancel={() => {
          setConfirming(false);
          setStaleDelete(false);
        }}
      />
    </div>
  );
}
