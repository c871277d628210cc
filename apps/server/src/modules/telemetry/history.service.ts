/**
 * History of a device for charts and export. The source follows the range unless the caller
 * names one: raw rows while a series has at most RAW_LIMIT of them in the days of the range
 * (known from the daily roll-ups' counts, without touching raw rows), else hourly roll-ups while they are at
 * most HOURLY_LIMIT buckets, else daily ones — so a chart of years reads a few thousand rows.
 * Whatever the source, a series comes back with at most MaxPoints points (min/max per bucket).
 */
import { parseDeviceTime, type DataValue } from '@sluice/shared/device-protocol';
import type { HistoryColumnsDto, HistoryDto, HistoryQuery, LatestDto } from '@sluice/shared/telemetry.schema';
import { AppError } from '../../http/errors.ts';
import { DAY_MS, HOUR_MS, dayStart, localDate } from './rollup.ts';
import { mergeBuckets, minMax, type PointColumns } from './downsample.ts';
import type { DeviceDirectory, KnownDevice } from './device-directory.ts';
import type { HistoryRepository, RollupTable, SeriesInfo } from './history.repository.ts';

/** Raw rows per series up to which a chart reads raw rows. */
export const RAW_LIMIT = 20_000;
/** Hourly buckets per series up to which a chart reads hourly roll-ups. */
export const HOURLY_LIMIT = 24 * 400;
/** Rows of a CSV export at most. */
export const CSV_LIMIT = 1_000_000;
/** Rows of an Excel export at most (a sheet holds 1,048,576). */
export const XLSX_LIMIT = 200_000;
/** The longest range of a history call. */
export const MAX_RANGE_DAYS = 3660;

type Point = [number, number | string | null];

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A time parameter: epoch ms (or s), 'YYYY-MM-DD' (a local day; its end when `end`), local date-time or ISO. */
export function parseTimeParam(value: number | string, offsetMinutes: number, end = false): number | undefined {
  if (typeof value === 'string' && DATE_ONLY.test(value.trim())) {
    const start = dayStart(value.trim(), offsetMinutes);
    return Number.isNaN(start) ? undefined : end ? start + DAY_MS : start;
  }
  return parseDeviceTime(value, offsetMinutes);
}

export interface HistoryRange {
  from: number;
  to: number;
}

export function historyRange(
  query: { BeginTime: number | string; EndTime?: number | string | undefined },
  offsetMinutes: number,
  now = Date.now(),
): HistoryRange {
  const from = parseTimeParam(query.BeginTime, offsetMinutes);
  const to = query.EndTime === undefined ? now : parseTimeParam(query.EndTime, offsetMinutes, true);
  if (from === undefined) throw new AppError(400, 'rule.valueDate', {}, 'BeginTime');
  if (to === undefined) throw new AppError(400, 'rule.valueDate', {}, 'EndTime');
  if (from >= to) throw new AppError(400, 'history.badRange', {}, 'BeginTime');
  if (to - from > MAX_RANGE_DAYS * DAY_MS) throw new AppError(400, 'history.rangeTooLong', { days: MAX_RANGE_DAYS }, 'EndTime');
  return { from, to };
}

const keysOf = (text: string | undefined) =>
  text
    ? [
        ...new Set(
          text
            .replace(/，/g, ',')
            .split(',')
            .map((k) => k.trim())
            .filter((k) => k !== ''),
        ),
      ]
    : undefined;

export class HistoryService {
  private readonly repository: HistoryRepository;
  private readonly directory: DeviceDirectory;
  private readonly offsetMinutes: number;
  private readonly defaultMaxPoints: number;

  constructor(repository: HistoryRepository, directory: DeviceDirectory, offsetMinutes: number, defaultMaxPoints: number) {
    this.repository = repository;
    this.directory = directory;
    this.offsetMinutes = offsetMinutes;
    this.defaultMaxPoints = defaultMaxPoints;
  }

  /**
   * `standards`: the device type's statistics standards by key, drawn as lines on the chart.
   * The points are built as columns and answered as the query's Layout asks: rows (Points,
   * Bands) or those columns.
   */
  async chart(
    device: KnownDevice,
    query: HistoryQuery,
    now = Date.now(),
    standards: ReadonlyMap<string, string> = new Map(),
  ): Promise<HistoryDto | HistoryColumnsDto> {
    const { from, to } = historyRange(query, this.offsetMinutes, now);
    const maxPoints = query.MaxPoints ?? this.defaultMaxPoints;
    const series = await this.repository.series(device.groupId, device.deviceSn, keysOf(query.Keys));
    const source = query.Type === 'auto' ? await this.pickSource(series, from, to) : query.Type;
    const names = await this.names(device, standards);
    const out: { head: ReturnType<typeof names>; points: PointColumns; count: number }[] = [];
    let downsampled = false;
    if (source === 'raw') {
      for (const s of series) {
        const raw = await this.repository.raw(s.id, from, to, CSV_LIMIT);
        const values = new Array<number | string | null>(raw.length);
        for (let i = 0; i < raw.length; i++) values[i] = raw.num[i] ?? raw.txt[i] ?? null;
        const points = minMax(raw.ts, values, from, to, maxPoints);
        if (points.times.length < raw.length) downsampled = true;
        out.push({ head: names(s), points, count: raw.length });
      }
    } else {
      const width = source === 'hour' ? HOUR_MS : DAY_MS;
      const table: RollupTable = source === 'hour' ? 'telemetry_hourly' : 'telemetry_daily';
      const rollups = await this.repository.chartRollups(
        table,
        series.map((s) => s.id),
        from - width + 1,
        to,
      );
      for (const s of series) {
        const buckets = rollups.get(s.id);
        if (!buckets) continue;
        const merged = mergeBuckets(buckets, maxPoints);
        if (merged.times.length < buckets.length) downsampled = true;
        out.push({ head: names(s), points: merged, count: merged.count });
      }
    }
    const head = {
      DeviceSn: device.deviceSn,
      BeginTime: from,
      EndTime: to,
      Source: source,
      Downsampled: downsampled ? ('minmax' as const) : ('none' as const),
    };
    if (query.Layout === 'columns')
      return {
        ...head,
        Series: out.map(({ head, points, count }) => ({
          ...head,
          Count: count,
          Times: points.times,
          Values: points.values,
          ...(points.mins && points.maxs ? { Mins: points.mins, Maxs: points.maxs } : {}),
        })),
      };
    return {
      ...head,
      Series: out.map(({ head, points: { times, values, mins, maxs }, count }) => ({
        ...head,
        Count: count,
        Points: times.map((t, i): Point => [t, values[i] ?? null]),
        ...(mins && maxs ? { Bands: times.map((t, i): [number, number, number] => [t, mins[i] ?? 0, maxs[i] ?? 0]) } : {}),
      })),
    };
  }

  /** Every row in range: Time, then one column per key (raw rows, or bucket averages for hour/day). */
  private async table(device: KnownDevice, query: HistoryQuery, now: number) {
    const { from, to } = historyRange(query, this.offsetMinutes, now);
    const series = await this.repository.series(device.groupId, device.deviceSn, keysOf(query.Keys));
    const source = query.Type === 'auto' ? 'raw' : query.Type;
    const columns = new Map<number, Map<number, DataValue | null>>();
    if (source === 'raw') {
      const total = await this.repository.countRaw(
        series.map((s) => s.id),
        from,
        to,
      );
      if (total > CSV_LIMIT) throw new AppError(400, 'history.tooManyRows', { limit: CSV_LIMIT });
      for (const s of series) {
        const raw = await this.repository.raw(s.id, from, to, CSV_LIMIT);
        const values = new Map<number, DataValue | null>();
        for (let i = 0; i < raw.length; i++) values.set(raw.ts[i] ?? 0, raw.num[i] ?? raw.txt[i] ?? null);
        columns.set(s.id, values);
      }
    } else {
      const width = source === 'hour' ? HOUR_MS : DAY_MS;
      const rollups = await this.repository.chartRollups(
        source === 'hour' ? 'telemetry_hourly' : 'telemetry_daily',
        series.map((s) => s.id),
        from - width + 1,
        to,
      );
      for (const s of series) {
        const buckets = rollups.get(s.id);
        if (!buckets) continue;
        // Every bucket, none merged.
        const { times, values } = mergeBuckets(buckets, Infinity);
        columns.set(s.id, new Map(times.map((t, i) => [t, values[i] ?? null])));
      }
    }
    const times = [...new Set([...columns.values()].flatMap((m) => [...m.keys()]))].sort((a, b) => a - b);
    return { series, times, valueOf: (seriesId: number, time: number) => columns.get(seriesId)?.get(time) ?? null };
  }

  /** Every row in range as CSV: Time, then one column per key. */
  async *csv(device: KnownDevice, query: HistoryQuery, now = Date.now()): AsyncGenerator<string> {
    const { series, times, valueOf } = await this.table(device, query, now);
    yield `\uFEFFTime,${series.map((s) => csvCell(s.key)).join(',')}\r\n`;
    let chunk = '';
    for (const t of times) {
      chunk += `${this.formatTime(t)},${series.map((s) => csvCell(valueOf(s.id, t) ?? '')).join(',')}\r\n`;
      if (chunk.length > 64_000) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
  }

  /** The same rows as an Excel workbook: numbers stored as numbers, the time as text, a frozen header. */
  async xlsx(device: KnownDevice, query: HistoryQuery, now = Date.now()): Promise<Buffer> {
    const { series, times, valueOf } = await this.table(device, query, now);
    if (times.length > XLSX_LIMIT) throw new AppError(400, 'history.tooManyRows', { limit: XLSX_LIMIT });
    const ExcelJS = (await import('exceljs')).default;
    const workbook = new ExcelJS.Workbook();
    workbook.creator = 'Sluice';
    const sheet = workbook.addWorksheet(device.deviceSn.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = [
      { header: 'Time', width: 20 },
      ...series.map((s) => ({ header: s.key, width: Math.max(10, s.key.length + 2) })),
    ];
    sheet.getRow(1).font = { bold: true };
    for (const t of times) sheet.addRow([this.formatTime(t), ...series.map((s) => valueOf(s.id, t))]);
    return Buffer.from(await workbook.xlsx.writeBuffer());
  }

  /** The newest values of a device with their names and units. */
  async latest(device: KnownDevice, online: boolean, warning: boolean): Promise<LatestDto> {
    const latest = (await this.repository.latest(device.groupId, [device.deviceSn])).get(device.deviceSn);
    const definitions = await this.directory.definitionsOf(device);
    const data = latest?.data ?? {};
    return {
      DeviceSn: device.deviceSn,
      Time: latest?.ts ?? null,
      Online: online,
      State: online ? (warning ? 2 : 1) : 0,
      Data: data,
      Points: Object.entries(data).map(([key, value]) => {
        const d = definitions.byKey.get(key);
        return { Key: key, Name: d?.name ?? key, Unit: d?.unit ?? '', Value: value, Defined: d !== undefined };
      }),
    };
  }

  formatTime(ts: number): string {
    return `${localDate(ts, this.offsetMinutes)} ${new Date(ts + this.offsetMinutes * 60_000).toISOString().slice(11, 19)}`;
  }

  private async pickSource(series: SeriesInfo[], from: number, to: number): Promise<'raw' | 'hour' | 'day'> {
    // The daily roll-ups' counts tell how many raw rows a range holds (a year is 365 rows to read).
    const counts = await this.repository.dailyCounts(
      series.map((s) => s.id),
      from - DAY_MS + 1,
      to,
    );
    const most = Math.max(0, ...counts.values());
    // Text series have no roll-ups; a range of at most a day reads raw rows anyway.
    if (most <= RAW_LIMIT && (most > 0 || to - from <= 2 * DAY_MS)) return 'raw';
    return (to - from) / HOUR_MS <= HOURLY_LIMIT ? 'hour' : 'day';
  }

  private async names(
    device: KnownDevice,
    standards: ReadonlyMap<string, string>,
  ): Promise<(s: SeriesInfo) => { Key: string; Name: string; Unit: string; Defined: boolean; Standard?: string }> {
    const definitions = await this.directory.definitionsOf(device);
    return (s) => {
      const d = definitions.byKey.get(s.key);
      const standard = standards.get(s.key);
      return {
        Key: s.key,
        Name: d?.name ?? s.key,
        Unit: d?.unit ?? '',
        Defined: d !== undefined,
        ...(standard ? { Standard: standard } : {}),
      };
    };
  }
}

function csvCell(value: DataValue | null): string {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
