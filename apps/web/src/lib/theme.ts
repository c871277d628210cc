/**
 * Light and dark skins. The theme is per user (server config `Theme`), mirrored in
 * localStorage 'sluice.theme' so public/theme-boot.js can apply it before first paint.
 */
import { useSyncExternalStore } from 'react';
import { theme as antdTheme, type ThemeConfig } from 'antd';

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
  return {
    algorithm: name === 'dark' ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    token: {
      colorPrimary: BRAND_GREEN,
      colorSuccess: BRAND_GREEN,
      colorWarning: WARNING_AMBER,
      colorLink: BRAND_GREEN,
      borderRadius: 6,
    },
    components: {
      Layout:
        name === 'dark'
          ? { headerBg: '#1f1f1f', siderBg: '#1f1f1f', bodyBg: '#141414' }
          : { headerBg: '#ffffff', siderBg: '#ffffff', bodyBg: '#f5f7f4' },
    },
  };
}
