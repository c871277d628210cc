/**
 * Light and dark skins. The theme is per user (server config `Theme`), mirrored in
 * localStorage 'sluice.theme' so public/theme-boot.js can apply it before first paint.
 */
import { useSyncExternalStore } from 'react';
import { theme as antdTheme, type ThemeConfig } from 'antd';
import { AA_TEXT, contrastRatio, mix, readableOn } from './contrast';

export type ThemeName = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'sluice.theme';

/** Brand palette (spec §1): green brand, amber warning, grey for offline things (map markers). */
export const BRAND_GREEN = '#6eba44';
export const WARNING_AMBER = '#faad14';
export const OFFLINE_GREY = '#8c8c8c';
/** CSS variables carrying the palette, defined in index.css, for code outside Ant Design. */
export const CSS_VARS = {
  brand: 'var(--sluice-brand)',
  warning: 'var(--sluice-warning)',
  offline: 'var(--sluice-offline)',
} as const;

export const PAGE_BACKGROUND: Record<ThemeName, string> = { light: '#ffffff', dark: '#141414' };
/** The background of the page around cards and tables (Layout's body). */
export const LAYOUT_BACKGROUND: Record<ThemeName, string> = { light: '#f5f7f4', dark: '#141414' };

const ERROR_RED = '#ff4d4f';
const BLACK = '#000000';

/**
 * Light theme: the brand green and the warning amber read at 2.4:1 and 1.8:1 on white, so they
 * stay accents and fills (buttons, map markers, the logo) and text, links and tags use colours
 * derived from them that pass WCAG AA (4.5:1) on the page, the layout and the tag's own tint.
 * lib/theme.test.ts measures both themes.
 */
const LIGHT_TINTS = {
  successBg: mix(BRAND_GREEN, '#ffffff', 0.9),
  successBorder: mix(BRAND_GREEN, '#ffffff', 0.55),
  warningBg: mix(WARNING_AMBER, '#ffffff', 0.9),
  warningBorder: mix(WARNING_AMBER, '#ffffff', 0.55),
  errorBg: mix(ERROR_RED, '#ffffff', 0.92),
  errorBorder: mix(ERROR_RED, '#ffffff', 0.6),
  greenTagBg: '#f6ffed',
};
const lightGrounds = (tint: string) => [PAGE_BACKGROUND.light, LAYOUT_BACKGROUND.light, tint];
export const LIGHT_TEXT = {
  green: readableOn(BRAND_GREEN, lightGrounds(LIGHT_TINTS.successBg), BLACK),
  amber: readableOn(WARNING_AMBER, lightGrounds(LIGHT_TINTS.warningBg), BLACK),
  red: readableOn(ERROR_RED, lightGrounds(LIGHT_TINTS.errorBg), BLACK),
  greenTag: readableOn('#389e0d', lightGrounds(LIGHT_TINTS.greenTagBg), BLACK),
};
/**
 * Dark theme: Ant Design's dark derivation of the brand and the amber passes; red and the
 * primary colour as text on its selected tint need lifting toward white.
 */
const darkDerived = antdTheme.getDesignToken({
  algorithm: antdTheme.darkAlgorithm,
  token: { colorPrimary: BRAND_GREEN, colorError: ERROR_RED },
});
const darkGrounds = (tint: string) => [PAGE_BACKGROUND.dark, darkDerived.colorBgElevated, tint];
export const DARK_TEXT = {
  green: readableOn(darkDerived.colorPrimary, darkGrounds(darkDerived.colorPrimaryBg), '#ffffff'),
  /** A seed: the dark algorithm darkens the red it is given, so the seed is lifted until its result reads. */
  red: darkErrorSeed(),
};

function darkErrorSeed(): string {
  for (let step = 0; step <= 20; step++) {
    const seed = mix(ERROR_RED, '#ffffff', step / 20);
    const derived = antdTheme.getDesignToken({ algorithm: antdTheme.darkAlgorithm, token: { colorError: seed } });
    if (darkGrounds(derived.colorErrorBg).every((bg) => contrastRatio(derived.colorError, bg) >= AA_TEXT)) return seed;
  }
  return '#ffffff';
}

/** Text on a brand-green fill (a primary button, a checked radio button), in both themes. */
export const ON_BRAND_TEXT = readableOn(BRAND_GREEN, [BRAND_GREEN, mix(BRAND_GREEN, BLACK, 0.15)], BLACK);

export function isThemeName(value: unknown): value is ThemeName {
  return value === 'light' || value === 'dark';
}

function readStoredTheme(): ThemeName {
  try {
    const stored = window.localStorage.getItem(THEME_STORAGE_KEY);
    return isThemeName(stored) ? stored : 'light';
  } catch {
    return 'light';
  }
}

let current: ThemeName = readStoredTheme();
const listeners = new Set<() => void>();

function applyToDocument(name: ThemeName): void {
  const root = document.documentElement;
  root.dataset.theme = name;
  root.style.colorScheme = name;
  root.style.backgroundColor = PAGE_BACKGROUND[name];
}
applyToDocument(current);

export function getTheme(): ThemeName {
  return current;
}

/** Applies a theme at once and remembers it for the next start. */
export function applyTheme(name: ThemeName): void {
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, name);
  } catch {
    // storage blocked: the theme still applies for this visit
  }
  applyToDocument(name);
  if (name === current) return;
  current = name;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useThemeName(): ThemeName {
  return useSyncExternalStore(subscribe, getTheme, getTheme);
}

export function themeConfig(name: ThemeName): ThemeConfig {
  const light = name === 'light';
  const primaryText = light ? LIGHT_TEXT.green : DARK_TEXT.green;
  return {
    algorithm: light ? antdTheme.defaultAlgorithm : antdTheme.darkAlgorithm,
    token: {
      colorPrimary: BRAND_GREEN,
      borderRadius: 6,
      ...(light
        ? {
            colorSuccess: LIGHT_TEXT.green,
            colorSuccessBg: LIGHT_TINTS.successBg,
            colorSuccessBorder: LIGHT_TINTS.successBorder,
            colorWarning: LIGHT_TEXT.amber,
            colorWarningBg: LIGHT_TINTS.warningBg,
            colorWarningBorder: LIGHT_TINTS.warningBorder,
            colorError: LIGHT_TEXT.red,
            colorErrorBg: LIGHT_TINTS.errorBg,
            colorErrorBorder: LIGHT_TINTS.errorBorder,
            colorLink: LIGHT_TEXT.green,
            green7: LIGHT_TEXT.greenTag,
            // Hints and empty states: Ant Design's 0.45 black reads 3.2:1 on the layout.
            colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
            colorTextDescription: 'rgba(0, 0, 0, 0.6)',
          }
        : {
            colorSuccess: BRAND_GREEN,
            colorWarning: WARNING_AMBER,
            colorLink: DARK_TEXT.green,
            colorError: DARK_TEXT.red,
            colorTextTertiary: 'rgba(255, 255, 255, 0.55)',
            colorTextDescription: 'rgba(255, 255, 255, 0.55)',
          }),
    },
    components: {
      Layout: light
        ? { headerBg: '#ffffff', siderBg: '#ffffff', bodyBg: LAYOUT_BACKGROUND.light }
        : { headerBg: '#1f1f1f', siderBg: '#1f1f1f', bodyBg: LAYOUT_BACKGROUND.dark },
      Button: { primaryColor: ON_BRAND_TEXT },
      Radio: { buttonSolidCheckedColor: ON_BRAND_TEXT },
      // Where the primary colour is text (the selected menu item, tab and page), its readable form.
      Menu: { itemSelectedColor: primaryText, horizontalItemSelectedColor: primaryText },
      Tabs: { itemSelectedColor: primaryText, itemActiveColor: primaryText, itemHoverColor: primaryText },
      Pagination: { itemActiveColor: primaryText, itemActiveColorHover: primaryText },
    },
  };
}
