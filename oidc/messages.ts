/**
 * The provider pages' words in the app's five languages. The page's language is the first of the
 * request's `ui_locales` (the app sends its own), else of the browser's Accept-Language, that
 * Circle speaks; English otherwise.
 */
export type PageLanguage = 'en' | 'es' | 'de' | 'fr' | 'zh-Hans';

export interface PageMessages {
  signInTitle: string;
  signInHeading: (client: string) => string;
  failed: string;
  /** Sign-in refused after too many failed attempts, for about `minutes` minutes. */
  throttled: (minutes: number) => string;
  username: string;
  password: string;
  signIn: string;
  cancel: string;
  demoHeading: string;
  demoHint: (accounts: string, password: string) => string;
  signOutTitle: string;
  signOutHeading: (client: string) => string;
  signOutNote: string;
  signOut: string;
  staySignedIn: string;
  /** The heading while a sign-out the app made goes through. */
  signingOut: string;
  continue: string;
  signedOutTitle: string;
  signedOutHeading: string;
  back: string;
  failedTitle: string;
  failedDetail: string;
  technical: string;
  expiredTitle: string;
  expiredDetail: string;
  notAllowedTitle: string;
  notAllowedDetail: string;
  unknownHostTitle: string;
  unknownHostDetail: (port: number) => string;
}

const en: PageMessages = {
  signInTitle: 'Sign in',
  signInHeading: (client) => `Sign in to ${client}`,
  failed: 'That username and password do not match. Check them and try again.',
  throttled: (minutes) => `Too many failed sign-ins. Wait ${minutes} min, then try again.`,
  username: 'Username',
  password: 'Password',
  signIn: 'Sign in',
  cancel: 'Cancel',
  demoHeading: 'Demo accounts',
  demoHint: (accounts, password) => `${accounts}: the password of each is ${password}.`,
  signOutTitle: 'Sign out',
  signOutHeading: (client) => `Sign out of ${client}?`,
  signOutNote: 'You will need to sign in again on this device.',
  signOut: 'Sign out',
  staySignedIn: 'Stay signed in',
  signingOut: 'Signing you out…',
  continue: 'Continue',
  signedOutTitle: 'Signed out',
  signedOutHeading: 'You are signed out',
  back: 'Back to Circle',
  failedTitle: 'Sign-in failed',
  failedDetail: 'The sign-in could not be completed. Go back to Circle and try again.',
  technical: 'Technical details',
  expiredTitle: 'Sign-in expired',
  expiredDetail: 'This sign-in page is no longer valid. Start again from Circle.',
  notAllowedTitle: 'Not allowed',
  notAllowedDetail: 'This page only answers the sign-in form.',
  unknownHostTitle: 'Unknown address',
  unknownHostDetail: (port) => `Sign-in is served on 127.0.0.1 or localhost, at port ${port}.`,
};

const es: PageMessages = {
  signInTitle: 'Iniciar sesión',
  signInHeading: (client) => `Inicia sesión en ${client}`,
  failed: 'El nombre de usuario y la contraseña no coinciden. Revísalos e inténtalo de nuevo.',
  throttled: (minutes) => `Demasiados intentos fallidos. Espera ${minutes} min y vuelve a intentarlo.`,
  username: 'Nombre de usuario',
  password: 'Contraseña',
  signIn: 'Iniciar sesión',
  cancel: 'Cancelar',
  demoHeading: 'Cuentas de demostración',
  demoHint: (accounts, password) => `${accounts}: la contraseña de todas es ${password}.`,
  signOutTitle: 'Cerrar sesión',
  signOutHeading: (client) => `¿Cerrar la sesión de ${client}?`,
  signOutNote: 'Tendrás que volver a iniciar sesión en este dispositivo.',
  signOut: 'Cerrar sesión',
  staySignedIn: 'Mantener la sesión',
  signingOut: 'Cerrando la sesión…',
  continue: 'Continuar',
  signedOutTitle: 'Sesión cerrada',
  signedOutHeading: 'Has cerrado la sesión',
  back: 'Volver a Circle',
  failedTitle: 'No se pudo iniciar sesión',
  failedDetail: 'No se pudo completar el inicio de sesión. Vuelve a Circle e inténtalo de nuevo.',
  technical: 'Detalles técnicos',
  expiredTitle: 'El inicio de sesión ha caducado',
  expiredDetail: 'Esta página de inicio de sesión ya no es válida. Empieza de nuevo desde Circle.',
  notAllowedTitle: 'No permitido',
  notAllowedDetail: 'Esta página solo responde al formulario de inicio de sesión.',
  unknownHostTitle: 'Dirección desconocida',
  unknownHostDetail: (port) => `El inicio de sesión se sirve en 127.0.0.1 o localhost, en el puerto ${port}.`,
};

const de: PageMessages = {
  signInTitle: 'Anmelden',
  signInHeading: (client) => `Bei ${client} anmelden`,
  failed: 'Benutzername und Passwort passen nicht zusammen. Prüfen Sie beides und versuchen Sie es erneut.',
  throttled: (minutes) => `Zu viele fehlgeschlagene Anmeldungen. Warten Sie ${minutes} Min. und versuchen Sie es dann erneut.`,
  username: 'Benutzername',
  password: 'Passwort',
  signIn: 'Anmelden',
  cancel: 'Abbrechen',
  demoHeading: 'Demo-Konten',
  demoHint: (accounts, password) => `${accounts}: Das Passwort lautet jeweils ${password}.`,
  signOutTitle: 'Abmelden',
  signOutHeading: (client) => `Von ${client} abmelden?`,
  signOutNote: 'Sie müssen sich auf diesem Gerät erneut anmelden.',
  signOut: 'Abmelden',
  staySignedIn: 'Angemeldet bleiben',
  signingOut: 'Sie werden abgemeldet…',
  continue: 'Weiter',
  signedOutTitle: 'Abgemeldet',
  signedOutHeading: 'Sie sind abgemeldet',
  back: 'Zurück zu Circle',
  failedTitle: 'Anmeldung fehlgeschlagen',
  failedDetail: 'Die Anmeldung konnte nicht abgeschlossen werden. Kehren Sie zu Circle zurück und versuchen Sie es erneut.',
  technical: 'Technische Details',
  expiredTitle: 'Anmeldung abgelaufen',
  expiredDetail: 'Diese Anmeldeseite ist nicht mehr gültig. Beginnen Sie erneut in Circle.',
  notAllowedTitle: 'Nicht erlaubt',
  notAllowedDetail: 'Diese Seite nimmt nur das Anmeldeformular entgegen.',
  unknownHostTitle: 'Unbekannte Adresse',
  unknownHostDetail: (port) => `Die Anmeldung ist unter 127.0.0.1 oder localhost auf Port ${port} erreichbar.`,
};

const fr: PageMessages = {
  signInTitle: 'Connexion',
  signInHeading: (client) => `Connexion à ${client}`,
  failed: 'Le nom d’utilisateur et le mot de passe ne correspondent pas. Vérifiez-les et réessayez.',
  throttled: (minutes) => `Trop de connexions échouées. Attendez ${minutes}\u00a0min, puis réessayez.`,
  username: 'Nom d’utilisateur',
  password: 'Mot de passe',
  signIn: 'Se connecter',
  cancel: 'Annuler',
  demoHeading: 'Comptes de démonstration',
  demoHint: (accounts, password) => `${accounts}\u00a0: le mot de passe de chacun est ${password}.`,
  signOutTitle: 'Déconnexion',
  signOutHeading: (client) => `Se déconnecter de ${client}\u202f?`,
  signOutNote: 'Vous devrez vous reconnecter sur cet appareil.',
  signOut: 'Se déconnecter',
  staySignedIn: 'Rester connecté',
  signingOut: 'Déconnexion en cours…',
  continue: 'Continuer',
  signedOutTitle: 'Déconnecté',
  signedOutHeading: 'Vous êtes déconnecté',
  back: 'Revenir à Circle',
  failedTitle: 'Échec de la connexion',
  failedDetail: 'La connexion n’a pas pu aboutir. Revenez à Circle et réessayez.',
  technical: 'Détails techniques',
  expiredTitle: 'Connexion expirée',
  expiredDetail: 'Cette page de connexion n’est plus valide. Recommencez depuis Circle.',
  notAllowedTitle: 'Action non autorisée',
  notAllowedDetail: 'Cette page ne reçoit que le formulaire de connexion.',
  unknownHostTitle: 'Adresse inconnue',
  unknownHostDetail: (port) => `La connexion est servie sur 127.0.0.1 ou localhost, port ${port}.`,
};

const zhHans: PageMessages = {
  signInTitle: '登录',
  signInHeading: (client) => `登录 ${client}`,
  failed: '用户名与密码不匹配。请检查后重试。',
  throttled: (minutes) => `登录失败次数过多。请等待 ${minutes} 分钟后再试。`,
  username: '用户名',
  password: '密码',
  signIn: '登录',
  cancel: '取消',
  demoHeading: '演示账户',
  demoHint: (accounts, password) => `${accounts}：密码均为 ${password}。`,
  signOutTitle: '退出登录',
  signOutHeading: (client) => `要退出 ${client} 吗？`,
  signOutNote: '之后需要在此设备上重新登录。',
  signOut: '退出登录',
  staySignedIn: '保持登录',
  signingOut: '正在退出登录…',
  continue: '继续',
  signedOutTitle: '已退出登录',
  signedOutHeading: '你已退出登录',
  back: '返回 Circle',
  failedTitle: '登录失败',
  failedDetail: '无法完成登录。请返回 Circle 后重试。',
  technical: '技术详情',
  expiredTitle: '登录已过期',
  expiredDetail: '此登录页面已失效。请从 Circle 重新开始。',
  notAllowedTitle: '不允许的操作',
  notAllowedDetail: '此页面只接受登录表单。',
  unknownHostTitle: '未知地址',
  unknownHostDetail: (port) => `登录服务位于 127.0.0.1 或 localhost 的 ${port} 端口。`,
};

export const PAGE_MESSAGES: Readonly<Record<PageLanguage, PageMessages>> = { en, es, de, fr, 'zh-Hans': zhHans };

/** The language tag a request names that Circle speaks (zh, zh-CN and zh-Hans-* are zh-Hans), or null. */
function speak(tag: string): PageLanguage | null {
  // An empty tag and the wildcard need no case of their own: neither is zh nor has a base Circle speaks.
  const lower = tag.trim().toLowerCase();
  if (lower === 'zh' || lower.startsWith('zh-hans') || lower === 'zh-cn' || lower === 'zh-sg') return 'zh-Hans';
  const base = lower.split('-')[0];
  return base === 'en' || base === 'es' || base === 'de' || base === 'fr' ? base : null;
}

/** The page's language: the first of `ui_locales` (space-separated) Circle speaks, else of Accept-Language by q-value, else English. */
export function pageLanguage(uiLocales: unknown, acceptLanguage: string | undefined): PageLanguage {
  if (typeof uiLocales === 'string') {
    for (const tag of uiLocales.split(' ')) {
      const language = speak(tag);
      if (language) return language;
    }
  }
  // Stryker disable next-line StringLiteral: a default that names no language Circle speaks leaves the page English, as no header does
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      // Stryker disable next-line StringLiteral: split always answers at least one part, so the default is never used
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag, q: q === undefined ? 1 : Number(q), index };
    })
    .filter(({ q }) => q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const language = speak(tag);
    if (language) return language;
  }
  return 'en';
}
