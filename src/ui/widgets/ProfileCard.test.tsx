import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import type { components } from '../../api/schema';
import { setTokenKeeper } from '../../api/credentials';
import { formatDate } from '../../i18n';
import { ProfileCard } from './ProfileCard';
import { forgetAvatars } from './avatar-images';

type Profile = components['schemas']['Profile'];

function profile(overrides: Partial<Profile> = {}): Profile {
  return {
    id: 'p-1',
    displayName: 'ada lovelace',
    username: 'ada',
    email: 'ada@example.org',
    bio: 'Writes programs for engines.',
    avatar: null,
    language: 'fr',
    interests: ['maths', 'poetry'],
    createdAt: '2024-01-05T10:00:00Z',
    updatedAt: '2024-02-01T10:00:00Z',
    ...overrides,
  };
}

/** The stand-in for an avatar: its initials, named for what it is. */
function initialsAvatar(): HTMLElement {
  return screen.getByRole('img', { name: 'No avatar' });
}

afterEach(() => {
  // Each test fetches its own: none is kept from the one before.
  forgetAvatars();
  setTokenKeeper({ accessToken: async () => null });
});

describe('<ProfileCard>', () => {
  it('is an article named by the member, with their username, email, bio, interests, language and join date', () => {
    render(<ProfileCard profile={profile()} />);
    const card = screen.getByRole('article', { name: 'ada lovelace' });
    expect(within(card).getByRole('heading', { level: 2 }).textContent).toBe('ada lovelace');
    expect(within(card).getByText('@ada')).toBeTruthy();
    expect(within(card).getByText('ada@example.org')).toBeTruthy();
    expect(within(card).getByText('Writes programs for engines.')).toBeTruthy();
    const interests = within(card).getByRole('list', { name: 'Interests' });
    expect(
      within(interests)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['maths', 'poetry']);
    expect(within(card).queryByText('No interests listed.')).toBeNull();
    expect(within(card).getByText('Preferred language: French')).toBeTruthy();
    expect(within(card).getByText(`Member since ${formatDate('2024-01-05T10:00:00Z')}`)).toBeTruthy();
    expect(card.className).toBe('card profile-card');
  });

  it('without an avatar shows the initials of the first two words, capitalised, at the full size', () => {
    render(<ProfileCard profile={profile({ displayName: '  ada byron lovelace' })} />);
    const avatar = initialsAvatar();
    expect(avatar.textContent).toBe('AB');
    expect(avatar.dataset.size).toBe('96');
    expect(screen.queryByRole('img', { name: /^Avatar of/ })).toBeNull();
  });

  it('takes a whole first character as the initial, even one outside the basic plane', () => {
    render(<ProfileCard profile={profile({ displayName: '𝒜da Lovelace' })} />);
    expect(initialsAvatar().textContent).toBe('𝒜L');
  });

  it('says when there are no interests, and shows no bio or language the member did not give', () => {
    render(<ProfileCard profile={profile({ bio: '', interests: [], language: undefined })} />);
    const card = screen.getByRole('article', { name: 'ada lovelace' });
    expect(within(card).getByText('No interests listed.')).toBeTruthy();
    expect(within(card).queryByRole('list')).toBeNull();
    expect(card.querySelector('.profile-card__bio')).toBeNull();
    expect(within(card).queryByText(/Preferred language/)).toBeNull();
  });

  it('names no preferred language the app does not know', () => {
    // An older or newer server may send a language this version has no name for.
    const unknown = 'tlh' as Profile['language'];
    render(<ProfileCard profile={profile({ language: unknown })} />);
    expect(screen.queryByText(/Preferred language/)).toBeNull();
  });

  it('compact, keeps to the name, username and join date with a smaller avatar', () => {
    render(<ProfileCard profile={profile()} compact />);
    const card = screen.getByRole('article', { name: 'ada lovelace' });
    expect(card.className).toBe('card profile-card profile-card--compact');
    expect(within(card).getByText('@ada')).toBeTruthy();
    expect(within(card).getByText(/^Member since /)).toBeTruthy();
    expect(within(card).queryByText('ada@example.org')).toBeNull();
    expect(within(card).queryByText('Writes programs for engines.')).toBeNull();
    expect(within(card).queryByRole('list')).toBeNull();
    expect(within(card).queryByText('No interests listed.')).toBeNull();
    expect(within(card).queryByText(/Preferred language/)).toBeNull();
    expect(initialsAvatar().dataset.size).toBe('64');
  });

  it('shows the avatar once fetched with the member token, described by their name, at the card size', async () => {
    setTokenKeeper({ accessToken: async () => 'token-1' });
    const fetchMock = vi.fn(async () => new Response(new Blob(['png']), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:avatar-1');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const { container } = render(<ProfileCard profile={profile({ avatar: 'https://api.example.org/avatars/p-1' })} compact />);
    // Until the image is here the initials stand for it, never an empty disc.
    const waiting = screen.getByRole('img', { name: 'Avatar of ada lovelace' });
    expect(waiting.tagName).toBe('SPAN');
    expect(waiting.textContent).toBe('AL');
    await waitFor(() => expect(container.querySelector('img.avatar')).not.toBeNull());
    const image = screen.getByRole('img', { name: 'Avatar of ada lovelace' });
    expect(image.tagName).toBe('IMG');
    expect(image.getAttribute('src')).toBe('blob:avatar-1');
    expect(image.getAttribute('width')).toBe('64');
    expect(image.getAttribute('height')).toBe('64');
    expect(screen.queryByRole('img', { name: 'No avatar' })).toBeNull();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledOnce());
  });

  it('an avatar that cannot be had (offline, refused) gives way to the initials', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('gone', { status: 404 })),
    );
    render(<ProfileCard profile={profile({ avatar: 'https://api.example.org/avatars/p-1' })} />);
    expect((await screen.findByRole('img', { name: 'No avatar' })).textContent).toBe('AL');
  });

  it('names a preferred language in the language on screen', async () => {
    const { loadLanguage } = await import('../../i18n');
    await loadLanguage('fr');
    try {
      render(<ProfileCard profile={profile({ language: 'en' })} />);
      expect(screen.getByText('Langue préférée : anglais')).toBeTruthy();
    } finally {
      await loadLanguage('en');
    }
  });
});
