import type { Language } from './languages';

/**
 * The configuration built into the app. assets/ui-config.json is merged over it at start.
 * The Node server reads it too, to allow exactly these endpoints in its Content-Security-Policy.
 */
export interface IdentityProviderConfig {
  issuer: string;
  clientId: string;
  scope: string;
}

export interface AppConfig {
  appTitle: string;
  apiBaseUrl: string;
  eventBusUrl: string;
  docsBaseUrl: string;
  chatBot: { v1: string; v2: string };
  webPushPublicKey: string;
  identityProvider: IdentityProviderConfig;
  logLevel: number;
  mobileBreakpoint: number;
  /** The language of a first visit; unset, the browser's languages decide (then English). */
  defaultLanguage?: Language;
  defaultTheme: 'DEEPPURPLE_AMBER' | 'INDIGO_PINK' | 'PINK_BLUEGREY' | 'PURPLE_GREEN';
}

export const BUILTIN_CONFIG: Readonly<AppConfig> = Object.freeze({
  appTitle: 'Circle',
  apiBaseUrl: '/api/',
  eventBusUrl: 'wss://events.circle.example.org/eventbus',
  docsBaseUrl: 'https://docs.circle.example.org/',
  chatBot: {
    v1: '/api/chatbot/v1/query',
    v2: '/api/chatbot/v2/query',
  },
  // A P-256 public key in URL-safe base64 (65 bytes), as PushManager.subscribe expects.
  webPushPublicKey: 'BIMGo1jGcNoERVIcMKWMQmIFVMjDhGpnoCje4wAowvyq0O9LpLXYC0RsKv_WjUdF23eDkFoiWNiWwBl96tj3tHs',
  // A relative issuer is on the app's own origin: the provider the mock server embeds under /oidc.
  // A deployment names its own (Keycloak, Auth0, Entra…) in assets/ui-config.json.
  identityProvider: {
    issuer: '/oidc',
    clientId: 'circle-web',
    scope: 'openid profile email offline_access',
  },
  logLevel: 3,
  mobileBreakpoint: 599,
  defaultTheme: 'INDIGO_PINK',
});
