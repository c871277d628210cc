/**
 * Whether a server's memory grows during a benchmark, from bench/loop-probe.ts's reports: the
 * live heap (what a full collection left: V8's own, and those the benchmark forced at the edges
 * of the run), RSS and ArrayBuffers, with their slopes (least squares, MB a minute) over the
 * last part of the run — after the working set (every device's state, the caches, the queues
 * filled to their bounds) has formed, memory should not grow any more.
 */
import type { HeapReport, LoopReport } from './live-server.ts';

export interface Trend {
  first: number;
  last: number;
  peak: number;
  /** MB a minute over the window, NaN with fewer than 3 samples. */
  slope: number;
  samples: number;
}

/** Least-squares slope of (ms, MB) samples, in MB a minute. */
export function slopePerMinute(points: [at: number, mb: number][]): number {
  if (points.length < 3) return NaN;
  const n = points.length;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of points) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
  }
  return sxx === 0 ? NaN : (sxy / sxx) * 60_000;
}

function trendOf(reports: LoopReport[], pick: (r: LoopReport) => number | undefined, windowFrom: number): Trend {
  const all = reports.flatMap((r) => {
    const v = pick(r);
    return v === undefined || !Number.isFinite(v) ? [] : [[r.at, v] as [number, number]];
  });
  const window = all.filter(([at]) => at >= windowFrom);
  return {
    first: all[0]?.[1] ?? NaN,
    last: all.at(-1)?.[1] ?? NaN,
    peak: Math.max(...all.map(([, v]) => v)),
    slope: slopePerMinute(window),
    samples: window.length,
  };
}

export interface MemoryTrend {
  liveHeap: Trend;
  rss: Trend;
  arrayBuffers: Trend;
  /** The memory V8's heaps hold, the main thread's and the worker threads' together. */
  heapsPhysical: Trend;
  windowSeconds: number;
}

/**
 * Memory between `from` and `to` (the reports sent in that span), slopes over its last
 * `windowSeconds`.
 */
export function memoryTrend(reports: LoopReport[], from: number, to: number, windowSeconds: number): MemoryTrend {
  const within = reports.filter((r) => r.at >= from && r.at <= to);
  const windowFrom = to - windowSeconds * 1000;
  return {
    liveHeap: trendOf(within, (r) => r.liveHeapMb, windowFrom),
    rss: trendOf(within, (r) => r.rssMb, windowFrom),
    arrayBuffers: trendOf(within, (r) => r.arrayBuffersMb, windowFrom),
    heapsPhysical: trendOf(
      within,
      (r) => (r.physicalHeapMb ?? NaN) + (r.threads ?? []).reduce((a, t) => a + t.physicalMb, 0),
      windowFrom,
    ),
    windowSeconds,
  };
}

/** A forced collection's report as one line: the main thread's live heap and each thread's. */
export function heapsLine(report: HeapReport | undefined): string {
  if (!report) return '–';
  const mb = (v: number | undefined) => (v === undefined ? '–' : Math.round(v).toLocaleString('en-US'));
  const threads = (report.threads ?? []).map((t) => `thread ${String(t.threadId)} ${mb(t.liveMb)}`).join(', ');
  return `main ${mb(report.heapMb)}${threads ? `, ${threads}` : ''} MB live; RSS ${mb(report.rssMb)} MB`;
}

/** The live heap of the main thread and the worker threads, from a forced collection's report. */
export function totalLive(report: HeapReport | undefined): number | undefined {
  if (!report?.collected) return undefined;
  return report.heapMb + (report.threads ?? []).reduce((a, t) => a + (t.liveMb ?? t.usedMb), 0);
}

export interface MemoryVerdict {
  failures: string[];
  summary: string;
  /** The main thread's working set a device, KB (undefined without `before`). */
  perDeviceKb: number | undefined;
}

/**
 * Whether memory still grows once the working set has formed (every device heard, the caches
 * filled): the highest live heap of the main thread in the second half of what follows, against
 * the first half's — the queues fill and empty as they will (bounded by their settings), the
 * highest of each half is the queues at their fullest plus everything else, and only growth moves
 * it — and the live heap after the drain (queues empty) against the formed working set, which a
 * leak leaves behind.
 */
export function judgeMemory(
  reports: LoopReport[],
  points: {
    before?: HeapReport | undefined;
    formed: HeapReport | undefined;
    end: HeapReport | undefined;
    drained: HeapReport | undefined;
    devices: number;
    limitMb: number;
    limitPercent: number;
  },
): MemoryVerdict {
  const { before, formed, end, drained } = points;
  const base = totalLive(formed);
  if (!formed || !end || base === undefined)
    return { failures: ['the live heap could not be read (no --expose-gc?)'], summary: '–', perDeviceKb: undefined };
  const limit = Math.max(points.limitMb, (points.limitPercent / 100) * base);
  const mid = (formed.at + end.at) / 2;
  // The main thread's live heap: after V8's own full collections, and the forced ones.
  const samples = [
    ...reports.flatMap((r) => (r.liveHeapMb === undefined ? [] : [{ at: r.at, mb: r.liveHeapMb }])),
    { at: formed.at, mb: formed.heapMb },
    { at: end.at, mb: end.heapMb },
  ].filter((r) => r.at >= formed.at && r.at <= end.at);
  const highest = (from: number, to: number) => Math.max(...samples.filter((r) => r.at >= from && r.at < to).map((r) => r.mb));
  const growth = highest(mid, end.at + 1) - highest(formed.at, mid);
  const kept = (totalLive(drained) ?? NaN) - base;
  const failures: string[] = [];
  if (growth > limit)
    failures.push(
      `memory still growing: the live heap's highest rose ${growth.toFixed(0)} MB from one half of the run to the next (limit ${limit.toFixed(0)})`,
    );
  if (kept > limit)
    failures.push(
      `memory kept: the live heap after the drain is ${kept.toFixed(0)} MB above the working set (limit ${limit.toFixed(0)})`,
    );
  // The main thread's: the worker threads start with the first commit and read (their heaps are reported beside).
  const beforeMb = before?.collected ? before.heapMb : undefined;
  return {
    failures,
    summary: `highest of the second half − the first ${growth >= 0 ? '+' : ''}${growth.toFixed(0)} MB, after the drain − working set ${kept >= 0 ? '+' : ''}${kept.toFixed(0)} MB (limit ${limit.toFixed(0)} MB each)`,
    perDeviceKb: beforeMb === undefined ? undefined : ((formed.heapMb - beforeMb) * 1024) / points.devices,
  };
}
