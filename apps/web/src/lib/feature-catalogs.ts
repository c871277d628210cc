/**
 * Catalogs that load with their screens rather than at start, so the sign-in page and the first
 * paint of other screens do not carry them: the texts of data definitions, device types, alarms,
 * apps and SIM accounts (locales/device-types.*.ts). Both languages load together, so switching
 * language stays instant; keys and types are those of the start-up catalogs (Catalog). The
 * texts every signed-in screen shares come with the shell instead (lib/console-catalog.ts).
 */
import { i18n } from './i18n';

let deviceTypes: Promise<void> | undefined;

/** Adds the device-types catalog to i18next (once; a failed load is tried again next time). */
export function loadDeviceTypesCatalog(): Promise<void> {
  deviceTypes ??= Promise.all([import('../locales/device-types.en-US'), import('../locales/device-types.zh-CN')]).then(
    ([en, zh]) => {
      i18n.addResourceBundle('en-US', 'translation', { ...en.deviceTypesEnUS, rule: en.deviceTypesRulesEnUS }, true, false);
      i18n.addResourceBundle('zh-CN', 'translation', { ...zh.deviceTypesZhCN, rule: zh.deviceTypesRulesZhCN }, true, false);
    },
    (error: unknown) => {
      deviceTypes = undefined;
      throw error;
    },
  );
  return deviceTypes;
}

/** A page loader that also loads the device-types catalog. */
export function withDeviceTypesCatalog<T>(load: () => Promise<T>): () => Promise<T> {
  return () => Promise.all([load(), loadDeviceTypesCatalog()]).then(([page]) => page);
}
