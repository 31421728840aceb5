import { createApiClient, unwrap, type ApiClient } from './client';
import { bearerMiddleware } from './credentials';
import { collectionsApi } from './collections';
import { inboxApi } from './inbox';
import { retryingFetch } from './retry';
import { config } from '../config/load';

/** The app's one API client, built from the configuration's API base URL when first needed. */
let client: ApiClient | null = null;
// Stryker disable next-line StringLiteral: every reader of base goes through current() or a client, both after configureApi has set it
let base = '';

export function configureApi(baseUrl: string): void {
  base = new URL(baseUrl, globalThis.location?.href ?? 'http://localhost/').href;
  client = createApiClient({ baseUrl: base, fetch: retryingFetch(), use: [bearerMiddleware(() => base)] });
}

/** The absolute API base URL the client speaks to. */
export function apiBaseUrl(): string {
  current();
  return base;
}

function current(): ApiClient {
  // Built on first use, from the configuration the boot loaded before the first render.
  if (!client) configureApi(config().apiBaseUrl);
  return client!;
}

export const api = {
  /** The client itself, for requests built elsewhere (the profile's, src/profile/requests.ts). */
  client: () => current(),
  collections: () => collectionsApi(current()),
  inbox: () => inboxApi(current()),
  /** Restores the backend's seed data. */
  reset: async (): Promise<void> => {
    await unwrap(current().POST('/commands/{name}', { params: { path: { name: 'reset' } } }));
  },
};
