/**
 * What one pollutant's period (a minute interval, an hour, a day) is sent as to a supervising
 * platform: `-Avg`, `-Min`, `-Max` in the standard's unit, the period's total `-Cou` where the
 * code has one, and `-Flag`.
 *
 * - The figures are of the period's valid readings (flag N or T); its flag is N, or T when a
 *   reading was over the instrument's upper limit.
 * - A period with readings but none valid (the instrument stopped, maintained, faulty,
 *   calibrating, cut off, or a value set by hand) is still sent, as HJ 212 and HJ 355/356 want
 *   platforms to know why there is no valid datum: the figures of those readings with the flag
 *   most of them carry (the latest on a tie).
 * - Totals (the code table's Total): a flow's volume is its average rate (L/s) × the period's
 *   length, in m³; a pollutant's load is its average concentration (mg/L, that is g/m³) × the
 *   flow's volume of the same period ÷ 1000, in kg (none without flow data).
 */
import { HJ212_VALID_FLAGS } from '@sluice/shared/hj212';
import type { CodeRow } from './hj212.repository.ts';

export interface Reading {
  ts: number;
  /** In the data point's unit. */
  value: number;
  flag: string;
}

export interface PeriodFigures {
  avg: number;
  /** Undefined when the logger's own figures of an hour or a day had none. */
  min: number | undefined;
  max: number | undefined;
  flag: string;
}

/** A period's figures in the standard's unit (the code's scale undone), or undefined without readings. */
export function periodFigures(readings: Reading[], scale: number): PeriodFigures | undefined {
  const valid = readings.filter((r) => HJ212_VALID_FLAGS.includes(r.flag));
  const used = valid.length > 0 ? valid : readings;
  if (used.length === 0) return undefined;
  const values = used.map((r) => r.value / scale);
  const flag = valid.length > 0 ? (valid.some((r) => r.flag === 'T') ? 'T' : 'N') : mostCommonFlag(used);
  return {
    avg: values.reduce((a, b) => a + b, 0) / values.length,
    min: Math.min(...values),
    max: Math.max(...values),
    flag,
  };
}

function mostCommonFlag(readings: Reading[]): string {
  const counts = new Map<string, number>();
  let best = '';
  let bestCount = 0;
  // Oldest first, so that a later flag with as many readings wins the tie.
  for (const r of [...readings].sort((a, b) => a.ts - b.ts)) {
    const n = (counts.get(r.flag) ?? 0) + 1;
    counts.set(r.flag, n);
    if (n >= bestCount) {
      best = r.flag;
      bestCount = n;
    }
  }
  return best;
}

/** The flow's volume in m³ over `periodMs` from its average rate in L/s. */
export const volumeOf = (avgLitresPerSecond: number, periodMs: number) => (avgLitresPerSecond * periodMs) / 1000 / 1000;

/** The period's total of a code in the standard's unit (m³ or kg), or undefined when it has none. */
export function totalOf(code: Pick<CodeRow, 'total'>, figures: PeriodFigures, periodMs: number, volume: number | undefined) {
  if (code.total === 'volume') return volumeOf(figures.avg, periodMs);
  if (code.total === 'load' && volume !== undefined) return (figures.avg * volume) / 1000;
  return undefined;
}

/** A value as the standard writes it: plain decimals, at most 4 places. */
export function hj212Number(value: number): string {
  return String(Number(value.toFixed(4)));
}

/** A code's CP group: `code-Avg`, `-Min`, `-Max`, `-Cou` (those it has), `-Flag`. */
export function periodGroup(code: string, figures: PeriodFigures, total: number | undefined): [string, string][] {
  const fields: [string, number | undefined][] = [
    ['Avg', figures.avg],
    ['Min', figures.min],
    ['Max', figures.max],
    ['Cou', total],
  ];
  return [
    ...fields.flatMap(([suffix, v]): [string, string][] => (v === undefined ? [] : [[`${code}-${suffix}`, hj212Number(v)]])),
    [`${code}-Flag`, figures.flag],
  ];
}
