/**
 * The roles every tenant starts with are stored by English names (DEFAULT_ROLE_NAMES); the
 * console shows them in the UI language. A renamed or new role shows its stored name.
 */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_ROLE_NAMES } from '@sluice/shared/role.schema';

export function useRoleName(): (stored: string) => string {
  const { t } = useTranslation();
  return useCallback(
    (stored: string) => {
      if (stored === DEFAULT_ROLE_NAMES.administrator) return t('roleNames.administrator');
      if (stored === DEFAULT_ROLE_NAMES.operator) return t('roleNames.operator');
      return stored;
    },
    [t],
  );
}
