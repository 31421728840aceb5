import { describe, expect, it } from 'vitest';
import { clearProfileDraft, draftKey, hasProfileDraft } from './profile-draft';

describe('profile drafts', () => {
  it('keep one key for a new profile and one per profile edited', () => {
    expect(draftKey(null)).toBe('draft.profile.new');
    expect(draftKey('p1')).toBe('draft.profile.p1');
  });

  it('tell whether a draft waits, and clear it', () => {
    expect(hasProfileDraft('p1')).toBe(false);
    localStorage.setItem('draft.profile.p1', JSON.stringify({ displayName: 'Ada' }));
    expect(hasProfileDraft('p1')).toBe(true);
    expect(hasProfileDraft(null)).toBe(false);
    clearProfileDraft('p1');
    expect(hasProfileDraft('p1')).toBe(false);
  });

  it('treat a malformed stored draft as none', () => {
    localStorage.setItem('draft.profile.new', '{oops');
    expect(hasProfileDraft(null)).toBe(false);
  });
});
