import type { components } from './schema';
import { type ApiClient, unwrap } from './client';
import { checkList } from './guards';

type Notification = components['schemas']['Notification'];

/** The member's notifications, and the language(s) their text came in (the answer's Content-Language). */
export interface InboxList {
  items: Notification[];
  language: string;
}

/**
 * The inbox's calls (openapi.yaml, "Notifications are an inbox"): the notifications as the caller
 * sees them, in the language asked, and the member's read marks, each of which answers the unread
 * count after it.
 */
export function inboxApi(client: ApiClient) {
  const count = async (call: Promise<{ data?: { unread: number }; error?: unknown; response: Response }>) => (await unwrap(call)).unread;
  return {
    async list(language: string, signal?: AbortSignal): Promise<InboxList> {
      const answer = await client.GET('/notifications', { params: { header: { 'Accept-Language': language } }, signal });
      const items = checkList<Notification>('notifications', await unwrap(Promise.resolve(answer)));
      return { items, language: answer.response.headers.get('content-language') ?? 'en' };
    },
    unreadCount: (signal?: AbortSignal) => count(client.GET('/notifications/unread-count', { signal })),
    markRead: (id: string) => count(client.PUT('/notifications/{id}/read', { params: { path: { id } } })),
    markUnread: (id: string) => count(client.DELETE('/notifications/{id}/read', { params: { path: { id } } })),
    /** Marks read what was created up to `lastReadAt` (the newest the member saw), or everything. */
    markAllRead: (lastReadAt?: string) =>
      count(client.POST('/notifications/read-all', lastReadAt === undefined ? {} : { body: { lastReadAt } })),
  };
}
