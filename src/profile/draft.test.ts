import 'fake-indexeddb/auto';
import { Blob as NodeBlob, File as NodeFile } from 'node:buffer';
import { createStore, get } from 'idb-keyval';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clearProfileDraft, draftKey, hasProfileDraft } from './draft';

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

describe('the avatar chosen in a draft', () => {
  // IndexedDB clones what it keeps: Node's Blob and File can be cloned, happy-dom's cannot.
  beforeEach(() => {
    vi.stubGlobal('Blob', NodeBlob);
    vi.stubGlobal('File', NodeFile);
    vi.resetModules();
  });

  /** The module as a fresh page load has it: no IndexedDB helper opened yet. */
  const fresh = () => import('./draft');
  const png = () => new File([new Uint8Array([137, 80, 78, 71])], 'me.png', { type: 'image/png' });

  it('waits for a reload as the file it was: name, type and content', async () => {
    const drafts = await fresh();
    await drafts.keepDraftAvatar('p-avatar', png());
    const restored = await (await fresh()).restoreDraftAvatar('p-avatar');
    expect(restored).toBeInstanceOf(File);
    // A browser's IndexedDB keeps a File as a File, and so does Node's structured clone from 23 on;
    // Node 22's gives back a Blob, which comes back as a file named avatar (the next test).
    const clonesFiles = structuredClone(new File([], 'x')) instanceof File;
    expect(restored).toMatchObject({ name: clonesFiles ? 'me.png' : 'avatar', type: 'image/png', size: 4 });
    expect(new Uint8Array(await restored!.arrayBuffer())).toEqual(new Uint8Array([137, 80, 78, 71]));
    // Under the draft's key, in the database earlier versions of the app kept it in.
    expect(await get(draftKey('p-avatar'), createStore('circle-drafts', 'avatars'))).toBeInstanceOf(Blob);
  });

  it('kept as a bare blob comes back as a file named avatar, of its type', async () => {
    const drafts = await fresh();
    await drafts.keepDraftAvatar(null, new Blob(['GIF89a'], { type: 'image/gif' }) as File);
    const restored = await drafts.restoreDraftAvatar(null);
    expect(restored).toMatchObject({ name: 'avatar', type: 'image/gif' });
    expect(await restored!.text()).toBe('GIF89a');
  });

  it('is one per profile: none waits for a profile that chose none', async () => {
    const drafts = await fresh();
    await drafts.keepDraftAvatar('p-one', png());
    await expect(drafts.restoreDraftAvatar('p-other')).resolves.toBeNull();
  });

  it('is forgotten when kept as none, and when the draft is cleared', async () => {
    const drafts = await fresh();
    await drafts.keepDraftAvatar('p-forget', png());
    await drafts.keepDraftAvatar('p-forget', null);
    await expect(drafts.restoreDraftAvatar('p-forget')).resolves.toBeNull();

    await drafts.keepDraftAvatar('p-clear', png());
    localStorage.setItem(draftKey('p-clear'), JSON.stringify({ bio: 'x' }));
    drafts.clearProfileDraft('p-clear');
    await vi.waitFor(async () => expect(await drafts.restoreDraftAvatar('p-clear')).toBeNull());
    expect(drafts.hasProfileDraft('p-clear')).toBe(false);
  });

  it('is simply not kept where the browser has no IndexedDB; the text draft still works', async () => {
    vi.stubGlobal('indexedDB', undefined);
    const drafts = await fresh();
    await expect(drafts.keepDraftAvatar('p-none', png())).resolves.toBeUndefined();
    await expect(drafts.restoreDraftAvatar('p-none')).resolves.toBeNull();
    expect(drafts.avatarStore()).toBeNull();
    localStorage.setItem(draftKey('p-none'), JSON.stringify({ bio: 'x' }));
    expect(() => drafts.clearProfileDraft('p-none')).not.toThrow();
    expect(drafts.hasProfileDraft('p-none')).toBe(false);
  });
});
