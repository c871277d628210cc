/**
 * A device's History tab (spec §2 device info chart, §7 DeviceHisData, §9 default range 7 days):
 * its numeric data points (up to 8, by name with unit), a quick range (today, 24 h, 7 days,
 * 30 days) or chosen days, drawn as one line per point with zoom, or read as a table (also what a
 * screen reader is offered). Loading, failed (with retry) and "no data in this range" are told apart.
 */
import { useCallback, useMemo, useState } from 'react';
import {
  Alert,
  App,
  Button,
  DatePicker,
  Dropdown,
  Empty,
  Flex,
  Segmented,
  Select,
  Skeleton,
  Table,
  theme,
  Tooltip,
  Typography,
} from 'antd';
import { DownloadOutlined, ReloadOutlined, ZoomOutOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NUMERIC_DATA_TYPES, OPTION_DATA_TYPES, optionsOf } from '@sluice/shared/data-types';
import { QueryError, QueryState } from '../../../../components/query-state';
import { downloadFile } from '../../../../lib/api-transfer';
import { dayjs, formatDateTime } from '../../../../lib/dates';
import { errorMessage } from '../../../../lib/form-errors';
import { useMayOperate } from '../../../../lib/operates';
import { deviceLayoutQueryOptions } from '../../api/device-data-api';
import { historyQueryOptions, labResultsQueryOptions } from '../../api/device-history-api';
import { EChart } from '../../../../components/echart';
import {
  chartHeight,
  formatHistoryValue,
  hasData,
  historyLines,
  historyOption,
  withLabResults,
  type HistoryLine,
} from './history-option';
import { useStoredName } from '../../../../lib/stored-names';

export const MAX_SERIES = 8;
const PRESETS = ['today', 'day', 'week', 'month', 'custom'] as const;
type Preset = (typeof PRESETS)[number];
const HOUR_MS = 3_600_000;

/** The range a preset stands for at `now`; chosen days run from the first one's start to the last one's end. */
export function presetRange(preset: Preset, now: number, days: [Dayjs, Dayjs] | null): { from: number; to: number } | null {
  switch (preset) {
    case 'today':
      return { from: dayjs(now).startOf('day').valueOf(), to: now };
    case 'day':
      return { from: now - 24 * HOUR_MS, to: now };
    case 'week':
      return { from: now - 7 * 24 * HOUR_MS, to: now };
    case 'month':
      return { from: now - 30 * 24 * HOUR_MS, to: now };
    case 'custom':
      return days ? { from: days[0].startOf('day').valueOf(), to: Math.min(days[1].endOf('day').valueOf(), now) } : null;
  }
}

function HistoryTable({ lines, label }: { lines: HistoryLine[]; label: string }) {
  const { t } = useTranslation();
  const rows = useMemo(() => {
    const byTime = new Map<number, Record<string, number | null>>();
    for (const line of lines) {
      for (const [time, value] of line.points) {
        const row = byTime.get(time) ?? {};
        row[line.key] = value;
        byTime.set(time, row);
      }
      for (const [time, value] of line.lab ?? []) {
        const row = byTime.get(time) ?? {};
        row[`lab:${line.key}`] = value;
        byTime.set(time, row);
      }
    }
    return [...byTime.entries()].sort(([a], [b]) => b - a).map(([time, values]) => ({ time, values }));
  }, [lines]);
  return (
    <Table
      size="small"
      aria-label={label}
      rowKey="time"
      dataSource={rows}
      scroll={{ x: 'max-content' }}
      pagination={{ defaultPageSize: 10, showSizeChanger: false, simple: true }}
      columns={[
        { key: 'time', title: t('deviceHistory.time'), render: (_, row) => formatDateTime(row.time), width: 170 },
        ...lines.flatMap((line) => [
          {
            key: line.key,
            title: line.label,
            align: 'right' as const,
            render: (_: unknown, row: (typeof rows)[number]) => formatHistoryValue(line, row.values[line.key]),
          },
          ...(line.lab
            ? [
                {
                  key: `lab:${line.key}`,
                  title: t('deviceHistory.lab', { name: line.label }),
                  align: 'right' as const,
                  render: (_: unknown, row: (typeof rows)[number]) => formatHistoryValue(line, row.values[`lab:${line.key}`]),
                },
              ]
            : []),
        ]),
      ]}
    />
  );
}

/** A device's history; `stationId` draws its station's laboratory results beside the analyser's lines. */
export function HistoryPanel({ g, sn, stationId = null }: { g: number; sn: string; stationId?: number | null }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const layout = useQuery(deviceLayoutQueryOptions(sn));
  // Numbers are drawn as lines, states (boolean, enum, select) as bands under them.
  const numeric = useMemo(
    () =>
      (layout.data?.defines ?? []).filter(
        (d) => NUMERIC_DATA_TYPES.includes(d.DataType) || OPTION_DATA_TYPES.includes(d.DataType),
      ),
    [layout.data],
  );
  const states = useMemo(
    () =>
      new Map(
        numeric
          .filter((d) => OPTION_DATA_TYPES.includes(d.DataType))
          .map((d) => [d.DataKey, optionsOf(d.DataType, d.Format)] as const)
          .filter(([, options]) => options.length > 0),
      ),
    [numeric],
  );
  const [chosen, setChosen] = useState<string[] | null>(null);
  // Until the user chooses, the device's first number drawn as a line (else its first state).
  const first = numeric.find((d) => NUMERIC_DATA_TYPES.includes(d.DataType)) ?? numeric[0];
  const keys = chosen ?? (first ? [first.DataKey] : []);
  const [preset, setPreset] = useState<Preset>('week');
  const [days, setDays] = useState<[Dayjs, Dayjs] | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const presetWindow = presetRange(preset, now, days);
  // A zoom into less than half the range fetches the window again, finer (raw rows instead of roll-ups).
  const [zoom, setZoom] = useState<{ from: number; to: number } | null>(null);
  const range = zoom ?? presetWindow;
  const history = useQuery(historyQueryOptions(g, sn, { from: range?.from ?? 0, to: range?.to ?? 0, keys: range ? keys : [] }));
  // Only when a water-quality key is chosen: its laboratory results are drawn beside it.
  const mayViewRecords = useMayOperate('records.view');
  const wantsLab = mayViewRecords && keys.some((key) => /^(COD|BOD5|NH3_N|TN|TP|SS|PH|FC)_(In|Out)$/.test(key));
  const lab = useQuery(labResultsQueryOptions(g, wantsLab ? stationId : null, { from: range?.from ?? 0, to: range?.to ?? 0 }));
  const { message } = App.useApp();
  const onZoom = useCallback(
    (window: { from: number; to: number }) => {
      if (!range || window.to - window.from > (range.to - range.from) / 2) return;
      setZoom({ from: Math.floor(window.from), to: Math.ceil(window.to) });
    },
    [range],
  );
  const exportAs = async (format: 'csv' | 'xlsx') => {
    if (!range) return;
    try {
      await downloadFile(
        `/${String(g)}/${encodeURIComponent(sn)}/DeviceHisData`,
        `${sn}-${dayjs(range.from).format('YYYYMMDD')}.${format}`,
        {
          BeginTime: range.from,
          EndTime: range.to,
          Keys: keys.join(','),
          Format: format,
        },
      );
    } catch (error) {
      void message.error(`${t('deviceHistory.exportFailed')}: ${errorMessage(error)}`);
    }
  };

  const formats = useMemo(() => new Map(numeric.map((d) => [d.DataKey, d.Format])), [numeric]);
  const name = useStoredName();
  const lines = useMemo(
    () =>
      history.data
        ? withLabResults(
            historyLines(
              { ...history.data, Series: history.data.Series.map((s) => ({ ...s, Name: name(s.Name) })) },
              formats,
              states,
            ),
            lab.data ?? [],
          )
        : [],
    [history.data, formats, states, name, lab.data],
  );
  const labCount = new Set(lines.flatMap((line) => (line.lab ?? []).map(([time]) => time))).size;
  const names = lines.map((line) => line.label).join(', ');
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const option = useMemo(
    () =>
      historyOption(
        lines,
        {
          text: token.colorText,
          secondaryText: token.colorTextSecondary,
          line: token.colorBorderSecondary,
          tooltipBackground: token.colorBgElevated,
        },
        formatDateTime,
        { from: history.data?.BeginTime ?? 0, to: history.data?.EndTime ?? 0 },
        {
          standard: (line, limit) => t('deviceHistory.standard', { name: line.label, limit }),
          band: (line) => t('deviceHistory.band', { name: line.label }),
          lab: (line) => t('deviceHistory.lab', { name: line.label }),
        },
      ),
    [lines, token, history.data, t],
  );

  if (layout.isError) return <QueryError query={layout} title={t('deviceHistory.pointsFailed')} />;
  if (layout.isPending) return <Skeleton active />;
  if (numeric.length === 0) return <Empty description={t('deviceHistory.noPoints')} />;

  const body = (() => {
    if (keys.length === 0) return <Empty description={t('deviceHistory.pickPoints')} />;
    if (!range) return <Empty description={t('deviceHistory.pickDates')} />;
    return (
      <QueryState
        query={history}
        empty={!hasData(lines)}
        emptyText={t('deviceHistory.empty')}
        failedTitle={t('deviceHistory.failed')}
      >
        <Flex vertical gap={8}>
          <Flex gap={8} wrap align="center" justify="space-between">
            <Segmented
              size="small"
              aria-label={t('deviceHistory.view')}
              value={view}
              onChange={setView}
              options={[
                { value: 'chart', label: t('deviceHistory.chart') },
                { value: 'table', label: t('deviceHistory.table') },
              ]}
            />
            <Flex gap={8} wrap align="center">
              {zoom ? (
                <>
                  <span>{t('deviceHistory.zoomed', { from: formatDateTime(zoom.from), to: formatDateTime(zoom.to) })}</span>
                  <Button
                    size="small"
                    icon={<ZoomOutOutlined aria-hidden />}
                    onClick={() => {
                      setZoom(null);
                    }}
                  >
                    {t('deviceHistory.resetZoom')}
                  </Button>
                </>
              ) : null}
              <Dropdown
                trigger={['click']}
                menu={{
                  items: [
                    { key: 'csv', label: t('deviceHistory.exportCsv') },
                    { key: 'xlsx', label: t('deviceHistory.exportExcel') },
                  ],
                  onClick: ({ key }) => {
                    void exportAs(key === 'xlsx' ? 'xlsx' : 'csv');
                  },
                }}
              >
                <Button size="small" icon={<DownloadOutlined aria-hidden />}>
                  {t('deviceHistory.export')}
                </Button>
              </Dropdown>
            </Flex>
          </Flex>
          {history.data?.Downsampled === 'minmax' ? <Alert type="info" showIcon title={t('deviceHistory.downsampled')} /> : null}
          {labCount > 0 ? (
            <Typography.Text type="secondary">{t('deviceHistory.labNote', { count: labCount })}</Typography.Text>
          ) : null}
          {view === 'chart' ? (
            <EChart
              option={option}
              label={t('deviceHistory.chartLabel', { points: names })}
              height={chartHeight(lines, 360)}
              onZoom={onZoom}
            />
          ) : (
            <HistoryTable lines={lines} label={t('deviceHistory.tableLabel', { points: names })} />
          )}
        </Flex>
      </QueryState>
    );
  })();

  return (
    <section aria-label={t('deviceHistory.title')}>
      <Flex gap={8} wrap align="center" style={{ marginBottom: 12 }}>
        <Select
          mode="multiple"
          aria-label={t('deviceHistory.points')}
          placeholder={t('deviceHistory.pointsPlaceholder')}
          value={keys}
          maxCount={MAX_SERIES}
          maxTagCount="responsive"
          style={{ flex: '1 1 240px', minWidth: 0, maxWidth: 480 }}
          showSearch={{ optionFilterProp: 'label' }}
          onChange={(value: string[]) => {
            setChosen(value);
          }}
          options={numeric.map((d) => ({
            value: d.DataKey,
            label: d.Unit ? `${name(d.DataName)} (${d.Unit})` : name(d.DataName),
          }))}
        />
        {/* Five ranges are wider than a phone's card: they scroll sideways there rather than overflow. */}
        <div style={{ maxWidth: '100%', overflowX: 'auto' }}>
          <Segmented<Preset>
            aria-label={t('deviceHistory.range')}
            value={preset}
            onChange={(value) => {
              setPreset(value);
              setZoom(null);
              setNow(Date.now());
            }}
            options={PRESETS.map((p) => ({ value: p, label: t(`deviceHistory.${p}`) }))}
          />
        </div>
        {preset === 'custom' ? (
          <DatePicker.RangePicker
            aria-label={t('deviceHistory.dates')}
            value={days}
            disabledDate={(d) => d.isAfter(dayjs(), 'day')}
            onChange={(value) => {
              setDays(value?.[0] && value[1] ? [value[0], value[1]] : null);
              setZoom(null);
              setNow(Date.now());
            }}
            style={{ maxWidth: '100%' }}
          />
        ) : null}
        <Tooltip title={t('deviceHistory.refresh')}>
          <Button
            icon={<ReloadOutlined aria-hidden />}
            aria-label={t('deviceHistory.refresh')}
            onClick={() => {
              // Chosen days do not move with the clock: fetch them again; a quick range moves to now.
              if (preset === 'custom' || zoom) void history.refetch();
              else setNow(Date.now());
            }}
          />
        </Tooltip>
      </Flex>
      {body}
    </section>
  );
}
