/**
 * /sys/notifyLog: every delivery attempt of alarm notifications, newest first, on the resource
 * table: when, which alarm, to whom over which channel and rule, the attempt, its state and the
 * reason of a failure or cancellation; a failed one can be sent again.
 */
import { Space, Tag, Typography } from 'antd';
import { RedoOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { DELIVERY_STATUSES, type DeliveryStatus, type NotifyDeliveryDto } from '@sluice/shared/notify.schema';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../components/resource-table/resource-types';
import { DATE_TIME_WIDTH, DateTimeText } from '../../../components/cells';
import { deliveriesResource, retryDelivery } from '../api/notifications-api';
import { KindTag } from '../components/kind-tag';

const STATUS_COLORS: Record<DeliveryStatus, string> = {
  pending: 'processing',
  held: 'warning',
  sending: 'processing',
  sent: 'success',
  failed: 'error',
  cancelled: 'default',
};

function StatusTag({ status }: { status: DeliveryStatus }) {
  const { t } = useTranslation();
  return <Tag color={STATUS_COLORS[status]}>{t(`notify.log.statuses.${status}`)}</Tag>;
}

function LevelText({ level }: { level: number }) {
  const { t } = useTranslation();
  return t('notify.rules.levelValue', { level });
}

const config: ResourceTableConfig<NotifyDeliveryDto> = {
  resource: deliveriesResource,
  rowName: (row) => `${row.Code} → ${row.RecipientName || row.Recipient}`,
  search: { placeholder: 'notify.log.searchPlaceholder' },
  empty: 'notify.log.empty',
  defaultSort: { key: 'CreatedAt', order: 'desc' },
  filters: [
    {
      param: 'Status',
      label: 'notify.log.status',
      allLabel: 'notify.log.allStatuses',
      options: DELIVERY_STATUSES.map((s) => ({ value: s, labelKey: `notify.log.statuses.${s}` as const })),
    },
  ],
  columns: [
    { key: 'CreatedAt', title: 'notify.log.created', sortKey: 'CreatedAt', format: 'dateTime' },
    {
      key: 'alarm',
      title: 'notify.log.alarm',
      render: (row) => (
        <Space orientation="vertical" size={0}>
          <span>
            <Typography.Text code>{row.Code}</Typography.Text> {row.Description}
          </span>
          <Typography.Text type="secondary">{row.DeviceSn}</Typography.Text>
        </Space>
      ),
    },
    {
      key: 'recipient',
      title: 'notify.log.recipient',
      render: (row) => (
        <Space orientation="vertical" size={0}>
          <span>
            <KindTag kind={row.Kind} />
            {row.RecipientName || row.Recipient || '—'}
          </span>
          {row.RecipientName && <Typography.Text type="secondary">{row.Recipient}</Typography.Text>}
        </Space>
      ),
    },
    {
      key: 'rule',
      title: 'notify.log.rule',
      render: (row) => `${row.RuleName} · ${row.ChannelName}`,
      onCards: false,
    },
    {
      key: 'Level',
      title: 'notify.rules.level',
      sortKey: 'Level',
      render: (row) => <LevelText level={row.Level} />,
      onCards: false,
    },
    { key: 'Attempt', title: 'notify.log.attempt', render: (row) => String(row.Attempt) },
    { key: 'Status', title: 'notify.log.status', sortKey: 'Status', render: (row) => <StatusTag status={row.Status} /> },
    {
      key: 'DueAt',
      title: 'notify.log.due',
      sortKey: 'DueAt',
      width: DATE_TIME_WIDTH,
      render: (row) => <DateTimeText value={row.DoneAt ?? row.DueAt} />,
    },
    {
      key: 'Error',
      title: 'notify.log.reason',
      render: (row) =>
        row.Error ? <Typography.Text type={row.Status === 'failed' ? 'danger' : 'secondary'}>{row.Error}</Typography.Text> : '—',
      ellipsis: true,
    },
  ],
  actions: [
    {
      key: 'retry',
      label: 'notify.log.retry',
      namedLabel: 'notify.log.retryNamed',
      icon: <RedoOutlined aria-hidden />,
      visible: (row) => row.Status === 'failed',
      run: (row) => retryDelivery(row.Id),
      done: 'notify.log.retried',
    },
  ],
};

export function NotifyLogPage() {
  const { t } = useTranslation();
  return <ResourceTable config={config} title={t('routes.notifyLog')} description={t('notify.log.description')} syncUrl />;
}
