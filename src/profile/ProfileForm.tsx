import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { keepDraftAvatar, restoreDraftAvatar } from './draft';
import { pendingProfileSave } from './outbox';
import { saveProfile } from './save';
import { profileLoading, profileProgress, profileProgressMessage } from './store';
import { activeLanguage, withWords } from '../i18n';
import { member } from '../state/auth';
import { enForms } from '../i18n/en-forms';
import { enProfile } from '../i18n/en-profile';
import { LANGUAGES, LANGUAGE_NAMES } from '../config/languages';
import { Field, focusFirstError } from '../ui/form/Field';
import type { Profile } from './requests';
import { isAbort } from '../api/errors';
import { showSnackbar } from '../ui/snackbar/store';
import { errorText } from '../ui/widgets/states';
import { Avatar } from '../ui/widgets/Avatar';
import { checkAvatar, checkAvatarContent, createProfileForm, toInput } from './profile-form';
import { enMember } from '../i18n/en-member';

const t = withWords(enForms, enProfile, enMember);

interface Props {
  profile: Profile | null;
  onDone: () => void;
  onCancel?: () => void;
  /** Why an earlier save was refused, shown until the next attempt. */
  initialError?: string | null;
}

/** Create or edit the profile. What is typed is kept as a draft until it is saved or discarded. */
export function ProfileForm({ profile, onDone, onCancel, initialError = null }: Props) {
  const form = useMemo(() => createProfileForm(profile, activeLanguage.peek(), member.peek()), [profile]);
  // Stryker disable next-line ArrowFunction,ArrayDeclaration,CallExpression: a form left undisposed only keeps watching values nothing changes any more (a late reset removes its draft itself)
  useEffect(() => () => form.dispose(), [form]);
  const formRef = useRef<HTMLFormElement>(null);
  const [avatar, setAvatar] = useState<File | null>(null);
  const [avatarError, setAvatarError] = useState<ReturnType<typeof checkAvatar> | 'validation.avatarContent'>(null);
  // The preview belongs to one file: a URL is shown only with the file it was made for, so an
  // image never points at a URL revoked when another file was chosen.
  const [preview, setPreview] = useState<{ file: File; url: string } | null>(null);
  const [saveError, setSaveError] = useState<string | null>(initialError);
  const controller = useRef<AbortController | null>(null);
  const busy = profileLoading.value;

  useEffect(() => {
    // A draft of a save that waits on the device is that save, which the screen already speaks of.
    if (form.restoredDraft && !pendingProfileSave.peek()) showSnackbar({ message: t('profile.draftRestored'), duration: 5000 });
  }, [form]);

  // An avatar chosen before a reload comes back with the typed fields.
  const profileId = profile?.id ?? null;
  useEffect(() => {
    let current = true;
    restoreDraftAvatar(profileId)
      .then((file) => {
        if (!current || !file) return;
        setAvatar((chosen) => chosen ?? file);
        setAvatarError((error) => error ?? checkAvatar(file));
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [profileId]);

  // The file whose content is being read: an answer for a file chosen before does not count.
  const checking = useRef<File | null>(null);
  const chooseAvatar = (file: File | null) => {
    const error = checkAvatar(file);
    setAvatarError(error);
    setAvatar(file);
    keepDraftAvatar(profileId, file).catch(() => undefined);
    checking.current = file;
    if (file && !error)
      void checkAvatarContent(file).then((bad) => {
        if (bad && checking.current === file) setAvatarError(bad);
      });
  };
  const avatarInput = useRef<HTMLInputElement>(null);
  const forgetChosen = () => {
    chooseAvatar(null);
    if (avatarInput.current) avatarInput.current.value = '';
  };
  const discardDraft = () => {
    form.reset();
    forgetChosen();
  };
  // An image dragged over the picker may be dropped on it, as chosen with the button.
  const [dragging, setDragging] = useState(false);

  useEffect(() => {
    if (!avatar) return setPreview(null);
    const url = URL.createObjectURL(avatar);
    setPreview({ file: avatar, url });
    return () => URL.revokeObjectURL(url);
  }, [avatar]);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSaveError(null);
    const valid = form.submit();
    // Sent before its content was read (a quick Enter after choosing): read now.
    const badContent = avatar && !avatarError ? await checkAvatarContent(avatar) : null;
    if (badContent) setAvatarError(badContent);
    if (!valid || avatarError || badContent) {
      requestAnimationFrame(() => focusFirstError(formRef.current));
      return;
    }
    const input = toInput(form.values.value);
    controller.current = new AbortController();
    try {
      const request = profile ? ({ kind: 'update', id: profile.id, fields: input } as const) : ({ kind: 'create', fields: input } as const);
      // The model sends it, or keeps it on this device until the network is back.
      const outcome = await saveProfile(request, avatar, controller.current.signal);
      // The profile changed elsewhere: the screen puts both versions side by side; what was typed stays the draft.
      if (outcome === 'conflict') return;
      // Kept on this device: the screen shows the profile as saved, and says it waits for the
      // network. What was typed stays the draft until it is sent, for a refusal to give it back.
      if (outcome === 'queued') return onDone();
      form.reset();
      showSnackbar({ message: t(profile ? 'profile.saved' : 'profile.created'), duration: 4000 });
      onDone();
    } catch (error) {
      // Stryker disable BlockStatement: a settled save's controller left behind is only ever aborted, which does nothing to a save that has ended
      if (!isAbort(error)) setSaveError(t('profile.saveFailed', { message: errorText(error) }));
    } finally {
      // Stryker restore BlockStatement
      controller.current = null;
    }
  }

  const progress = profileProgress.value;
  const progressMessage = profileProgressMessage.value;
  const errorCount = Object.keys(form.errors.value).length + (avatarError ? 1 : 0);

  return (
    <form ref={formRef} className="card form" noValidate onSubmit={onSubmit} aria-labelledby="profile-form-title">
      {/* Focused when Edit opens the form (the profile screen): Edit goes away with the focus. */}
      <h2 id="profile-form-title" tabIndex={-1}>
        {profile ? t('profile.editTitle') : t('profile.createTitle')}
      </h2>
      {form.submitted.value && errorCount > 0 && (
        <p className="form__summary" role="alert">
          {t('validation.summary', { count: errorCount })}
        </p>
      )}
      <Field
        form={form}
        name="displayName"
        label={t('field.displayName')}
        hint={t('field.displayName.hint')}
        required
        autoComplete="nickname"
      />
      <Field form={form} name="username" label={t('field.username')} hint={t('field.username.hint')} required autoComplete="username" />
      <Field form={form} name="email" label={t('field.email')} type="email" required autoComplete="email" inputMode="email" />
      <Field form={form} name="bio" label={t('field.bio')} hint={t('field.bio.hint')} multiline />
      <Field
        form={form}
        name="language"
        label={t('field.language')}
        hint={t('field.language.hint')}
        options={LANGUAGES.map((l) => [l, LANGUAGE_NAMES[l]] as const)}
      />
      <Field form={form} name="interests" label={t('field.interests')} hint={t('field.interests.hint')} />

      {/* The picker: the avatar as it is (or the image chosen, previewed), a button to choose another,
          and the whole of it a place to drop one. The button is the file input's label, so the
          input itself, hidden from sight only, takes the focus, Enter and Space, and its name. */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping a file is a pointer's shortcut; the keyboard has the same choice through the button. */}
      <div
        className={`field avatar-picker${avatarError ? ' field--invalid' : ''}${dragging ? ' avatar-picker--over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          // Stryker disable next-line OptionalChaining: a drop always has its data transfer
          const file = e.dataTransfer?.files[0];
          if (file) chooseAvatar(file);
        }}
      >
        <label className="field__label" htmlFor="profile-avatar">
          {t('field.avatar')}
        </label>
        <div className="avatar-picker__row">
          {preview && preview.file === avatar && !avatarError ? (
            <img className="avatar avatar--preview" src={preview.url} alt={t('profile.avatarChosen')} width="96" height="96" />
          ) : (
            // A new profile without an image yet: the initials of the name typed, as the card will show
            // them, never an empty disc (beside the picker's label and hint, they say nothing more).
            <Avatar name={profile?.displayName ?? form.values.value.displayName} url={profile?.avatar ?? null} decorative={!profile} />
          )}
          <div className="avatar-picker__actions">
            <input
              id="profile-avatar"
              className="visually-hidden avatar-picker__input"
              type="file"
              accept="image/png,image/jpeg,image/webp"
              aria-describedby={`profile-avatar-hint${avatarError ? ' profile-avatar-error' : ''}`}
              aria-invalid={avatarError ? true : undefined}
              ref={avatarInput}
              // Stryker disable next-line OptionalChaining: a file input always has its file list
              onChange={(e) => chooseAvatar(e.target.files?.[0] ?? null)}
            />
            <label htmlFor="profile-avatar" className="button button--outlined">
              {t('profile.avatarChoose')}
            </label>
            {avatar && (
              <button type="button" className="button button--text" onClick={forgetChosen}>
                {t('profile.avatarForget')}
              </button>
            )}
          </div>
        </div>
        <p className="field__hint" id="profile-avatar-hint">
          {t('field.avatar.hint')}
        </p>
        {avatarError && (
          <p className="field__error" id="profile-avatar-error">
            {t(avatarError)}
          </p>
        )}
      </div>

      {progress !== undefined && busy && (
        <div className="upload">
          <label htmlFor="profile-progress">{t('profile.uploading')}</label>
          <progress id="profile-progress" max={100} value={progress} aria-describedby="profile-progress-message" />
          <p id="profile-progress-message" className="upload__message" role="status" aria-live="polite">
            {progressMessage && t(progressMessage.key, progressMessage.params)}
          </p>
          {/* Once all of it is sent there is nothing left to cancel: the answer is on its way. */}
          {progress < 100 && progressMessage?.key !== 'profile.progress.download' && (
            <button type="button" className="button button--text" onClick={() => controller.current?.abort()}>
              {t('profile.cancelUpload')}
            </button>
          )}
        </div>
      )}

      {saveError && (
        <p className="form__error" role="alert">
          {saveError}
        </p>
      )}

      <div className="form__actions">
        <button type="submit" className="button button--filled" disabled={busy}>
          {profile ? t('profile.save') : t('profile.create')}
        </button>
        {/* Editing, the changes are dropped for the profile as it is; a new profile has no saved
            version to go back to: the form starts over from what it began with. */}
        {(form.dirty.value || avatar) && (
          <button type="button" className="button button--text" onClick={discardDraft}>
            {t(profile ? 'profile.discardDraft' : 'profile.startOver')}
          </button>
        )}
        {onCancel && (
          <button
            type="button"
            className="button button--text"
            onClick={() => {
              // Cancelling is the user's choice to drop the edit, draft included.
              discardDraft();
              onCancel();
            }}
          >
            {t('common.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}
