/** The document title: breadcrumb titles in order, the default title last. */
export const DEFAULT_TITLE = 'WebApp';

export function buildTitle(breadcrumbs: readonly { title: string }[], defaultTitle: string = DEFAULT_TITLE): string {
  return [...breadcrumbs.map((b) => b.title).filter(Boolean), defaultTitle || DEFAULT_TITLE].join(' | ');
}
