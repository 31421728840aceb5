import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
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

  it('without a way to mark them, has no buttons; with one, a button per notification that names it and says what it does', async () => {
    const items = [
      notification({ id: 'n-1', read: false, title: 'Storage almost full' }),
      notification({ id: 'n-2', title: 'Profile saved' }),
    ];
    const { rerender } = render(<NotificationList items={items} />);
    expect(screen.queryByRole('button')).toBeNull();
    const onMark = vi.fn();
    rerender(<NotificationList items={items} onMark={onMark} />);
    const buttons = screen.getAllByRole('button');
    expect(buttons.map((b) => [b.textContent, b.getAttribute('aria-label')])).toEqual([
      ['Mark as read', 'Mark as read: Storage almost full'],
      ['Mark as unread', 'Mark as unread: Profile saved'],
    ]);
    await userEvent.click(buttons[0]!);
    await userEvent.click(buttons[1]!);
    expect(onMark.mock.calls).toEqual([
      [items[0], true],
      [items[1], false],
    ]);
  });

  it("says the text's language when it is not the page's, and takes the heading level it is given", () => {
    const { container, rerender } = render(<NotificationList items={[notification({ title: 'Hello' })]} lang="en" level={2} />);
    expect(container.querySelector('ul')?.getAttribute('lang')).toBe('en');
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Hello');
    rerender(<NotificationList items={[notification({ title: 'Hello' })]} />);
    expect(container.querySelector('ul')?.hasAttribute('lang')).toBe(false);
    expect(screen.getByRole('heading', { level: 3 }).textContent).toBe('Hello');
  });
});
