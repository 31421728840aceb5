import { BUILTIN_CONFIG, type AppConfig } from './builtin';
import { isLanguage } from './languages';
import { isThemeName } from './themes';

export const UI_CONFIG_URL = '/assets/ui-config.json';

const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length < 2048;
const isInt = (v: unknown, min: number, max: number): v is number => Number.isInteger(v) && (v as number) >= min && (v as number) <= max;

/**
 * Merges the remote overrides over the built-in configuration, field by field: an unknown or
 * ill-typed field is ignored, so a broken file can never break the app.
 */
export function mergeConfig(base: AppConfig, remote: unknown): AppConfig {
  if (!remote || typeof remote !== 'object' || Array.isArray(remote)) return base;
  const r = remote as Record<string, unknown>;
  const out: AppConfig = { ...base, chatBot: { ...base.chatBot }, identityProvider: { ...base.identityProvider } };
  for (const key of ['appTitle', 'apiBaseUrl', 'eventBusUrl', 'docsBaseUrl', 'webPushPublicKey'] as const) {
    if (isText(r[key])) out[key] = r[key];
  }
  if (isInt(r.logLevel, 0, 5)) out.logLevel = r.logLevel;
  if (isInt(r.mobileBreakpoint, 240, 2000)) out.mobileBreakpoint = r.mobileBreakpoint;
  if (isLanguage(r.defaultLanguage)) out.defaultLanguage = r.defaultLanguage;
  if (isThemeName(r.defaultTheme)) out.defaultTheme = r.defaultTheme;
  const chat = r.chatBot as Record<string, unknown> | undefined;
  if (chat && typeof chat === 'object') {
    if (isText(chat.v1)) out.chatBot.v1 = chat.v1;
    if (isText(chat.v2)) out.chatBot.v2 = chat.v2;
  }
  const idp = r.identityProvider as Record<string, unknown> | undefined;
  if (idp && typeof idp === 'object') {
    if (isText(idp.issuer)) out.identityProvider.issuer = idp.issuer;
    if (isText(idp.clientId)) out.identityProvider.clientId = idp.clientId;
    if (isText(idp.scope)) out.identityProvider.scope = idp.scope;
  }
  return out;
}

let active: AppConfig = BUILTIN_CONFIG;

export function config(): AppConfig {
  return active;
}

/** Loads assets/ui-config.json over the built-in configuration; on any failure the built-in one stays. */
export async function loadConfig(fetcher: typeof fetch = fetch, log = console): Promise<AppConfig> {
  try {
    // No extra headers: the request must match index.html's preload of the same file to reuse it.
    const response = await fetcher(UI_CONFIG_URL);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    active = mergeConfig(BUILTIN_CONFIG, await response.json());
  } catch (error) {
    log.error('Unable to load remote config url', error);
    active = BUILTIN_CONFIG;
  }
  return active;
}
