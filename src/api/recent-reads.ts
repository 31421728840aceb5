/**
 * The API reads this page has made. When the service worker takes control for the first time
 * it is handed this list, so what the member saw on the first visit is there offline too.
 */
const reads = new Set<string>();
const MAX = 30;

export function rememberRead(url: string): void {
  reads.delete(url);
  reads.add(url);
  if (reads.size > MAX) reads.delete(reads.values().next().value!);
}

export function recentReads(): string[] {
  return [...reads];
}
