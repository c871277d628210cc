/**
 * Downsampling for charts: a series with more points than the chart can draw keeps, in each
 * of maxPoints/2 equal time buckets, its lowest and highest point (in time order) — peaks and
 * dips survive, unlike averaging or taking every n-th point. Roll-up buckets are merged the
 * same way: min of mins, max of maxes, count-weighted average.
 */
import { roundValue } from '@sluice/shared/number-format';

/** A series' points as columns: times (ms) and values; from roll-ups also each bucket's min and max. */
export interface PointColumns {
  times: number[];
  values: (number | string | null)[];
  mins?: number[];
  maxs?: number[];
}

/** Min/max per bucket over [from, to); text points are thinned to the first of each bucket. */
export function minMax(
  ts: ArrayLike<number>,
  values: ArrayLike<number | string | null>,
  from: number,
  to: number,
  maxPoints: number,
): PointColumns {
  const n = ts.length;
  const out: PointColumns = { times: [], values: [] };
  const push = (i: number) => {
    out.times.push(ts[i] ?? from);
    out.values.push(values[i] ?? null);
  };
  if (n <= maxPoints) {
    for (let i = 0; i < n; i++) push(i);
    return out;
  }
  const buckets = Math.max(1, Math.floor(maxPoints / 2));
  const width = Math.max(1, (to - from) / buckets);
  let i = 0;
  while (i < n) {
    const b = Math.min(buckets - 1, Math.floor(((ts[i] ?? from) - from) / width));
    let lo = -1;
    let hi = -1;
    const first = i;
    for (; i < n && Math.min(buckets - 1, Math.floor(((ts[i] ?? from) - from) / width)) === b; i++) {
      const v = values[i];
      if (typeof v !== 'number') continue;
      if (lo < 0 || v < (values[lo] as number)) lo = i;
      if (hi < 0 || v > (values[hi] as number)) hi = i;
    }
    if (lo < 0) push(first);
    else if (lo === hi) push(lo);
    else {
      push(Math.min(lo, hi));
      push(Math.max(lo, hi));
    }
  }
  return out;
}

/** Roll-up buckets of a series as columns. */
export interface BucketColumns {
  length: number;
  bucket: ArrayLike<number>;
  cnt: ArrayLike<number>;
  sum: ArrayLike<number>;
  min: ArrayLike<number>;
  max: ArrayLike<number>;
}

/**
 * Merges adjacent buckets until at most maxPoints remain: each point's time is its first
 * bucket's, its value the count-weighted average (3 decimals), with its min and max; `count` is
 * the readings they hold.
 */
export function mergeBuckets(c: BucketColumns, maxPoints: number): Required<PointColumns> & { values: number[]; count: number } {
  const end = c.length;
  const factor = Math.max(1, Math.ceil(end / maxPoints));
  const out = { times: [] as number[], values: [] as number[], mins: [] as number[], maxs: [] as number[], count: 0 };
  for (let i = 0; i < end; i += factor) {
    let cnt = 0;
    let sum = 0;
    let min = Infinity;
    let max = -Infinity;
    for (let j = i; j < Math.min(end, i + factor); j++) {
      cnt += c.cnt[j] ?? 0;
      sum += c.sum[j] ?? 0;
      const lo = c.min[j] ?? Infinity;
      const hi = c.max[j] ?? -Infinity;
      if (lo < min) min = lo;
      if (hi > max) max = hi;
    }
    out.times.push(c.bucket[i] ?? 0);
    out.values.push(roundValue(sum / cnt));
    out.mins.push(min);
    out.maxs.push(max);
    out.count += cnt;
  }
  return out;
}
