/** One audit entry: who, from where, when, which record and call, and the record before and after. */
import { Descriptions, Drawer, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { QueryError } from '../../../components/query-state';
import { DateTimeText } from '../../../components/cells';
import { MOBILE_QUERY, useMediaQuery } from '../../../lib/use-media-query';
import { useAuditEntry } from '../api/audit-api';
import { AuditDiff } from './audit-diff';
import { useAuditLabels } from './audit-labels';

export function AuditEntryDrawer({ id, onClose }: { id: number | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const mobile = useMediaQuery(MOBILE_QUERY);
  const labels = useAuditLabels();
  const entry = useAuditEntry(id);
  const data = entry.data;
  const record = data ? [labels.kind(data.ResourceKind), data.ResourceName || data.ResourceId].filter(Boolean).join(' ') : '';
  return (
    <Drawer
      open={id !== undefined}
      onClose={onClose}
      size={mobile ? '100%' : 720}
      title={data ? t('audit.detailTitle', { action: labels.action(data.Action), record }) : t('audit.details')}
      destroyOnHidden
    >
      {entry.isError ? (
        <QueryError query={entry} title={t('audit.loadFailed')} />
      ) : !data ? (
        <Skeleton active />
      ) : (
        <>
          <Descriptions
            column={1}
            size="small"
            bordered
            style={{ marginBottom: 16 }}
            items={[
              { key: 'time', label: t('audit.time'), children: <DateTimeText value={data.At} /> },
              {
                key: 'who',
                label: t('audit.who'),
                children: data.UserName && data.UserName !== data.Account ? `${data.UserName} (${data.Account})` : data.Account,
              },
              { key: 'address', label: t('audit.address'), children: data.Address },
              { key: 'action', label: t('audit.action'), children: labels.action(data.Action) },
              {
                key: 'record',
                label: t('audit.record'),
                children:
                  `${labels.kind(data.ResourceKind)} ${data.ResourceName} ${data.ResourceId ? `#${data.ResourceId}` : ''}`.trim(),
              },
              ...(data.OwnerKind && (data.OwnerKind !== data.ResourceKind || data.OwnerId !== data.ResourceId)
                ? [{ key: 'owner', label: t('audit.belongsTo'), children: `${labels.kind(data.OwnerKind)} #${data.OwnerId}` }]
                : []),
              ...(data.GroupName ? [{ key: 'tenant', label: t('audit.tenant'), children: data.GroupName }] : []),
              { key: 'call', label: t('audit.call'), children: <Typography.Text code>{data.Route}</Typography.Text> },
            ]}
          />
          <AuditDiff before={data.Before} after={data.After} changed={data.Changed} />
        </>
      )}
    </Drawer>
  );
}
