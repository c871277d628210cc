/**
 * Names stored in one language (the demo library's are Chinese) shown in the user's language:
 * a name with an English entry in the shared glossary reads in English for an English user;
 * any other name shows as stored. Forms and exports keep the stored name.
 */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { isDataType, optionsOf } from '@sluice/shared/data-types';
import { pickLanguage } from '@sluice/shared/i18n';
import { storedName } from '@sluice/shared/stored-names';

export type NameOf = (stored: string | null | undefined) => string;

export function useStoredName(): NameOf {
  const { i18n } = useTranslation();
  const language = pickLanguage(i18n.language);
  return useCallback((stored) => (stored ? storedName(language, stored) : ''), [language]);
}

/** A boolean, enum or select point's Format with its option labels shown in the user's language. */
export function shownFormat(name: NameOf, dataType: string | undefined, format: string): string {
  if (!dataType || !isDataType(dataType)) return format;
  const options = optionsOf(dataType, format);
  if (options.length === 0) return format;
  return JSON.stringify(Object.fromEntries(options.map((o) => [o.value, name(o.label)])));
}
