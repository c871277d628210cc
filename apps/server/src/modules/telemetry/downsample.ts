/**
 * Downsampling for charts: a series with more points than the chart can draw keeps, in each
 * of maxPoints/2 equal time buckets, its lowest and highest point (in time order) — peaks and
 * dips survive, unlike averaging or taking every n-th point. Roll-up buckets are merged the
 * same way: min of mins, max of maxes, count-weighted average.
 */
export type Point = [number, number | string | null];

/** Min/max per bucket over [from, to); text points are thinned to the first of each bucket. */
export function minMax(ts: number[], values: (number | string | null)[], from: number, to: number, maxPoints: number): Point[] {
  const n = ts.length;
  if (n <= maxPoints) return ts.map((t, i) => [t, values[i] ?? null]);
  const buckets = Math.max(1, Math.floor(maxPoints / 2));
  const width = Math.max(1, (to - from) / buckets);
  const out: Point[] = [];
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
    if (lo < 0) {
      out.push([ts[first] ?? from, values[first] ?? null]);
      continue;
    }
    if (lo === hi) out.push([ts[lo] ?? from, values[lo] ?? null]);
    else {
      const [a, c] = lo < hi ? [lo, hi] : [hi, lo];
      out.push([ts[a] ?? from, values[a] ?? null], [ts[c] ?? from, values[c] ?? null]);
    }
  }
  return out;
}

export interface Bucket {
  bucket: number;
  cnt: number;
  sum: number;
  min: number;
  max: number;
}

/** Merges adjacent roll-up buckets until at most maxPoints remain. */
export function mergeBuckets(rows: Bucket[], maxPoints: number): Bucket[] {
  if (rows.length <= maxPoints) return rows;
  const factor = Math.ceil(rows.length / maxPoints);
  const out: Bucket[] = [];
  for (let i = 0; i < rows.length; i += factor) {
    const head = rows[i];
    if (!head) continue;
    const acc: Bucket = { bucket: head.bucket, cnt: head.cnt, sum: head.sum, min: head.min, max: head.max };
    for (let j = i + 1; j < Math.min(rows.length, i + factor); j++) {
      const r = rows[j];
      if (!r) continue;
      acc.cnt += r.cnt;
      acc.sum += r.sum;
      if (r.min < acc.min) acc.min = r.min;
      if (r.max > acc.max) acc.max = r.max;
    }
    out.push(acc);
  }
  return out;
}
