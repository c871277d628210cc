/**
 * A device's newest values, by the panels of its page: what the server had when the page
 * loaded, overlaid with what arrives live. Each panel lists its data points with their names,
 * units and formats (an empty panel says so); points without a panel, and keys the device does
 * not define (flagged), come last.
 */
import { Alert, Empty, Flex, Skeleton, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { displayValue, type DataType } from '@sluice/shared/data-types';
import { formatDateTime } from '../../../lib/dates';
import { deviceLayoutQueryOptions } from '../api/device-data-api';
import { useCurrentValues } from './use-current-values';

interface Row {
  Key: string;
  Name: string;
  Unit: string;
  DataType: DataType | undefined;
  Format: string;
  Defined: boolean;
}

interface Section {
  key: string;
  title: string;
  rows: Row[];
}

function ValueTable({
  title,
  rows,
  valueOf,
}: {
  title: string;
  rows: Row[];
  valueOf: (key: string) => number | string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <section aria-label={title}>
      <Typography.Title level={3} style={{ fontSize: 14, margin: '0 0 6px' }}>
        {title}
      </Typography.Title>
      <Table<Row>
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
            render: (_, row) => {
              const value = valueOf(row.Key);
              return (
                <span data-key={row.Key}>
                  {value === undefined ? '—' : row.DataType ? displayValue(row.DataType, row.Format, value) : String(value)}
                  {value !== undefined && row.Unit ? ` ${row.Unit}` : ''}
                </span>
              );
            },
          },
        ]}
      />
    </section>
  );
}

export function LiveValues({ g, sn }: { g: number; sn: string }) {
  const { t } = useTranslation();
  const { latest, liveNewer, liveData, valueOf, time } = useCurrentValues(g, sn);
  const layout = useQuery(deviceLayoutQueryOptions(sn));
  if (latest.isPending || layout.isPending) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (latest.isError || layout.isError) return <Alert type="error" showIcon title={t('live.failed')} />;

  const { defines, panels } = layout.data;
  const defined = new Set(defines.map((d) => d.DataKey));
  const rowOf = (d: (typeof defines)[number]): Row => ({
    Key: d.DataKey,
    Name: d.DataName,
    Unit: d.Unit,
    DataType: d.DataType,
    Format: d.Format,
    Defined: true,
  });
  const sections: Section[] = [...panels]
    .sort((a, b) => a.Sn - b.Sn)
    .map((p) => ({
      key: `panel-${String(p.Id)}`,
      title: p.PanelName,
      rows: defines.filter((d) => d.PanelId === p.Id).map(rowOf),
    }));
  const panelIds = new Set(panels.map((p) => p.Id));
  const others: Row[] = defines.filter((d) => d.PanelId === null || !panelIds.has(d.PanelId)).map(rowOf);
  // Keys the device's own data points do not name: named by its type's definitions when the server knows them.
  const seen = new Set(defined);
  for (const p of latest.data.Points) {
    if (seen.has(p.Key)) continue;
    seen.add(p.Key);
    others.push({ Key: p.Key, Name: p.Name, Unit: p.Unit, DataType: undefined, Format: '', Defined: p.Defined });
  }
  if (liveNewer) {
    for (const key of Object.keys(liveData)) {
      if (seen.has(key)) continue;
      seen.add(key);
      others.push({ Key: key, Name: key, Unit: '', DataType: undefined, Format: '', Defined: false });
    }
  }
  if (others.length > 0)
    sections.push({ key: 'others', title: sections.length > 0 ? t('live.others') : t('live.tab'), rows: others });

  if (sections.length === 0) return <Empty description={t('live.empty')} />;
  return (
    <Flex vertical gap={12}>
      <Typography.Text type="secondary">
        {time == null ? t('live.empty') : t('live.updated', { time: formatDateTime(time) })}
      </Typography.Text>
      {sections.map((s) => (
        <ValueTable key={s.key} title={s.title} rows={s.rows} valueOf={valueOf} />
      ))}
    </Flex>
  );
}
