/** The collections of the API, as named in its paths: a list the navigation needs before any call. */
export const COLLECTION_NAMES = ['accounts', 'notifications', 'subscription', 'symbols'] as const;
export type CollectionName = (typeof COLLECTION_NAMES)[number];

/**
 * The most records each collection holds (the path's `x-max-records`; a create beyond answers 422):
 * the admin's list says so before New record is pressed, without loading the forms' fields.
 */
export const MAX_RECORDS: Readonly<Record<CollectionName, number>> = { accounts: 3, notifications: 100, subscription: 100, symbols: 3 };
