/** Only same-app paths are followed after sign-in, never another site (nor the callback itself). */
export function safeNext(raw: string | null | undefined): string {
  // Stryker disable next-line StringLiteral: an empty path does not start with '/', so it goes home all the same
  const next = raw ?? '/home';
  return next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') && !next.startsWith('/auth/') ? next : '/home';
}
