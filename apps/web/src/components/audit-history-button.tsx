/**
 * A record's History: opens the audit trail filtered to the record and what belongs to it (a
 * device's cameras and commands, a type's parts). Shown only to users who may read the trail
 * (the server refuses the others anyway).
 */
import { Button } from 'antd';
import { HistoryOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AuditKind } from '@sluice/shared/audit.schema';
import { useMayOperate } from '../lib/operates';
import { ROUTE_CATALOG } from '../lib/route-catalog';

/** Where the audit trail lists one record's history. */
export const auditHistoryPath = (kind: AuditKind, id: string | number) =>
  `${ROUTE_CATALOG.audit.path}?${new URLSearchParams({ ResourceKind: kind, ResourceId: String(id) }).toString()}`;

export function AuditHistoryButton({
  kind,
  id,
  name,
  type = 'default',
}: {
  kind: AuditKind;
  id: string | number;
  /** The record's name, for the button's accessible name. */
  name: string;
  type?: 'default' | 'link';
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const may = useMayOperate('audit.view');
  if (!may) return null;
  return (
    <Button
      type={type}
      size={type === 'link' ? 'small' : 'middle'}
      icon={<HistoryOutlined aria-hidden />}
      aria-label={t('audit.historyOf', { name })}
      onClick={() => {
        void navigate(auditHistoryPath(kind, id));
      }}
    >
      {t('audit.history')}
    </Button>
  );
}
