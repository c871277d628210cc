/**
 * An HJ 212 upload as a data message of the device protocol, so that it takes the same
 * ingestion path as MQTT data.
 *
 * Real-time and minute data are the analyser's readings: each mapped pollutant's value (Rtd, or
 * the minute's Avg) under its DataKey, scaled to the data point's unit, and its data flag beside
 * it under `<DataKey>_Flag`. A reading whose flag marks it invalid (the instrument stopped,
 * maintained, faulty, calibrating or cut off) is kept under `<DataKey>_Invalid` instead, so that
 * the analyser's chart, averages, compliance and alarms count only valid monitoring data, as
 * HJ 355/356 ask. A minute's total (-Cou: m³ of flow, kg of a pollutant) is kept under
 * `<DataKey>_Cou` in the standard's unit.
 *
 * Hourly and daily data are the logger's own statistics. Sluice computes its hourly and daily
 * roll-ups from the readings; the logger's figures are kept beside them, never mixed in, as
 * series of their own: `<DataKey>_HourAvg`, `_HourMin`, `_HourMax` (scaled), `_HourCou` (the
 * standard's unit) and `_HourFlag`, at the hour's DataTime; `_Day…` likewise for days.
 */
import { HJ212_VALID_FLAGS, parseHj212Time, type Hj212Upload } from '@sluice/shared/hj212';
import type { CodeRow } from './hj212.repository.ts';

export interface UploadValues {
  /** Epoch ms of DataTime. */
  time: number;
  values: Record<string, number | string>;
  /** Pollutant codes sent that the group's table does not map. */
  unmapped: string[];
}

type Reading = Hj212Upload['readings'][number];

/** Without the binary noise of the multiplication (3.6 × 2.5 = 9.000000000000002). */
const scaled = (value: number, scale: number) => Number((value * scale).toPrecision(12));

/** Real-time data carries Rtd; minute data Avg (a logger without Avg sends Rtd). */
function readingValues(upload: Hj212Upload, reading: Reading, code: CodeRow, out: Record<string, number | string>): void {
  const value =
    upload.kind === 'realtime' ? (reading.values.Rtd ?? reading.values.Avg) : (reading.values.Avg ?? reading.values.Rtd);
  const flag = reading.flag ?? 'N';
  out[`${code.dataKey}_Flag`] = flag;
  if (value !== undefined) {
    out[HJ212_VALID_FLAGS.includes(flag) ? code.dataKey : `${code.dataKey}_Invalid`] = scaled(value, code.scale);
  }
  if (reading.values.Cou !== undefined) out[`${code.dataKey}_Cou`] = reading.values.Cou;
}

/** The logger's hourly or daily figures, as series of their own. */
function statisticValues(prefix: string, reading: Reading, code: CodeRow, out: Record<string, number | string>): void {
  const { Avg, Min, Max, Cou, Rtd } = reading.values;
  const key = `${code.dataKey}_${prefix}`;
  out[`${key}Flag`] = reading.flag ?? 'N';
  const avg = Avg ?? Rtd;
  if (avg !== undefined) out[`${key}Avg`] = scaled(avg, code.scale);
  if (Min !== undefined) out[`${key}Min`] = scaled(Min, code.scale);
  if (Max !== undefined) out[`${key}Max`] = scaled(Max, code.scale);
  if (Cou !== undefined) out[`${key}Cou`] = Cou;
}

const STATISTIC_PREFIX: Partial<Record<Hj212Upload['kind'], string>> = { hourly: 'Hour', daily: 'Day' };

export function uploadValues(upload: Hj212Upload, codes: CodeRow[], offsetMinutes: number): UploadValues | undefined {
  const time = parseHj212Time(upload.dataTime, offsetMinutes);
  if (time === undefined) return undefined;
  const byCode = new Map(codes.map((c) => [c.code.toLowerCase(), c]));
  const values: Record<string, number | string> = {};
  const unmapped: string[] = [];
  const prefix = STATISTIC_PREFIX[upload.kind];
  for (const reading of upload.readings) {
    const code = byCode.get(reading.code.toLowerCase());
    if (!code) {
      unmapped.push(reading.code);
      continue;
    }
    if (prefix) statisticValues(prefix, reading, code, values);
    else readingValues(upload, reading, code, values);
  }
  return { time, values, unmapped };
}
