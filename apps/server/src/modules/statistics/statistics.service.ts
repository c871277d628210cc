/**
 * Type statistics computed from the daily and hourly roll-ups (spec §3, §5, §7): a day whose
 * roll-up is clean (every reading within the range filter; a counter that only rose) is taken
 * whole; otherwise its hours are, and only an hour that is not clean is read raw. A month of
 * daily statistics for a hundred stations therefore reads a few thousand roll-up rows, and a
 * spike costs one hour of raw rows. The arithmetic is in statistics-math.ts.
 */
import type { CurrentUser } from '../../auth/current-user.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/errors.ts';
import {
  ENERGY_KEY,
  STATISTICS_MAX_DAYS,
  TREATED_WATER_KEY,
  type DiscreteItemDto,
  type DiscreteRecordDto,
  type RegionStatisticsDto,
  type RegionStatisticsQuery,
  type SiteStatisticsDto,
  type StatisticItemDto,
  type StatisticsQuery,
  type StatisticsRecordDto,
} from '@sluice/shared/statistics.schema';
import { PROJECT_TYPE } from '@sluice/shared/project.schema';
import type { AlarmsRepository } from '../alarms/alarms.repository.ts';
import type { HistoryRepository, RollupPoint } from '../telemetry/history.repository.ts';
import { reachableDevices, type ReachableDevice } from '../telemetry/reachable-devices.repository.ts';
import { DAY_MS, HOUR_MS, dayStart, localDate } from '../telemetry/rollup.ts';
import type { SiteScope } from '../sites/site-scope.ts';
import {
  EMPTY,
  bucketPasses,
  bucketSummary,
  compliance,
  counterByDay,
  dailyValueCounts,
  filterRange,
  filteredTotal,
  merge,
  minAvgMax,
  stateTimes,
  summarise,
  withinStandard,
  type FilterRange,
  type Reading,
  type Summary,
} from './statistics-math.ts';
import { roundValue } from '@sluice/shared/number-format';
import type { StatisticDefinition, StatisticsRepository } from './statistics.repository.ts';

/** How long a state reading holds when no reading follows (then the time is unknown). */
export const STATE_HOLD_MS = HOUR_MS;
/** Raw rows of one state series read at most for one call. */
const STATE_ROWS_LIMIT = 600_000;

const STATE_TYPES = new Set(['boolean', 'boolean2', 'enum', 'select']);
/** A discrete statistic of a state is timed; every other statistic is of numbers. */
export const isState = (d: StatisticDefinition) => d.staticsType === 'discrete' && STATE_TYPES.has(d.dataType);

/** The hours of a day and the raw rows of an hour, fetched beforehand for the days that are not clean. */
interface Lookups {
  hoursOf(seriesId: number, day: number): RollupPoint[];
  rawOf(seriesId: number, hour: number): [number, number | null][];
}

/** A day's readings after the range filter: whole when clean, else hour by hour, raw where an hour is not clean. */
function averaged(seriesId: number, day: RollupPoint, range: FilterRange | undefined, look: Lookups): Summary {
  if (bucketPasses(day, range)) return bucketSummary(day);
  let s: Summary = { ...EMPTY };
  for (const h of look.hoursOf(seriesId, day.bucket)) {
    if (bucketPasses(h, range)) {
      s = merge(s, bucketSummary(h));
      continue;
    }
    const values = look.rawOf(seriesId, h.bucket).flatMap(([, n]) => (n === null ? [] : [n]));
    // Raw rows past their retention: the hour's readings cannot be told apart, so none counts.
    s = merge(s, values.length === h.cnt ? summarise(values, range) : { ...EMPTY, filtered: h.cnt });
  }
  return s;
}

/** A counter's readings in time order: a clean day (it only rose) as its first and last, else its hours, else raw rows. */
function counterReadings(seriesId: number, days: RollupPoint[], before: Reading | undefined, look: Lookups): Reading[] {
  const readings: Reading[] = before ? [before] : [];
  const ends = (b: RollupPoint) => {
    readings.push({ ts: b.firstTs, value: b.first });
    if (b.lastTs !== b.firstTs) readings.push({ ts: b.lastTs, value: b.last });
  };
  const clean = (b: RollupPoint) => b.min === b.first && b.max === b.last;
  for (const day of days) {
    if (clean(day)) {
      ends(day);
      continue;
    }
    const hours = look.hoursOf(seriesId, day.bucket);
    if (hours.length === 0) ends(day);
    for (const h of hours) {
      if (clean(h)) {
        ends(h);
        continue;
      }
      const raw = look.rawOf(seriesId, h.bucket);
      if (raw.length !== h.cnt) {
        ends(h);
        continue;
      }
      for (const [ts, value] of raw) if (value !== null) readings.push({ ts, value });
    }
  }
  return readings;
}

/** One day of one statistic of one device. */
export interface DayFigure {
  /** Averaged statistics (instantaneous, discrete measurements): what the readings summed to. */
  summary?: Summary;
  /** Cumulative: the day's total after the range filter, and whether the filter zeroed it. */
  total?: number;
  filtered?: boolean;
}

type Figures = Map<string, Map<string, Map<number, DayFigure>>>;

interface Deps {
  db: Db;
  history: HistoryRepository;
  repository: StatisticsRepository;
  alarms: AlarmsRepository;
  scope: SiteScope;
  offsetMinutes: number;
}

export class StatisticsService {
  private readonly deps: Deps;
  constructor(deps: Deps) {
    this.deps = deps;
  }

  private get offset(): number {
    return this.deps.offsetMinutes;
  }

  /** A type's statistics standards by data key (its own, else its parents'), for charts to draw. */
  async standardsOf(groupId: number, typeId: number | null): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (typeId === null) return out;
    const byType = await this.definitionsByType(groupId, [{ deviceSn: '', name: '', projectId: null, typeId, online: false }]);
    for (const d of byType.get(typeId) ?? []) if (d.standard !== '') out.set(d.key, d.standard);
    return out;
  }

  /** [from, to) of Begin … End (local days), refused when reversed or longer than the limit. */
  range(begin: string, end: string): { from: number; to: number } {
    const from = dayStart(begin, this.offset);
    const to = dayStart(end, this.offset) + DAY_MS;
    if (!(from < to)) throw new AppError(400, 'history.badRange', {}, 'Begin');
    if (to - from > STATISTICS_MAX_DAYS * DAY_MS)
      throw new AppError(400, 'history.rangeTooLong', { days: STATISTICS_MAX_DAYS }, 'End');
    return { from, to };
  }

  private async devicesOf(
    user: CurrentUser,
    filter: { ProjectId?: number | undefined; ClientId?: number | undefined; DeviceSn?: string | undefined },
  ) {
    if (filter.DeviceSn !== undefined) await this.deps.scope.device(user, filter.DeviceSn);
    if (filter.ProjectId !== undefined) await this.deps.scope.project(user, filter.ProjectId);
    if (filter.ClientId !== undefined) await this.deps.scope.client(user, filter.ClientId);
    return reachableDevices(this.deps.db, user, {
      projectId: filter.ProjectId,
      clientId: filter.ClientId,
      deviceSn: filter.DeviceSn,
    });
  }

  /**
   * The statistics of each device type: its own, then those of the types above it for keys it
   * does not define (the demo's equipment types sit under the station type that holds them), as
   * alarms read standards. The key is the device's type id.
   */
  private async definitionsByType(groupId: number, devices: ReachableDevice[], keys?: Set<string>) {
    const parents = await this.deps.repository.typeParents(groupId);
    const chains = new Map<number, number[]>();
    for (const typeId of new Set(devices.flatMap((d) => (d.typeId === null ? [] : [d.typeId])))) {
      const chain: number[] = [];
      // Parent 0 is a top-level type; the chain check guards against a cycle in stored data.
      for (let type = typeId; type !== 0 && !chain.includes(type); type = parents.get(type) ?? 0) chain.push(type);
      chains.set(typeId, chain);
    }
    const own = new Map<number, StatisticDefinition[]>();
    for (const d of await this.deps.repository.definitions(groupId, [...new Set([...chains.values()].flat())])) {
      if (keys && !keys.has(d.key)) continue;
      own.set(d.typeId, [...(own.get(d.typeId) ?? []), d]);
    }
    const byType = new Map<number, StatisticDefinition[]>();
    for (const [typeId, chain] of chains) {
      const list: StatisticDefinition[] = [];
      // A type's first statistic of a key is the one that counts, and its own before its parents'.
      for (const type of chain) for (const d of own.get(type) ?? []) if (!list.some((x) => x.key === d.key)) list.push(d);
      if (list.length > 0) byType.set(typeId, list);
    }
    return byType;
  }

  /** Per device, key and local day in [from, to): the day's figure of each numeric statistic. */
  async dailyFigures(
    groupId: number,
    devices: ReachableDevice[],
    byType: Map<number, StatisticDefinition[]>,
    from: number,
    to: number,
  ): Promise<Figures> {
    const { history } = this.deps;
    const seriesIds = new Map(
      (
        await history.seriesOf(
          groupId,
          devices.map((d) => d.deviceSn),
        )
      ).map((s) => [`${s.deviceSn}\u0000${s.key}`, s.id]),
    );
    // Each definition's filter is parsed once, not once per day and hour it is held against.
    const ranges = new Map<StatisticDefinition, FilterRange | undefined>();
    const jobs: { sn: string; def: StatisticDefinition; id: number; range: FilterRange | undefined }[] = [];
    for (const device of devices) {
      for (const def of byType.get(device.typeId ?? -1) ?? []) {
        if (isState(def)) continue;
        const id = seriesIds.get(`${device.deviceSn}\u0000${def.key}`);
        if (id === undefined) continue;
        if (!ranges.has(def)) ranges.set(def, filterRange(def.filterType, def.filter));
        jobs.push({ sn: device.deviceSn, def, id, range: ranges.get(def) });
      }
    }
    const daily = await history.rollups(
      'telemetry_daily',
      jobs.map((j) => j.id),
      from,
      to,
    );
    const counters = jobs.filter((j) => j.def.staticsType === 'cumulative');
    const before = await history.lastDailyBefore(
      counters.map((j) => j.id),
      from,
    );
    // Days that are not clean are looked into hour by hour, and hours that are not clean read raw:
    // each in one batch for all the devices, not one statement per day.
    const averagedDirty = (job: (typeof jobs)[number], b: RollupPoint) =>
      job.def.staticsType !== 'cumulative' && !bucketPasses(b, job.range);
    const counterDirty = (job: (typeof jobs)[number], b: RollupPoint) =>
      job.def.staticsType === 'cumulative' && !(b.min === b.first && b.max === b.last);
    const dirtyDays = jobs.flatMap((job) =>
      (daily.get(job.id) ?? [])
        .filter((b) => averagedDirty(job, b) || counterDirty(job, b))
        .map((b) => ({ seriesId: job.id, from: b.bucket, to: b.bucket + DAY_MS })),
    );
    const hours = await history.rollupsWithin('telemetry_hourly', dirtyDays);
    const jobOf = new Map(jobs.map((j) => [j.id, j]));
    const dirtyHours = [...hours].flatMap(([id, list]) => {
      const job = jobOf.get(id);
      return job
        ? list
            .filter((h) => averagedDirty(job, h) || counterDirty(job, h))
            .map((h) => ({ seriesId: id, from: h.bucket, to: h.bucket + HOUR_MS }))
        : [];
    });
    const raw = await history.rawWithin(dirtyHours);
    const look: Lookups = {
      hoursOf: (id, day) => (hours.get(id) ?? []).filter((h) => h.bucket >= day && h.bucket < day + DAY_MS),
      rawOf: (id, hour) => (raw.get(id) ?? []).filter(([ts]) => ts >= hour && ts < hour + HOUR_MS),
    };

    const out: Figures = new Map();
    for (const job of jobs) {
      const days = new Map<number, DayFigure>();
      const buckets = daily.get(job.id) ?? [];
      const { range } = job;
      if (job.def.staticsType === 'cumulative') {
        const readings = counterReadings(job.id, buckets, before.get(job.id), look);
        for (const [day, total] of counterByDay(readings, from, to, this.offset)) {
          const result = filteredTotal(total, range);
          days.set(day, { total: result.total, filtered: result.filtered });
        }
      } else {
        for (const b of buckets) days.set(b.bucket, { summary: averaged(job.id, b, range, look) });
      }
      const perDevice = out.get(job.sn) ?? new Map<string, Map<number, DayFigure>>();
      perDevice.set(job.def.key, days);
      out.set(job.sn, perDevice);
    }
    return out;
  }

  // ---- {g}/DeviceStatisticsData -------------------------------------------------------------

  async statisticsData(user: CurrentUser, query: StatisticsQuery): Promise<StatisticsRecordDto[]> {
    const { from, to } = this.range(query.Begin, query.End);
    const devices = await this.devicesOf(user, query);
    const byType = await this.definitionsByType(user.groupId, devices, keySet(query.Keys));
    const figures = await this.dailyFigures(user.groupId, devices, byType, from, to);
    const records: StatisticsRecordDto[] = [];
    for (const device of devices) {
      const defs = (byType.get(device.typeId ?? -1) ?? []).filter((d) => !isState(d));
      const perKey = figures.get(device.deviceSn);
      if (defs.length === 0 || !perKey) continue;
      const periods = new Map<string, number[]>();
      for (const days of perKey.values())
        for (const day of days.keys()) {
          const label = this.periodOf(day, query.Period);
          const list = periods.get(label) ?? [];
          if (!list.includes(day)) list.push(day);
          periods.set(label, list);
        }
      for (const label of [...periods.keys()].sort()) {
        const days = periods.get(label) ?? [];
        records.push({
          Date: label,
          DeviceSn: device.deviceSn,
          DeviceName: device.name,
          ProjectId: device.projectId,
          TypeId: device.typeId,
          Data: defs.map((def) => {
            const figs = days.flatMap((day) => {
              const f = perKey.get(def.key)?.get(day);
              return f ? [f] : [];
            });
            return query.Period === 'day' ? dayItem(def, figs[0]) : monthItem(def, figs);
          }),
        });
      }
    }
    return records;
  }

  private periodOf(day: number, period: 'day' | 'month'): string {
    const date = localDate(day, this.offset);
    return period === 'day' ? date : date.slice(0, 7);
  }

  // ---- {g}/DeviceDiscreteStatistics -----------------------------------------------------------

  async discreteStatistics(user: CurrentUser, query: StatisticsQuery): Promise<DiscreteRecordDto[]> {
    const { from, to } = this.range(query.Begin, query.End);
    const devices = await this.devicesOf(user, query);
    const all = await this.definitionsByType(user.groupId, devices, keySet(query.Keys));
    // Discrete statistics, and every measurement held to a standard (its days within it).
    const byType = new Map(
      [...all].map(([type, defs]) => [
        type,
        defs.filter((d) => d.staticsType === 'discrete' || (d.standard !== '' && d.staticsType === 'instantaneous')),
      ]),
    );
    const figures = await this.dailyFigures(user.groupId, devices, byType, from, to);
    const series = new Map(
      (
        await this.deps.history.seriesOf(
          user.groupId,
          devices.map((d) => d.deviceSn),
        )
      ).map((s) => [`${s.deviceSn}\u0000${s.key}`, s.id]),
    );
    const records: DiscreteRecordDto[] = [];
    for (const device of devices) {
      const defs = byType.get(device.typeId ?? -1) ?? [];
      if (defs.length === 0) continue;
      const items: DiscreteItemDto[] = [];
      for (const def of defs) {
        const base = {
          Key: def.key,
          Name: def.name,
          StaticsType: def.staticsType,
          Unit: def.unit,
          SUnit: def.sUnit,
          Standard: def.standard,
          DisplayType: def.displayType,
          ShowState: def.showState,
        };
        if (isState(def)) {
          const id = series.get(`${device.deviceSn}\u0000${def.key}`);
          const readings = id === undefined ? [] : await this.stateReadings(id, from, to);
          const times = stateTimes(readings, from, Math.min(to, Date.now()), STATE_HOLD_MS);
          items.push({ ...base, States: times.states, UnknownSeconds: times.unknownSeconds });
          continue;
        }
        const days = [...(figures.get(device.deviceSn)?.get(def.key) ?? new Map<number, DayFigure>())].sort(([a], [b]) => a - b);
        const list = days.flatMap(([day, f]) => {
          const values = f.summary ? minAvgMax(f.summary) : null;
          if (!values) return [];
          const counts = dailyValueCounts(values.Avg, def.standard);
          return [
            {
              Date: localDate(day, this.offset),
              Avg: values.Avg,
              Compliant: counts ? withinStandard(values.Avg, def.standard) : null,
              Excluded: !counts,
            },
          ];
        });
        items.push({ ...base, Days: list, ...compliance(list.map((d) => d.Compliant)) });
      }
      records.push({
        DeviceSn: device.deviceSn,
        DeviceName: device.name,
        ProjectId: device.projectId,
        TypeId: device.typeId,
        Begin: query.Begin,
        End: query.End,
        Items: items,
      });
    }
    return records;
  }

  private async stateReadings(seriesId: number, from: number, to: number): Promise<{ ts: number; state: string }[]> {
    const { history } = this.deps;
    const prior = await history.rawBefore(seriesId, from);
    const raw = await history.raw(seriesId, from, to, STATE_ROWS_LIMIT);
    const out: { ts: number; state: string }[] = [];
    const push = (ts: number, num: number | null | undefined, txt: string | null | undefined) => {
      const state = num ?? txt;
      if (state !== null && state !== undefined) out.push({ ts, state: String(state) });
    };
    if (prior) push(prior.ts, prior.num, prior.txt);
    for (let i = 0; i < raw.length; i++) push(raw.ts[i] ?? 0, raw.num[i], raw.txt[i]);
    return out;
  }

  // ---- Device/GetRegionStatisticsDevice --------------------------------------------------------

  async regionStatistics(user: CurrentUser, query: RegionStatisticsQuery, now = Date.now()): Promise<RegionStatisticsDto> {
    const date = query.Date ?? localDate(now, this.offset);
    const month = date.slice(0, 7);
    const from = dayStart(`${month}-01`, this.offset);
    const today = dayStart(date, this.offset);
    const to = today + DAY_MS;
    const devices = await this.devicesOf(user, { ProjectId: query.ProjectId, ClientId: query.ClientId });
    const all = await this.definitionsByType(user.groupId, devices);
    const byType = new Map(
      [...all].map(([type, defs]) => [
        type,
        defs.filter((d) => d.staticsType === 'cumulative' || (d.standard !== '' && !isState(d))),
      ]),
    );
    const figures = await this.dailyFigures(user.groupId, devices, byType, from, to);
    const warned = await this.deps.alarms.withActive(
      user.groupId,
      devices.map((d) => d.deviceSn),
    );

    // The site each device counts under: its station, or the station's project.
    const nodeIds = [...new Set(devices.flatMap((d) => (d.projectId === null ? [] : [d.projectId])))];
    const nodes = new Map((await this.deps.repository.sites(user.groupId, nodeIds)).map((s) => [s.id, s]));
    const parentIds = [
      ...new Set([...nodes.values()].filter((n) => n.projectType === PROJECT_TYPE.station).map((n) => n.parentId)),
    ];
    const parents = new Map((await this.deps.repository.sites(user.groupId, parentIds)).map((s) => [s.id, s]));
    const siteOf = (d: ReachableDevice) => {
      const node = d.projectId === null ? undefined : nodes.get(d.projectId);
      if (!node) return undefined;
      return query.By === 'project' && node.projectType === PROJECT_TYPE.station ? (parents.get(node.parentId) ?? node) : node;
    };
    const groups = new Map<number, { name: string; devices: ReachableDevice[] }>();
    for (const d of devices) {
      const site = siteOf(d);
      if (!site || (query.RegionId !== undefined && site.regionId !== query.RegionId)) continue;
      const g = groups.get(site.id) ?? { name: site.name, devices: [] };
      g.devices.push(d);
      groups.set(site.id, g);
    }
    const summarize = (id: number | null, name: string, list: ReachableDevice[]): SiteStatisticsDto =>
      this.siteFigures(id, name, list, byType, figures, warned, today);
    const sites = [...groups].map(([id, g]) => summarize(id, g.name, g.devices)).sort((a, b) => a.Name.localeCompare(b.Name));
    const counted = [...groups.values()].flatMap((g) => g.devices);
    const total = summarize(null, '', counted);
    // Compliance of the total is over station-days, not over the devices pooled into one day.
    total.Compliance = compliance(
      sites.flatMap((s) => [
        ...Array<boolean>(s.Compliance.CompliantDays).fill(true),
        ...Array<boolean>(s.Compliance.MeasuredDays - s.Compliance.CompliantDays).fill(false),
      ]),
    );
    return { Date: date, Month: month, Sites: sites, Total: total };
  }

  private siteFigures(
    id: number | null,
    name: string,
    devices: ReachableDevice[],
    byType: Map<number, StatisticDefinition[]>,
    figures: Figures,
    warned: Set<string>,
    today: number,
  ): SiteStatisticsDto {
    const totals = new Map<string, { def: StatisticDefinition; days: Map<number, number> }>();
    const dayVerdicts = new Map<number, boolean>();
    for (const device of devices) {
      for (const def of byType.get(device.typeId ?? -1) ?? []) {
        const days = figures.get(device.deviceSn)?.get(def.key);
        if (!days) continue;
        for (const [day, f] of days) {
          if (f.total !== undefined) {
            if (!dailyValueCounts(f.total, def.standard)) continue;
            const t = totals.get(def.key) ?? { def, days: new Map<number, number>() };
            t.days.set(day, (t.days.get(day) ?? 0) + f.total);
            totals.set(def.key, t);
          } else if (f.summary && def.standard !== '') {
            const values = minAvgMax(f.summary);
            if (!values || !dailyValueCounts(values.Avg, def.standard)) continue;
            const verdict = withinStandard(values.Avg, def.standard);
            if (verdict === null) continue;
            dayVerdicts.set(day, (dayVerdicts.get(day) ?? true) && verdict);
          }
        }
      }
    }
    const Totals = [...totals.values()].map(({ def, days }) => {
      const sorted = [...days].sort(([a], [b]) => a - b);
      return {
        Key: def.key,
        Name: def.name,
        SUnit: def.sUnit,
        Format: def.format,
        DisplayType: def.displayType,
        Today: days.has(today) ? roundValue(days.get(today) ?? 0) : null,
        Month: sorted.length === 0 ? null : roundValue(sorted.reduce((n, [, v]) => n + v, 0)),
        Days: sorted.map(([day, v]) => ({ Date: localDate(day, this.offset), Value: roundValue(v) })),
      };
    });
    const of = (key: string) => Totals.find((t) => t.Key === key);
    const treated = of(TREATED_WATER_KEY);
    const energy = of(ENERGY_KEY);
    return {
      ProjectId: id,
      Name: name,
      DeviceNum: devices.length,
      OnlineNum: devices.filter((d) => d.online).length,
      WarningNum: devices.filter((d) => d.online && warned.has(d.deviceSn)).length,
      Totals,
      TreatedToday: treated?.Today ?? null,
      TreatedMonth: treated?.Month ?? null,
      EnergyToday: energy?.Today ?? null,
      EnergyMonth: energy?.Month ?? null,
      KwhPerM3: energy?.Month != null && treated?.Month ? roundValue(energy.Month / treated.Month) : null,
      Compliance: compliance([...dayVerdicts.values()]),
    };
  }
}

const keySet = (text: string | undefined) =>
  text
    ? new Set(
        text
          .replace(/，/g, ',')
          .split(',')
          .map((k) => k.trim())
          .filter((k) => k !== ''),
      )
    : undefined;

const itemBase = (def: StatisticDefinition) => ({
  Key: def.key,
  Name: def.name,
  StaticsType: def.staticsType,
  Standard: def.standard,
  Unit: def.unit,
  SUnit: def.sUnit,
  Format: def.format,
  DisplayType: def.displayType,
  ShowState: def.showState,
});

/** One day's item: min/avg/max, or a total; whether it met the standard, or the 100 × rule left it out. */
export function dayItem(def: StatisticDefinition, f: DayFigure | undefined): StatisticItemDto {
  if (f?.total !== undefined) {
    const counts = dailyValueCounts(f.total, def.standard);
    return {
      ...itemBase(def),
      Values: { Total: roundValue(f.total), Count: 1, Filtered: f.filtered ? 1 : 0 },
      Compliant: counts ? withinStandard(f.total, def.standard) : null,
      Excluded: !counts,
    };
  }
  const values = f?.summary ? minAvgMax(f.summary) : null;
  if (!values) return { ...itemBase(def), Values: null, Compliant: null, Excluded: false };
  const counts = dailyValueCounts(values.Avg, def.standard);
  return {
    ...itemBase(def),
    Values: { ...values, Filtered: f?.summary?.filtered ?? 0 },
    Compliant: counts ? withinStandard(values.Avg, def.standard) : null,
    Excluded: !counts,
  };
}

/** A month's item from its days: only the days the 100 × rule keeps count. */
export function monthItem(def: StatisticDefinition, days: DayFigure[]): StatisticItemDto {
  const items = days.map((f) => dayItem(def, f));
  const kept = days.filter((_, i) => items[i]?.Values && !items[i].Excluded);
  const verdicts = items.filter((i) => i.Values && !i.Excluded).map((i) => i.Compliant);
  const standard =
    def.standard === '' ? {} : (({ MeasuredDays, CompliantDays }) => ({ MeasuredDays, CompliantDays }))(compliance(verdicts));
  const filtered = items.reduce((n, i) => n + (i.Values?.Filtered ?? 0), 0);
  if (def.staticsType === 'cumulative') {
    const total = kept.reduce((n, f) => n + (f.total ?? 0), 0);
    return {
      ...itemBase(def),
      Values: kept.length === 0 ? null : { Total: roundValue(total), Count: kept.length, Filtered: filtered },
      Compliant: null,
      Excluded: false,
      ...standard,
    };
  }
  const summary = kept.reduce((s, f) => merge(s, f.summary ?? EMPTY), { ...EMPTY });
  const values = minAvgMax(summary);
  return {
    ...itemBase(def),
    Values: values ? { ...values, Filtered: filtered } : null,
    Compliant: null,
    Excluded: false,
    ...standard,
  };
}
