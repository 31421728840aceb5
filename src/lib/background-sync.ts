type SyncRegistration = ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } };

/**
 * Asks the service worker to run the sync `tag` once the network is back, even with no page open.
 * Resolves false where there is no worker or no Background Sync (the page then sends on `online`).
 */
export async function requestBackgroundSync(tag: string): Promise<boolean> {
  try {
    const registration = (await navigator.serviceWorker?.getRegistration()) as SyncRegistration | undefined;
    // Stryker disable next-line ConditionalExpression,OptionalChaining: with no registration or no sync, register() throws into the catch, which resolves false too
    if (!registration?.sync) return false;
    await registration.sync.register(tag);
    return true;
  } catch {
    return false;
  }
}
