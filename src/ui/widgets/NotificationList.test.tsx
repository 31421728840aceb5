import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import type { components } from '../../api/schema';
import { NotificationList } from './NotificationList';

type Notification = components['schemas']['Notification'];

const DAY = 24 * 3600 * 1000;

function notification(overrides: Partial<Notification>): Notification {
  return {
    id: 'n-1',
    title: 'Title',
    body: '',
    level: 'info',
    read: true,
    createdAt: new Date(Date.now() - 3 * DAY).toISOString(),
    ...overrides,
  };
}

describe('<NotificationList>', () => {
  it('lists each notification with its level, title and body, flagging only the unread ones', () => {
    render(
      <NotificationList
        items={[
          notification({ id: 'n-1', level: 'warning', read: false, title: 'Storage almost full', body: 'Free some space.' }),
          notification({ id: 'n-2', level: 'success', read: true, title: 'Profile saved', body: '' }),
        ]}
      />,
    );
    const [first, second] = within(screen.getByRole('list')).getAllByRole('listitem') as [HTMLElement, HTMLElement];

    expect(within(first).getByRole('heading', { level: 3 }).textContent).toBe('Storage almost full');
    expect(within(first).getByText('Warning')).toBeTruthy();
    expect(within(first).getByText('Unread')).toBeTruthy();
    expect(first.querySelector('p.notification__body')?.textContent).toBe('Free some space.');
    expect(first.className).toBe('notification notification--warning notification--unread');

    expect(within(second).getByRole('heading', { level: 3 }).textContent).toBe('Profile saved');
    expect(within(second).getByText('Good news')).toBeTruthy();
    expect(within(second).queryByText('Unread')).toBeNull();
    // No body: no empty paragraph either.
    expect(second.querySelector('p')).toBeNull();
    expect(second.className).toBe('notification notification--success');
  });

  it('tells when each arrived, relative to now, with the exact date and time on hover and for machines', () => {
    const createdAt = new Date(Date.now() - 3 * DAY).toISOString();
    render(<NotificationList items={[notification({ createdAt })]} />);
    const time = screen.getByRole('listitem').querySelector('time')!;
    expect(time.textContent).toBe('3 days ago');
    expect(time.getAttribute('datetime')).toBe(createdAt);
    expect(time.getAttribute('title')).toBe(
      new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(createdAt)),
    );
  });

  it('shows an empty list when there is nothing', () => {
    render(<NotificationList items={[]} />);
    expect(screen.getByRole('list').children).toHaveLength(0);
  });
});
