/**
 * The dashboard's words in English: they load with that screen.
 * Every other language keeps these keys in its one catalogue (loaded when chosen).
 */
export const enDashboard = {
  'dashboard.title': 'Dashboard',
  'dashboard.intro': 'Your circle at a glance: the balances of its accounts, the symbols it follows and the latest news from its members.',
  'dashboard.accounts': 'Accounts',
  'dashboard.symbols': 'Symbols',
  'dashboard.notifications': 'Notifications',
  'dashboard.empty': 'Nothing here yet. New entries show here as soon as they are added.',
  'dashboard.unavailable': 'Not available right now.',
} as const;
