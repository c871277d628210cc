/**
 * The arithmetic of type statistics (spec §3 Type statistics, §5 Statistics, §9 rounding), free
 * of storage so that each rule is tested against hand-computed examples:
 *
 * - instantaneous: min, average and max of readings; with a range filter 'min,max' a reading
 *   out of range counts as zero — it adds nothing to the count, sum, min or max (a COD spike of
 *   5000 under filter 0,1000 leaves the day as if it had not been read);
 * - cumulative: totals of a counter from consecutive readings: a rise counts, a fall is a reset
 *   (the counter began again at zero, so the new reading is what it counted since), and the
 *   rise across a gap is shared among the days of the gap by time; a daily total out of the
 *   range filter counts as zero;
 * - discrete: time in each state, a reading holding until the next one (at most `holdMs`);
 * - standards: a daily value counts only below 100 × the standard's maximum, and a day is
 *   within the standard when its average meets it (a maximum, or a band such as pH 6–9).
 */
import { dailyValueCounts, meetsStandard, parseRangeFilter, parseStandard } from '@sluice/shared/statistics';
import { roundValue } from '@sluice/shared/number-format';
import { DAY_MS } from '../telemetry/rollup.ts';

export { dailyValueCounts };

export interface Reading {
  ts: number;
  value: number;
}

/** Count, sum, min and max of the readings a statistic keeps, and how many the filter dropped. */
export interface Summary {
  count: number;
  sum: number;
  min: number;
  max: number;
  filtered: number;
}

export interface FilterRange {
  min: number;
  max: number;
}

export const EMPTY: Summary = { count: 0, sum: 0, min: Infinity, max: -Infinity, filtered: 0 };

/** The range of a definition's filter; undefined when it filters nothing. */
export function filterRange(filterType: string, filter: string): FilterRange | undefined {
  return filterType === 'range' ? parseRangeFilter(filter) : undefined;
}

export const inRange = (value: number, range: FilterRange | undefined): boolean =>
  range === undefined || (value >= range.min && value <= range.max);

/** Whether a bucket's readings all pass the filter (its min and max do), so its sums can be taken whole. */
export const bucketPasses = (bucket: { min: number; max: number }, range: FilterRange | undefined): boolean =>
  inRange(bucket.min, range) && inRange(bucket.max, range);

/** A bucket whose readings all pass, as a summary. */
export const bucketSummary = (b: { cnt: number; sum: number; min: number; max: number }): Summary => ({
  count: b.cnt,
  sum: b.sum,
  min: b.min,
  max: b.max,
  filtered: 0,
});

/** Readings after the range filter: out of range counts as zero (is left out). */
export function summarise(values: Iterable<number>, range: FilterRange | undefined): Summary {
  let s: Summary = { ...EMPTY };
  for (const v of values) {
    if (!inRange(v, range)) {
      s = { ...s, filtered: s.filtered + 1 };
      continue;
    }
    s = { count: s.count + 1, sum: s.sum + v, min: Math.min(s.min, v), max: Math.max(s.max, v), filtered: s.filtered };
  }
  return s;
}

export function merge(a: Summary, b: Summary): Summary {
  return {
    count: a.count + b.count,
    sum: a.sum + b.sum,
    min: Math.min(a.min, b.min),
    max: Math.max(a.max, b.max),
    filtered: a.filtered + b.filtered,
  };
}

export interface MinAvgMax {
  Min: number;
  Avg: number;
  Max: number;
  Count: number;
}

/** Min, average and max to 3 decimals; null when no reading counted. */
export function minAvgMax(s: Summary): MinAvgMax | null {
  if (s.count === 0) return null;
  return { Min: roundValue(s.min), Avg: roundValue(s.sum / s.count), Max: roundValue(s.max), Count: s.count };
}

/** Local days: the start of the day holding `ts`. */
export function dayStartOf(ts: number, offsetMinutes: number): number {
  const off = offsetMinutes * 60_000;
  return Math.floor((ts + off) / DAY_MS) * DAY_MS - off;
}

/**
 * A counter's increase per local day over [from, to), from its readings in time order (the
 * last one before `from` first, when known). A fall between readings is a reset: the counter
 * counted the new reading since. An increase between readings on different days is shared
 * among those days by the time each holds of the interval. Days without any increase are 0
 * only when readings span them; days no interval touches are absent (no data).
 */
export function counterByDay(readings: readonly Reading[], from: number, to: number, offsetMinutes: number): Map<number, number> {
  const days = new Map<number, number>();
  const add = (day: number, amount: number) => {
    if (day < from || day >= to) return;
    days.set(day, (days.get(day) ?? 0) + amount);
  };
  for (let i = 1; i < readings.length; i += 1) {
    const a = readings[i - 1];
    const b = readings[i];
    if (!a || !b || b.ts < a.ts) continue;
    const rise = b.value >= a.value ? b.value - a.value : b.value;
    const first = dayStartOf(a.ts, offsetMinutes);
    const last = dayStartOf(b.ts, offsetMinutes);
    if (first === last || b.ts === a.ts) {
      add(last, rise);
      continue;
    }
    const span = b.ts - a.ts;
    for (let day = first; day <= last; day += DAY_MS) {
      const overlap = Math.min(b.ts, day + DAY_MS) - Math.max(a.ts, day);
      if (overlap > 0) add(day, (rise * overlap) / span);
      else add(day, 0);
    }
  }
  // A day whose only reading is the first of the range still has data: nothing was counted.
  for (const r of readings) {
    const day = dayStartOf(r.ts, offsetMinutes);
    if (r.ts >= from && r.ts < to && !days.has(day)) days.set(day, 0);
  }
  return days;
}

/** A daily total after the range filter: out of range counts as zero. */
export function filteredTotal(total: number, range: FilterRange | undefined): { total: number; filtered: boolean } {
  return inRange(total, range) ? { total, filtered: false } : { total: 0, filtered: true };
}

/** Whether a day's value is within the standard: null when there is no standard. */
export function withinStandard(value: number, standard: string): boolean | null {
  const parsed = parseStandard(standard);
  if (!parsed || (parsed.min === undefined && parsed.max === undefined)) return null;
  return meetsStandard(value, standard);
}

export interface Compliance {
  MeasuredDays: number;
  CompliantDays: number;
  /** CompliantDays / MeasuredDays to 3 decimals; null without a measured day. */
  Rate: number | null;
}

export function compliance(days: readonly (boolean | null)[]): Compliance {
  const measured = days.filter((d) => d !== null);
  const compliant = measured.filter((d) => d).length;
  return {
    MeasuredDays: measured.length,
    CompliantDays: compliant,
    Rate: measured.length === 0 ? null : roundValue(compliant / measured.length),
  };
}

export interface StateTime {
  /** The state's value as read (0, 1, 2 …, or a text). */
  State: string;
  Seconds: number;
  /** Share of the range's time with data, to 3 decimals. */
  Share: number;
}

/**
 * Time in each state over [from, to): each reading holds from its time until the next reading,
 * at most `holdMs` (beyond that nothing is known). The reading before `from`, when given first,
 * holds into the range.
 */
export function stateTimes(
  readings: readonly { ts: number; state: string }[],
  from: number,
  to: number,
  holdMs: number,
): { states: StateTime[]; knownSeconds: number; unknownSeconds: number } {
  const ms = new Map<string, number>();
  for (let i = 0; i < readings.length; i += 1) {
    const r = readings[i];
    if (!r) continue;
    const next = readings[i + 1]?.ts ?? Infinity;
    const start = Math.max(r.ts, from);
    const end = Math.min(next, r.ts + holdMs, to);
    if (end > start) ms.set(r.state, (ms.get(r.state) ?? 0) + (end - start));
  }
  const known = [...ms.values()].reduce((a, b) => a + b, 0);
  const states = [...ms.entries()]
    .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
    .map(([State, t]) => ({ State, Seconds: roundValue(t / 1000), Share: known === 0 ? 0 : roundValue(t / known) }));
  return { states, knownSeconds: roundValue(known / 1000), unknownSeconds: roundValue(Math.max(0, to - from - known) / 1000) };
}
