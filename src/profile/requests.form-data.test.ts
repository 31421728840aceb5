// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { profileFormData } from './requests';

describe('profileFormData', () => {
  it('writes each given field, lists comma-separated, and skips missing ones', () => {
    const form = profileFormData({ displayName: 'Ada', interests: ['math', 'poetry'], bio: undefined, language: null });
    expect([...form.keys()]).toEqual(['displayName', 'interests']);
    expect(form.get('interests')).toBe('math,poetry');
  });

  it('attaches the avatar under its file name, or as "avatar" for a plain blob', () => {
    const file = new File([new Uint8Array([1])], 'me.png', { type: 'image/png' });
    expect((profileFormData({}, file).get('avatar') as File).name).toBe('me.png');
    expect((profileFormData({}, new Blob([new Uint8Array([1])])).get('avatar') as File).name).toBe('avatar');
    expect(profileFormData({}, null).has('avatar')).toBe(false);
  });
});
