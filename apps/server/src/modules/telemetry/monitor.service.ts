/**
 * Monitoring of many devices at once: each device's newest values, or a day's last values and
 * per-key statistics from the daily roll-ups, never raw rows.
 */
import type { z } from 'zod';
import type { statsDto } from '@sluice/shared/telemetry.schema';
import { roundValue } from '@sluice/shared/number-format';
import type { HistoryRepository } from './history.repository.ts';
import { localDate } from './rollup.ts';

export type Stats = z.infer<typeof statsDto>;

export interface DayOfDevice {
  /** Each key's last value of the day. */
  data: Record<string, number>;
  stats: Record<string, Stats>;
  /** The day's newest reading time. */
  time: number | null;
}

export class MonitorService {
  private readonly history: HistoryRepository;
  private readonly offsetMinutes: number;
  constructor(history: HistoryRepository, offsetMinutes: number) {
    this.history = history;
    this.offsetMinutes = offsetMinutes;
  }

  /** Daily statistics of devices' series over [from, to): device → 'YYYY-MM-DD' → that day. */
  async dayStats(
    groupId: number,
    sns: string[],
    from: number,
    to: number,
    keys?: Set<string>,
  ): Promise<Map<string, Map<string, DayOfDevice>>> {
    const series = (await this.history.seriesOf(groupId, sns)).filter((s) => !keys || keys.has(s.key));
    const rows = await this.history.rollups(
      'telemetry_daily',
      series.map((s) => s.id),
      from,
      to,
    );
    const out = new Map<string, Map<string, DayOfDevice>>();
    for (const s of series) {
      for (const b of rows.get(s.id) ?? []) {
        const date = localDate(b.bucket, this.offsetMinutes);
        const days = out.get(s.deviceSn) ?? new Map<string, DayOfDevice>();
        out.set(s.deviceSn, days);
        const day = days.get(date) ?? { data: {}, stats: {}, time: null };
        days.set(date, day);
        day.data[s.key] = b.last;
        day.stats[s.key] = { Min: b.min, Max: b.max, Avg: roundValue(b.sum / b.cnt), First: b.first, Last: b.last, Count: b.cnt };
        day.time = Math.max(day.time ?? 0, b.lastTs);
      }
    }
    return out;
  }
}
