/**
 * An HJ 212 upload as a data message of the device protocol, so that it takes the same
 * ingestion path as MQTT data: each mapped pollutant's value under its DataKey (scaled to the
 * data point's unit) and its data flag beside it under `<DataKey>_Flag`. A reading whose flag
 * marks it invalid (the instrument stopped, maintained, faulty, calibrating or cut off) is kept
 * under `<DataKey>_Invalid` instead, so that the analyser's chart, averages, compliance and
 * alarms count only valid monitoring data, as HJ 355/356 ask.
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

/** Real-time data carries Rtd; minute data Avg (a logger without Avg sends Rtd). */
function valueOf(upload: Hj212Upload, reading: Hj212Upload['readings'][number]): number | undefined {
  return upload.kind === 'realtime' ? (reading.values.Rtd ?? reading.values.Avg) : (reading.values.Avg ?? reading.values.Rtd);
}

export function uploadValues(upload: Hj212Upload, codes: CodeRow[], offsetMinutes: number): UploadValues | undefined {
  const time = parseHj212Time(upload.dataTime, offsetMinutes);
  if (time === undefined) return undefined;
  const byCode = new Map(codes.map((c) => [c.code.toLowerCase(), c]));
  const values: Record<string, number | string> = {};
  const unmapped: string[] = [];
  for (const reading of upload.readings) {
    const code = byCode.get(reading.code.toLowerCase());
    if (!code) {
      unmapped.push(reading.code);
      continue;
    }
    const value = valueOf(upload, reading);
    const flag = reading.flag ?? 'N';
    values[`${code.dataKey}_Flag`] = flag;
    if (value === undefined) continue;
    // Scaled, without the binary noise of the multiplication (3.6 × 2.5 = 9.000000000000002).
    const scaled = Number((value * code.scale).toPrecision(12));
    values[HJ212_VALID_FLAGS.includes(flag) ? code.dataKey : `${code.dataKey}_Invalid`] = scaled;
  }
  return { time, values, unmapped };
}
