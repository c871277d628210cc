/**
 * A device's newest values: what the server had when the page loaded, overlaid with what
 * arrives live. Keys the device type does not define are shown, and flagged.
 */
import { Alert, Empty, Flex, Skeleton, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/dates';
import { useLiveDevice } from '../../../lib/live/live-hooks';
import { latestDataQueryOptions } from '../api/latest-api';

interface Row {
  Key: string;
  Name: string;
  Unit: string;
  Value: number | string;
  Defined: boolean;
}

function formatValue(value: number | string): string {
  return typeof value === 'number' ? String(Math.round(value * 1000) / 1000) : value;
}

export function LiveValues({ g, sn }: { g: number; sn: string }) {
  const { t } = useTranslation();
  const latest = useQuery(latestDataQueryOptions(g, sn));
  const live = useLiveDevice(sn);
  if (latest.isPending) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (latest.isError) return <Alert type="error" showIcon title={t('live.failed')} />;
  const known = new Map(latest.data.Points.map((p) => [p.Key, p]));
  const liveNewer = live.time !== undefined && (latest.data.Time === null || live.time >= latest.data.Time);
  const rows: Row[] = latest.data.Points.map((p) => ({ ...p, Value: liveNewer ? (live.data[p.Key] ?? p.Value) : p.Value }));
  if (liveNewer) {
    for (const [key, value] of Object.entries(live.data)) {
      if (!known.has(key)) rows.push({ Key: key, Name: key, Unit: '', Value: value, Defined: false });
    }
  }
  const time = liveNewer ? live.time : latest.data.Time;
  const codes = live.codes;
  if (rows.length === 0) return <Empty description={t('live.empty')} />;
  return (
    <Flex vertical gap={8}>
      {time != null && (
        <Typography.Text type="secondary" aria-live="off">
          {t('live.updated', { time: formatDateTime(time) })}
        </Typography.Text>
      )}
      {codes && codes.length > 0 && (
        <div>
          {t('live.alarms')}:{' '}
          {codes.map((c) => (
            <Tag key={c} color="warning">
              {c}
            </Tag>
          ))}
        </div>
      )}
      <Table<Row>
        aria-label={t('live.tab')}
        size="small"
        rowKey="Key"
        pagination={false}
        dataSource={rows}
        columns={[
          {
            key: 'name',
            title: t('live.key'),
            render: (_, row) => (
              <span title={row.Defined ? row.Key : t('live.notDefined')}>
                {row.Name}
                {row.Defined ? null : ' *'}
              </span>
            ),
          },
          {
            key: 'value',
            title: t('live.value'),
            align: 'right',
            render: (_, row) => (
              <span data-key={row.Key}>
                {formatValue(row.Value)}
                {row.Unit ? ` ${row.Unit}` : ''}
              </span>
            ),
          },
        ]}
      />
    </Flex>
  );
}
