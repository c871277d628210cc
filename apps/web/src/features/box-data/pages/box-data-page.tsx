/**
 * /sys/boxData (spec §2 lists it in one menu without details): what each device's box reported,
 * as it sent it — every device the user reaches with its state, when it last reported and its
 * values by key, name and unit; for a chosen day, that day's last values with their minimum,
 * average and maximum. A way for an administrator to see what reaches the server, station by
 * station, before any screen interprets it.
 */
import { useMemo, useState } from 'react';
import { Button, DatePicker, Flex, Input, Select, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { displayValue, isDataType } from '@sluice/shared/data-types';
import type { DataDefineDto } from '@sluice/shared/data-define.schema';
import { QueryState } from '../../../components/query-state';
import { DeviceStateTag } from '../../../components/sites/state-tag';
import { useDataDefineLibrary } from '../../../lib/common-params';
import { DATE_FORMAT, dayjs } from '../../../lib/dates';
import { DATE_TIME_WIDTH, DateTimeText } from '../../../components/cells';
import { useGroupId } from '../../../lib/group';
import { homePath } from '../../../lib/paths';
import { useAllProjects } from '../../../lib/sites';
import { shownFormat, useStoredName } from '../../../lib/stored-names';
import { MOBILE_QUERY, useMediaQuery } from '../../../lib/use-media-query';
import { boxDataQueryOptions, type BoxDataRow } from '../api/box-data-api';

interface ValueRow {
  Key: string;
  Value: number | string;
  Min?: number;
  Avg?: number;
  Max?: number;
}

function BoxValues({ row, library, day }: { row: BoxDataRow; library: Map<string, DataDefineDto>; day: boolean }) {
  const { t } = useTranslation();
  const name = useStoredName();
  const rows: ValueRow[] = Object.entries(row.Data)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([Key, Value]) => ({ Key, Value, ...row.Stats?.[Key] }));
  const shown = (key: string, value: number | string | undefined) => {
    if (value === undefined) return '—';
    const define = library.get(key);
    const text =
      define && isDataType(define.DataType)
        ? displayValue(define.DataType, shownFormat(name, define.DataType, define.Format), value)
        : String(value);
    return define?.Unit ? `${text} ${define.Unit}` : text;
  };
  const columns: TableColumnsType<ValueRow> = [
    { key: 'key', title: t('boxData.key'), render: (_, r) => <Typography.Text code>{r.Key}</Typography.Text> },
    { key: 'name', title: t('boxData.name'), render: (_, r) => name(library.get(r.Key)?.DataName) || '—' },
    {
      key: 'value',
      title: t(day ? 'boxData.lastValue' : 'boxData.value'),
      align: 'right',
      render: (_, r) => shown(r.Key, r.Value),
    },
  ];
  if (day)
    columns.push(
      { key: 'min', title: t('boxData.min'), align: 'right', render: (_, r) => shown(r.Key, r.Min) },
      { key: 'avg', title: t('boxData.avg'), align: 'right', render: (_, r) => shown(r.Key, r.Avg) },
      { key: 'max', title: t('boxData.max'), align: 'right', render: (_, r) => shown(r.Key, r.Max) },
    );
  if (rows.length === 0) return <Typography.Text type="secondary">{t('boxData.noValues')}</Typography.Text>;
  return (
    <Table<ValueRow>
      size="small"
      rowKey="Key"
      pagination={false}
      scroll={{ x: 'max-content' }}
      aria-label={t('boxData.valuesOf', { name: row.DeviceName || row.DeviceSn })}
      columns={columns}
      dataSource={rows}
    />
  );
}

export function BoxDataPage() {
  const { t } = useTranslation();
  const g = useGroupId();
  const mobile = useMediaQuery(MOBILE_QUERY);
  const [day, setDay] = useState<string>();
  const [projectId, setProjectId] = useState<number>();
  const [search, setSearch] = useState('');
  const query = useQuery(boxDataQueryOptions(g, { Dt: day, ProjectId: projectId }));
  const sites = useAllProjects(g);
  const libraryQuery = useDataDefineLibrary();
  const library = useMemo(() => new Map((libraryQuery.data ?? []).map((d) => [d.DataKey, d])), [libraryQuery.data]);
  const siteOptions = useMemo(() => {
    const all = (sites.data ?? []).filter((s) => s.ProjectKind !== 'client');
    const nameOf = new Map(all.map((s) => [s.Id, s.Name]));
    return all.map((s) => {
      const parent = s.ProjectKind === 'station' ? nameOf.get(s.ParentId) : undefined;
      return { value: s.Id, label: parent ? `${parent} / ${s.Name}` : s.Name };
    });
  }, [sites.data]);
  const rows = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const all = query.data ?? [];
    return needle
      ? all.filter((r) => r.DeviceName.toLowerCase().includes(needle) || r.DeviceSn.toLowerCase().includes(needle))
      : all;
  }, [query.data, search]);

  const columns: TableColumnsType<BoxDataRow> = [
    {
      key: 'device',
      title: t('boxData.device'),
      render: (_, r) => (
        <Flex vertical>
          <Link to={homePath('device', r.DeviceSn)}>{r.DeviceName || r.DeviceSn}</Link>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.DeviceSn}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'state',
      title: t('boxData.state'),
      width: 130,
      render: (_, r) => <DeviceStateTag device={{ DeviceSn: r.DeviceSn, Online: r.Online, State: r.State }} />,
    },
    {
      key: 'time',
      title: t('boxData.reported'),
      width: DATE_TIME_WIDTH,
      render: (_, r) =>
        r.Time === null ? (
          <Typography.Text type="secondary">{t('boxData.never')}</Typography.Text>
        ) : (
          <DateTimeText value={r.Time} />
        ),
    },
  ];
  if (!mobile)
    columns.push({
      key: 'count',
      title: t('boxData.count'),
      width: 110,
      align: 'right',
      render: (_, r) => Object.keys(r.Data).length,
    });

  return (
    <Flex vertical gap={16}>
      <div>
        <Typography.Title level={1} style={{ fontSize: 20, margin: 0 }}>
          {t('routes.boxData')}
        </Typography.Title>
        <Typography.Text type="secondary">{t('boxData.description')}</Typography.Text>
      </div>
      <Flex gap={8} wrap role="search" aria-label={t('boxData.filters')}>
        <Input.Search
          allowClear
          style={{ width: mobile ? '100%' : 240 }}
          placeholder={t('boxData.search')}
          aria-label={t('boxData.search')}
          onSearch={setSearch}
          onChange={(e) => {
            if (e.target.value === '') setSearch('');
          }}
        />
        <Select
          allowClear
          style={{ width: mobile ? '100%' : 240 }}
          placeholder={t('boxData.site')}
          aria-label={t('boxData.site')}
          options={siteOptions}
          value={projectId}
          showSearch={{ optionFilterProp: 'label' }}
          onChange={(value: number | undefined) => {
            setProjectId(value);
          }}
        />
        <DatePicker
          allowClear
          placeholder={t('boxData.latest')}
          aria-label={t('boxData.day')}
          value={day ? dayjs(day, DATE_FORMAT) : null}
          disabledDate={(d) => d.isAfter(dayjs(), 'day')}
          onChange={(value) => {
            setDay(value ? value.format(DATE_FORMAT) : undefined);
          }}
        />
        <Button
          icon={<ReloadOutlined aria-hidden />}
          aria-label={t('common.refresh')}
          onClick={() => {
            void query.refetch();
          }}
        />
      </Flex>
      <QueryState query={query} empty={rows.length === 0} emptyText={t(search ? 'resource.noMatch' : 'boxData.empty')}>
        <Table<BoxDataRow>
          rowKey="DeviceSn"
          size={mobile ? 'small' : 'middle'}
          columns={columns}
          dataSource={rows}
          aria-label={t('routes.boxData')}
          scroll={{ x: 'max-content' }}
          pagination={{ pageSize: 20, hideOnSinglePage: true, showTotal: (total) => t('resource.total', { count: total }) }}
          expandable={{
            expandedRowRender: (r) => <BoxValues row={r} library={library} day={day !== undefined} />,
            rowExpandable: () => true,
          }}
        />
      </QueryState>
    </Flex>
  );
}
