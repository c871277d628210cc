/** The names of the audit trail's kinds and actions in the user's language (from @sluice/shared/audit.schema). */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { AUDIT_ACTIONS, AUDIT_KINDS, type AuditAction, type AuditKind } from '@sluice/shared/audit.schema';
import { currentLanguage, isLanguage } from '../../../lib/i18n';

export function useAuditLabels() {
  const { i18n } = useTranslation();
  const language = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : currentLanguage();
  return useMemo(
    () => ({
      kind: (kind: AuditKind | '') => (kind === '' ? '' : AUDIT_KINDS[kind][language]),
      action: (action: AuditAction) => AUDIT_ACTIONS[action][language],
    }),
    [language],
  );
}
