/**
 * Hours online per device and local day between two dates (DeviceOnline/GetDeviceOnline), from
 * the recorded online periods, and their total by the §5 device-online summation rule.
 */
import type { z } from 'zod';
import type { onlineQuery } from '@sluice/shared/telemetry.schema';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/errors.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import type { SiteScope } from '../sites/site-scope.ts';
import { DAY_MS, dayOf, dayStart, localDate } from '../telemetry/rollup.ts';
import { reachableDevices } from '../telemetry/reachable-devices.repository.ts';
import type { OnlinePeriod, OnlineRepository } from './online.repository.ts';

const MAX_DAYS = 366;
/** Hours of a day: the 'default' of the summation rule. */
const DAY_HOURS = 24;

/**
 * §5 device-online summation: a value above 365 × the default × 100 counts as zero (a guard
 * against absurd values), the rest add up.
 */
export function sumOnline(values: number[], defaultValue = DAY_HOURS): number {
  const limit = 365 * defaultValue * 100;
  return Math.round(values.reduce((sum, v) => sum + (v > limit ? 0 : v), 0) * 100) / 100;
}

/** Online milliseconds per local day (start of day → ms) of one device's periods within [from, to). */
export function onlinePerDay(
  periods: OnlinePeriod[],
  from: number,
  to: number,
  now: number,
  offsetMinutes: number,
): Map<number, number> {
  const days = new Map<number, number>();
  for (const p of periods) {
    let start = Math.max(p.startedAt, from);
    const end = Math.min(p.endedAt ?? now, to);
    while (start < end) {
      const day = dayOf(start, offsetMinutes);
      const stop = Math.min(end, day + DAY_MS);
      days.set(day, (days.get(day) ?? 0) + (stop - start));
      start = stop;
    }
  }
  return days;
}

export interface OnlineHoursRow {
  DeviceSn: string;
  DeviceName: string;
  Online: boolean;
  Days: { Date: string; Hours: number }[];
  TotalHours: number;
}

export class OnlineHoursService {
  private readonly db: Db;
  private readonly repository: OnlineRepository;
  private readonly scope: SiteScope;

  constructor(deps: { db: Db; repository: OnlineRepository; scope: SiteScope }) {
    this.db = deps.db;
    this.repository = deps.repository;
    this.scope = deps.scope;
  }

  /** The devices the user reaches (of a project, or one), each with its hours per day from BeginTime to EndTime (the last 7 days by default). */
  async report(
    user: CurrentUser,
    query: z.infer<typeof onlineQuery>,
    offset: number,
    now = Date.now(),
  ): Promise<OnlineHoursRow[]> {
    const today = dayOf(now, offset);
    const { BeginTime, EndTime, ProjectId, DeviceSn } = query;
    const to = EndTime ? dayStart(EndTime, offset) + DAY_MS : today + DAY_MS;
    const from = BeginTime ? dayStart(BeginTime, offset) : to - 7 * DAY_MS;
    if (!(from < to)) throw new AppError(400, 'history.badRange', {}, 'BeginTime');
    if (to - from > MAX_DAYS * DAY_MS) throw new AppError(400, 'history.rangeTooLong', { days: MAX_DAYS }, 'EndTime');
    if (ProjectId !== undefined) await this.scope.project(user, ProjectId);
    const devices = await reachableDevices(this.db, user, { projectId: ProjectId, deviceSn: DeviceSn });
    const periods = await this.repository.periods(
      user.groupId,
      devices.map((d) => d.deviceSn),
      from,
      to,
    );
    const bySn = new Map<string, OnlinePeriod[]>();
    for (const p of periods) bySn.set(p.deviceSn, [...(bySn.get(p.deviceSn) ?? []), p]);
    return devices.map((d) => {
      const perDay = onlinePerDay(bySn.get(d.deviceSn) ?? [], from, to, now, offset);
      const Days: { Date: string; Hours: number }[] = [];
      for (let day = from; day < to && day <= today; day += DAY_MS) {
        Days.push({ Date: localDate(day, offset), Hours: Math.round(((perDay.get(day) ?? 0) / 3_600_000) * 100) / 100 });
      }
      return {
        DeviceSn: d.deviceSn,
        DeviceName: d.name,
        Online: d.online,
        Days,
        TotalHours: sumOnline(Days.map((x) => x.Hours)),
      };
    });
  }
}
