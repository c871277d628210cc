/**
 * dayjs, following the UI language (zh-cn / en). Import dates from here rather than from
 * 'dayjs' so the locale is always set; the signed-in shell loads this module.
 */
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { currentLanguage, i18n } from './i18n';

/** Spec §9 date formats. */
export const DATE_FORMAT = 'YYYY-MM-DD';
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

export function dayjsLocale(): 'zh-cn' | 'en' {
  return currentLanguage() === 'zh-CN' ? 'zh-cn' : 'en';
}

function syncLocale(): void {
  dayjs.locale(dayjsLocale());
}
syncLocale();
i18n.on('languageChanged', syncLocale);

export function formatDate(value: dayjs.ConfigType): string {
  return dayjs(value).format(DATE_FORMAT);
}

export function formatDateTime(value: dayjs.ConfigType): string {
  return dayjs(value).format(DATE_TIME_FORMAT);
}

export { dayjs };
