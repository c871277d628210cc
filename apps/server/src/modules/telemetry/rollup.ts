/**
 * Hourly and daily roll-ups (count, sum, min, max, first, last) of numeric series, kept up to
 * date incrementally: each batch is summed here and merged into the stored buckets, so that
 * long-range charts and daily statistics never scan raw rows. Hours and days are local (the
 * configured UTC offset), so that a station's day is its own day.
 */
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

export interface Bucketing {
  /** Minutes east of UTC. */
  offsetMinutes: number;
}

export const hourOf = (ts: number, offsetMinutes: number) => {
  const off = offsetMinutes * 60_000;
  return Math.floor((ts + off) / HOUR_MS) * HOUR_MS - off;
};
export const dayOf = (ts: number, offsetMinutes: number) => {
  const off = offsetMinutes * 60_000;
  return Math.floor((ts + off) / DAY_MS) * DAY_MS - off;
};

/** 'YYYY-MM-DD' of the local day starting at or containing `ts`. */
export function localDate(ts: number, offsetMinutes: number): string {
  return new Date(ts + offsetMinutes * 60_000).toISOString().slice(0, 10);
}

/** The start of a local day written 'YYYY-MM-DD'. */
export function dayStart(date: string, offsetMinutes: number): number {
  const [y, m, d] = date.split('-').map(Number);
  return Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1) - offsetMinutes * 60_000;
}

export interface RollupRow {
  seriesId: number;
  bucket: number;
  cnt: number;
  sum: number;
  min: number;
  max: number;
  firstTs: number;
  first: number;
  lastTs: number;
  last: number;
}

/** Sums points into buckets. */
export class RollupAccumulator {
  private readonly rows = new Map<string, RollupRow>();
  private readonly bucketOf: (ts: number) => number;

  constructor(bucketOf: (ts: number) => number) {
    this.bucketOf = bucketOf;
  }

  add(seriesId: number, ts: number, value: number): void {
    const bucket = this.bucketOf(ts);
    const key = `${String(seriesId)}:${String(bucket)}`;
    const row = this.rows.get(key);
    if (!row) {
      this.rows.set(key, {
        seriesId,
        bucket,
        cnt: 1,
        sum: value,
        min: value,
        max: value,
        firstTs: ts,
        first: value,
        lastTs: ts,
        last: value,
      });
      return;
    }
    row.cnt += 1;
    row.sum += value;
    if (value < row.min) row.min = value;
    if (value > row.max) row.max = value;
    if (ts < row.firstTs) {
      row.firstTs = ts;
      row.first = value;
    }
    if (ts >= row.lastTs) {
      row.lastTs = ts;
      row.last = value;
    }
  }

  get size(): number {
    return this.rows.size;
  }

  values(): RollupRow[] {
    return [...this.rows.values()];
  }
}
