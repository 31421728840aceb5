import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { profileConflict } from './conflict-state';
import { hasProfileDraft } from './draft';
import { dismissRefusedSave, loadPendingSave, pendingProfileSave, refusedProfileSave, sendQueuedSave } from './outbox';
import { profileWithPending } from './pending-view';
import { readProfile } from './store';
import { deleteProfile } from './save';
import { profile, profileError, profileLoading } from './store';
import { withWords } from '../i18n';
import { enProfile } from '../i18n/en-profile';
import { showSnackbar } from '../ui/snackbar/store';
import { ConfirmDialog } from '../ui/widgets/ConfirmDialog';
import { ErrorState, LoadingState } from '../ui/widgets/states';
import { ProfileCard } from '../ui/widgets/ProfileCard';
import { ProfileForm } from './ProfileForm';
import { enMember } from '../i18n/en-member';

const t = withWords(enProfile, enMember);

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
  // A save made offline is shown as it will be, its avatar included, until the network takes it.
  const waitingAvatar = waiting ? pending.avatar : null;
  const avatarUrl = useMemo(() => (waitingAvatar ? URL.createObjectURL(waitingAvatar) : null), [waitingAvatar]);
  useEffect(() => () => (avatarUrl ? URL.revokeObjectURL(avatarUrl) : undefined), [avatarUrl]);
  const shown = profileWithPending(member, waiting ? pending : null, avatarUrl);

  const refused = refusedProfileSave.value;
  const refusedMessage = refused ? t('profile.saveFailed', { message: refused.message }) : null;
  const refusedUpdate = refused?.save.kind === 'update';
  useEffect(() => {
    // A queued edit the server refused reopens the form, with the reason and what was typed.
    if (refusedUpdate) setEditing(true);
  }, [refusedUpdate]);
  // The save that waited has gone out: the screen shows the profile as the server now has it, not
  // a form (one opened meanwhile included) over what was sent.
  const [wasWaiting, setWasWaiting] = useState(waiting);
  if (wasWaiting !== waiting) {
    setWasWaiting(waiting);
    if (!waiting && !refused) setEditing(false);
  }

  const load = () => {
    setFailed(null);
    readProfile()
      .then(async (p) => {
        const kept = await loadPendingSave().catch(() => null);
        // An edit left unsaved (reload, crash, update) reopens the form with what was typed; one
        // saved on the device and waiting for the network is shown as saved.
        if (p && hasProfileDraft(p.id) && !kept) setEditing(true);
        // A save kept as a conflict that could not be shown yet (at start, before the session was back).
        // Stryker disable next-line OptionalChaining: reading a missing save's kind throws into the catch below, which does nothing too
        if (kept?.kind === 'update' && kept.conflict && !profileConflict.peek()) sendQueuedSave().catch(() => undefined);
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

  // The form: while editing, or to create a profile when there is none (and none waits to be sent).
  const formOpen = !conflict && (editing || (loaded && failed === null && !shown));

  // The form opens and closes on the member's action, whose button goes away with its focus, which
  // would fall to the page: it goes to what they meet next, the form's heading once opened, the
  // profile's name once saved, Edit once cancelled.
  const [focusNext, setFocusNext] = useState<'form' | 'card' | 'edit' | null>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const cardShown = Boolean(shown) && !formOpen && !conflict;
  useEffect(() => {
    if (!focusNext || (focusNext === 'form' ? !formOpen : !cardShown)) return;
    setFocusNext(null);
    const next = { form: 'profile-form-title', card: 'profile-card-name', edit: null }[focusNext];
    (next ? document.getElementById(next) : editButton.current)?.focus();
  }, [cardShown, formOpen, focusNext]);
  const openForm = () => {
    setFocusNext('form');
    setEditing(true);
  };
  const closeForm = (next: 'card' | 'edit') => {
    setFocusNext(next);
    dismissRefusedSave();
    setEditing(false);
  };

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
      {!loaded && !member && profileLoading.value && <LoadingState shape="card" />}
      {failed !== null && !shown && <ErrorState error={failed} onRetry={load} />}
      {formOpen && (
        <>
          {!shown && <p>{t('profile.none')}</p>}
          <ProfileForm
            profile={member}
            initialError={refusedMessage}
            onDone={() => closeForm('card')}
            onCancel={shown ? () => closeForm('edit') : undefined}
          />
        </>
      )}
      {shown && cardShown && (
        <>
          <ProfileCard profile={shown} />
          <div className="actions">
            <button ref={editButton} type="button" className="button button--filled" onClick={openForm}>
              {t('common.edit')}
            </button>
            {member && !waiting && (
              <button type="button" className="button button--danger-outlined" onClick={() => setConfirming(true)}>
                {t('profile.delete')}
              </button>
            )}
          </div>
        </>
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
