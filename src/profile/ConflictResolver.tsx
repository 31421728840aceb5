import { useEffect, useRef, useState } from 'react';
import { changedBy, suggestedChoice, textOf } from './conflict-compare';
import { type ConflictField, fieldsOf, type ProfileConflict, type Side } from './conflict-state';
import { type Resolution, resolveProfileConflict } from './conflict-resolve';
import { languageName, withWords } from '../i18n';
import { enConflict } from '../i18n/en-conflict';
import { enProfile } from '../i18n/en-profile';
import '../ui/table.css';
import { isLanguage } from '../config/languages';
import { showSnackbar } from '../ui/snackbar/store';
import { errorText } from '../ui/widgets/states';
import { enMember } from '../i18n/en-member';

const t = withWords(enConflict, enProfile, enMember);
/** A word this screen says. */
type Word = Parameters<typeof t>[0];

interface Props {
  conflict: ProfileConflict;
  /** The member's choice is through: the screen goes back to showing the profile. */
  onResolved: () => void;
}

const LABELS: Record<ConflictField, Word> = {
  displayName: 'field.displayName',
  username: 'field.username',
  email: 'field.email',
  bio: 'field.bio',
  language: 'field.language',
  interests: 'field.interests',
};

/** A value as the member reads it: a language by its name, nothing as "(empty)". */
function shown(field: ConflictField, text: string): string {
  if (text === '') return t('profile.conflict.empty');
  return field === 'language' && isLanguage(text) ? languageName(text) : text;
}

const CHANGED: Record<'here' | 'there' | 'both', Word> = {
  here: 'profile.conflict.changedHere',
  there: 'profile.conflict.changedThere',
  both: 'profile.conflict.changedBoth',
};

/**
 * The profile changed elsewhere while the member edited it: both versions of every field that
 * differs, side by side, and the three ways out. An in-page region (not a modal: the member may
 * want to read the rest of the screen), its heading focused when it opens and its news announced
 * politely (the snackbar). Loaded only when a conflict happens.
 */
export default function ConflictResolver({ conflict, onResolved }: Props) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [merging, setMerging] = useState(false);
  const [choice, setChoice] = useState(() => suggestedChoice(conflict));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const theirs = fieldsOf(conflict.theirs);

  useEffect(() => {
    // The heading takes the focus, and its description (what happened, what to do) is read with
    // it. No snackbar: it would say the same, and cover the actions at the bottom of the screen.
    // Stryker disable next-line OptionalChaining: the heading is always rendered when the effect runs
    heading.current?.focus();
  }, []);

  async function resolve(resolution: Resolution) {
    setBusy(true);
    setError(null);
    try {
      const outcome = await resolveProfileConflict(resolution);
      if (outcome === 'conflict') return; // A newer change elsewhere: the screen shows the new conflict.
      const message = { discarded: 'profile.conflict.discarded', saved: 'profile.saved', queued: 'profile.pendingSave' } as const;
      showSnackbar({ message: t(message[outcome]), duration: 5000 });
      onResolved();
    } catch (failure) {
      setError(t('profile.saveFailed', { message: errorText(failure) }));
    } finally {
      setBusy(false);
    }
  }

  const startMerge = () => {
    setMerging(true);
    // The first choice to make takes the focus; the heading stays the region's name.
    // Stryker disable next-line OptionalChaining: merging is offered only with a differing field, so a radio is always there
    requestAnimationFrame(() => document.querySelector<HTMLInputElement>('#profile-conflict input[type="radio"]')?.focus());
  };
  const choose = (field: ConflictField, side: Side) => setChoice((current) => ({ ...current, [field]: side }));

  return (
    <section id="profile-conflict" className="card" aria-labelledby="profile-conflict-title" data-testid="profile-conflict">
      <h2 id="profile-conflict-title" ref={heading} tabIndex={-1} aria-describedby="profile-conflict-body">
        {t('profile.conflict.title')}
      </h2>
      <p id="profile-conflict-body">{t('profile.conflict.body')}</p>
      {conflict.fields.length > 0 && !merging && (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a narrow screen scrolls the table, and a region that scrolls must take keyboard focus, or its hidden columns cannot be reached (WCAG 2.1.1).
        <section className="table-scroll" tabIndex={0} aria-label={t('profile.conflict.versions')}>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t('profile.conflict.field')}</th>
                <th scope="col">{t('profile.conflict.mine')}</th>
                <th scope="col">{t('profile.conflict.theirs')}</th>
                {conflict.base && <th scope="col">{t('profile.conflict.changed')}</th>}
              </tr>
            </thead>
            <tbody>
              {conflict.fields.map((field) => {
                // Who changed it: a field changed on one device only is no conflict; one changed on both is.
                const by = changedBy(conflict, field);
                return (
                  <tr key={field} className={by === 'both' ? 'conflict-row--both' : undefined}>
                    <th scope="row">{t(LABELS[field])}</th>
                    <td>{shown(field, textOf(conflict.mine, field))}</td>
                    <td>{shown(field, textOf(theirs, field))}</td>
                    {by && <td>{by === 'both' ? <strong>{t(CHANGED[by])}</strong> : t(CHANGED[by])}</td>}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </section>
      )}
      {conflict.avatar && <p>{t('profile.conflict.avatar')}</p>}
      {merging && (
        <form
          className="form"
          onSubmit={(event) => {
            event.preventDefault();
            void resolve({ kind: 'merge', choice });
          }}
        >
          <p>{t('profile.conflict.mergeHint')}</p>
          {conflict.fields.map((field) => (
            <fieldset
              key={field}
              className="theme-picker"
              aria-describedby={changedBy(conflict, field) ? `conflict-by-${field}` : undefined}
            >
              <legend>{t(LABELS[field])}</legend>
              {changedBy(conflict, field) && (
                <p id={`conflict-by-${field}`} className="field__hint">
                  {t(CHANGED[changedBy(conflict, field)!])}
                </p>
              )}
              {(['mine', 'theirs'] as const).map((side) => (
                <label key={side} className={`theme-option${choice[field] === side ? ' theme-option--active' : ''}`}>
                  <input
                    type="radio"
                    name={`conflict-${field}`}
                    value={side}
                    checked={choice[field] === side}
                    onChange={() => choose(field, side)}
                  />
                  <span>
                    {t(side === 'mine' ? 'profile.conflict.mineValue' : 'profile.conflict.theirsValue', {
                      value: shown(field, textOf(side === 'mine' ? conflict.mine : theirs, field)),
                    })}
                  </span>
                </label>
              ))}
            </fieldset>
          ))}
          <div className="form__actions">
            <button type="submit" className="button button--filled" disabled={busy}>
              {t('profile.conflict.saveMerged')}
            </button>
            <button type="button" className="button button--text" disabled={busy} onClick={() => setMerging(false)}>
              {t('common.cancel')}
            </button>
          </div>
        </form>
      )}
      {error && (
        <p className="form__error" role="alert">
          {error}
        </p>
      )}
      {!merging && (
        <>
          {/* Merging is the safe way out, and the first offered: each field starts on the side that changed it. */}
          <div className="actions">
            {conflict.fields.length > 0 && (
              <button type="button" className="button button--filled" disabled={busy} onClick={startMerge}>
                {t('profile.conflict.merge')}
              </button>
            )}
            <button
              type="button"
              className={`button ${conflict.fields.length > 0 ? 'button--outlined' : 'button--filled'}`}
              disabled={busy}
              aria-describedby="profile-conflict-keep-hint"
              onClick={() => void resolve({ kind: 'mine' })}
            >
              {t('profile.conflict.keepMine')}
            </button>
            <button type="button" className="button button--text" disabled={busy} onClick={() => void resolve({ kind: 'theirs' })}>
              {t('profile.conflict.takeTheirs')}
            </button>
          </div>
          <p className="field__hint" id="profile-conflict-keep-hint">
            {t(conflict.base ? 'profile.conflict.keepMineHint' : 'profile.conflict.keepMineAllHint')}
          </p>
        </>
      )}
    </section>
  );
}
