/**
 * The not-found screen's words in English (its heading is the page's title, nav.notFound): they
 * load with that screen, which takes them with withWords. Every other language keeps these keys in
 * its one catalogue.
 */
export const enNotFound = {
  'notFound.body': 'The page you are looking for does not exist or has moved.',
  'notFound.home': 'Go to the home page',
} as const;
