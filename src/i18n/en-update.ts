/**
 * The words of a new version's offer (seed-spec: 'Newer version of the app is available', with
 * 'Refresh'), in English: they load with the worker's registration, which says them. Every other
 * language keeps these keys in its one catalogue.
 */
export const enUpdate = {
  'update.available': 'Newer version of the app is available',
  'update.refresh': 'Refresh',
} as const;
