/** The collections of the API, as named in its paths: a list the navigation needs before any call. */
export const COLLECTION_NAMES = ['accounts', 'notifications', 'subscription', 'symbols'] as const;
export type CollectionName = (typeof COLLECTION_NAMES)[number];
