/**
 * Statistics calls (spec §7 Monitoring, history and statistics): {g}/DeviceStatisticsData,
 * {g}/DeviceDiscreteStatistics and Device/GetRegionStatisticsDevice. Values to 3 decimals (§9).
 */
import { z } from 'zod';
import { idRef } from './schema-fields.ts';
import { STATION_KEYS } from './station-keys.ts';

const date = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'rule.valueDate' });

const lowerAlias = (names: string[]) => (q: unknown) => {
  if (!q || typeof q !== 'object') return q;
  const v = { ...(q as Record<string, unknown>) };
  for (const name of names) {
    const lower = name.charAt(0).toLowerCase() + name.slice(1);
    if (v[name] === undefined && v[lower] !== undefined) v[name] = v[lower];
  }
  return v;
};

export const STATISTICS_PERIODS = ['day', 'month'] as const;
export type StatisticsPeriod = (typeof STATISTICS_PERIODS)[number];

/** The longest range of a statistics call, in days. */
export const STATISTICS_MAX_DAYS = 366;

/** The keys the home panel's derived cards read: treated water (a counter in m³) and energy (kW·h). */
export const TREATED_WATER_KEY = STATION_KEYS.flowTotal;
export const ENERGY_KEY = STATION_KEYS.energy;

/** GET {g}/DeviceStatisticsData and {g}/DeviceDiscreteStatistics: one device, or the devices of a project or station. */
export const statisticsQuery = z.preprocess(
  lowerAlias(['Begin', 'End', 'ProjectId', 'ClientId', 'DeviceSn', 'Keys', 'Period']),
  z.object({
    Begin: date,
    End: date,
    ProjectId: idRef.optional(),
    /** Only the devices of this client's projects and their stations. */
    ClientId: idRef.optional(),
    DeviceSn: z.string().max(40).optional(),
    /** Data keys, comma-joined; all the type's statistics when empty. */
    Keys: z.string().max(2000).optional(),
    Period: z.preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), z.enum(STATISTICS_PERIODS)).default('day'),
  }),
);
export type StatisticsQuery = z.infer<typeof statisticsQuery>;

export const statisticValuesDto = z.object({
  Min: z.number().optional(),
  Avg: z.number().optional(),
  Max: z.number().optional(),
  /** A cumulative statistic's total over the period. */
  Total: z.number().optional(),
  /** Readings counted (instantaneous), days counted (cumulative). */
  Count: z.number(),
  /** Readings (or daily totals) the range filter left out. */
  Filtered: z.number(),
});

export const statisticItemDto = z.object({
  Key: z.string(),
  Name: z.string(),
  StaticsType: z.string(),
  /** null when the period has no counted data. */
  Values: statisticValuesDto.nullable(),
  Standard: z.string(),
  Unit: z.string(),
  SUnit: z.string(),
  Format: z.string(),
  DisplayType: z.string(),
  ShowState: z.boolean(),
  /** A day: whether its average meets the standard (null without a standard or a counted value). */
  Compliant: z.boolean().nullable(),
  /** A month: the days with a counted value, and those within the standard. */
  MeasuredDays: z.number().optional(),
  CompliantDays: z.number().optional(),
  /** A day left out by the 100 × standard rule (§5). */
  Excluded: z.boolean(),
});
export type StatisticItemDto = z.infer<typeof statisticItemDto>;

/** The spec's historical statistics record: a device's statistics of one day ('YYYY-MM-DD') or month ('YYYY-MM'). */
export const statisticsRecordDto = z.object({
  Date: z.string(),
  DeviceSn: z.string(),
  DeviceName: z.string(),
  ProjectId: z.number().nullable(),
  TypeId: z.number().nullable(),
  Data: z.array(statisticItemDto),
});
export type StatisticsRecordDto = z.infer<typeof statisticsRecordDto>;

export const stateTimeDto = z.object({ State: z.string(), Seconds: z.number(), Share: z.number() });

export const discreteItemDto = z.object({
  Key: z.string(),
  Name: z.string(),
  StaticsType: z.string(),
  Unit: z.string(),
  SUnit: z.string(),
  Standard: z.string(),
  DisplayType: z.string(),
  ShowState: z.boolean(),
  /** A state (boolean, enum): time in each state over the range; seconds without data. */
  States: z.array(stateTimeDto).optional(),
  UnknownSeconds: z.number().optional(),
  /** A measurement with a standard: each day's average and whether it met the standard. */
  Days: z
    .array(z.object({ Date: z.string(), Avg: z.number(), Compliant: z.boolean().nullable(), Excluded: z.boolean() }))
    .optional(),
  MeasuredDays: z.number().optional(),
  CompliantDays: z.number().optional(),
  /** CompliantDays / MeasuredDays (0–1), null without a measured day. */
  Rate: z.number().nullable().optional(),
});
export type DiscreteItemDto = z.infer<typeof discreteItemDto>;

export const discreteRecordDto = z.object({
  DeviceSn: z.string(),
  DeviceName: z.string(),
  ProjectId: z.number().nullable(),
  TypeId: z.number().nullable(),
  Begin: z.string(),
  End: z.string(),
  Items: z.array(discreteItemDto),
});
export type DiscreteRecordDto = z.infer<typeof discreteRecordDto>;

export const REGION_GROUPINGS = ['station', 'project'] as const;

/** GET Device/GetRegionStatisticsDevice: per station (or project) of the caller's, today's and this month's figures. */
export const regionStatisticsQuery = z.preprocess(
  lowerAlias(['ProjectId', 'ClientId', 'RegionId', 'By', 'Date']),
  z.object({
    /** Only the stations of this project (or this station). */
    ProjectId: idRef.optional(),
    /** Only the stations (or projects) of this client. */
    ClientId: idRef.optional(),
    /** Only the stations (or projects) of this region. */
    RegionId: idRef.optional(),
    By: z.preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), z.enum(REGION_GROUPINGS)).default('station'),
    /** The day counted as today (its month as this month); the server's today when empty. */
    Date: date.optional(),
  }),
);
export type RegionStatisticsQuery = z.infer<typeof regionStatisticsQuery>;

export const siteTotalDto = z.object({
  Key: z.string(),
  Name: z.string(),
  SUnit: z.string(),
  Format: z.string(),
  DisplayType: z.string(),
  Today: z.number().nullable(),
  Month: z.number().nullable(),
  /** This month's daily totals, for a chart. */
  Days: z.array(z.object({ Date: z.string(), Value: z.number() })),
});

export const siteStatisticsDto = z.object({
  /** The station or project; null for the total of all. */
  ProjectId: z.number().nullable(),
  Name: z.string(),
  DeviceNum: z.number(),
  OnlineNum: z.number(),
  WarningNum: z.number(),
  /** The cumulative statistics of the site's devices, summed by key. */
  Totals: z.array(siteTotalDto),
  TreatedToday: z.number().nullable(),
  TreatedMonth: z.number().nullable(),
  EnergyToday: z.number().nullable(),
  EnergyMonth: z.number().nullable(),
  /** This month's energy per m³ treated (kW·h/m³). */
  KwhPerM3: z.number().nullable(),
  /** This month: station-days whose effluent met every standard measured that day. */
  Compliance: z.object({ MeasuredDays: z.number(), CompliantDays: z.number(), Rate: z.number().nullable() }),
});
export type SiteStatisticsDto = z.infer<typeof siteStatisticsDto>;

export const regionStatisticsDto = z.object({
  Date: z.string(),
  Month: z.string(),
  Sites: z.array(siteStatisticsDto),
  Total: siteStatisticsDto,
});
export type RegionStatisticsDto = z.infer<typeof regionStatisticsDto>;

/**
 * The home panel's statistic cards a user may choose (kept in their settings, StatisticsCards):
 * treated water (today and this month), energy, kWh per m³, effluent compliance, running
 * devices, and `total:<Key>` for any other cumulative statistic of the types.
 */
export const STAT_CARDS = ['treated', 'energy', 'kwhPerM3', 'compliance', 'running'] as const;
export type StatCard = (typeof STAT_CARDS)[number];
export const statCardId = z
  .string()
  .trim()
  .regex(/^(treated|energy|kwhPerM3|compliance|running|total:[A-Za-z0-9_.-]{1,64})$/, { message: 'rule.statCard' });
export const statCardsField = z.array(statCardId).max(20);
