/**
 * i18next set-up. Language: the `lang` cookie, else the browser language (zh* → zh-CN,
 * en* → en-US), else en-US. Switching is instant: i18next re-renders, the cookie and
 * <html lang> follow, and dayjs switches locale (Ant Design's locale follows in the providers).
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES, pickLanguage, type Language } from '@sluice/shared/i18n';
import { enUS, type BaseCatalog, type Catalog } from '../locales/en-US';
import { zhCN } from '../locales/zh-CN';
import { LANGUAGE_COOKIE_DAYS, readCookie, writeCookie } from './cookies';

export type { Language };
export { LANGUAGES };

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Catalog };
  }
}

type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** Every key of the catalogs, dotted: 'routes.home', 'rule.mobile'. */
export type MessageKey = Leaves<Catalog>;

/** The catalogs loaded at start (screens may add theirs: lib/feature-catalogs.ts). */
export const catalogs: Record<Language, BaseCatalog> = { 'en-US': enUS, 'zh-CN': zhCN };

export function detectLanguage(): Language {
  const fromCookie = readCookie('lang');
  const browser = typeof navigator === 'undefined' ? undefined : navigator.language;
  return pickLanguage(fromCookie, browser);
}

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: {
    'en-US': { translation: enUS },
    'zh-CN': { translation: zhCN },
  },
  lng: detectLanguage(),
  fallbackLng: 'en-US',
  supportedLngs: [...LANGUAGES],
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
  react: { useSuspense: false },
});

// dayjs follows the language in lib/dates.ts, loaded with the signed-in shell (the sign-in page shows no dates).
function applyLanguageSideEffects(lang: Language): void {
  document.documentElement.lang = lang;
}
applyLanguageSideEffects(currentLanguage());

export function currentLanguage(): Language {
  return pickLanguage(i18n.resolvedLanguage ?? i18n.language);
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Switches the UI language at once and remembers it in the `lang` cookie (1 year). */
export async function changeLanguage(lang: Language): Promise<void> {
  writeCookie('lang', lang, LANGUAGE_COOKIE_DAYS);
  applyLanguageSideEffects(lang);
  if (currentLanguage() !== lang || i18n.language !== lang) await i18n.changeLanguage(lang);
}

/** Whether a dotted key exists in the catalogs (for message references arriving as data). */
export function isMessageKey(key: string): key is MessageKey {
  let node: unknown = enUS;
  for (const part of key.split('.')) {
    // Not in the start-up catalog: maybe in one a screen loaded (lib/feature-catalogs.ts).
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, part))
      return typeof i18n.getResource('en-US', 'translation', key) === 'string';
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string';
}
