/**
 * GET DeviceOnline/GetDeviceOnline: hours online per device per local day between BeginTime and
 * EndTime (dates; the last 7 days by default, §9), from the recorded online periods, and
 * their total by the §5 device-online summation rule.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { onlineQuery, onlineRowDto } from '@sluice/shared/telemetry.schema';
import { currentUser } from '../../auth/access.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { DAY_MS, dayOf, dayStart, localDate } from '../telemetry/rollup.ts';
import { reachableDevices } from '../telemetry/reachable-devices.repository.ts';
import { OnlineRepository, type OnlinePeriod } from './online.repository.ts';

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

export function onlineRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  const { scope } = app.ctx;
  const repository = new OnlineRepository(db);

  app.get(
    '/DeviceOnline/GetDeviceOnline',
    {
      config: { access: { operate: 'device.view' } },
      schema: {
        tags: ['Live data'],
        summary:
          'Hours online per device and local day (BeginTime, EndTime as YYYY-MM-DD; last 7 days by default), optionally of ProjectId or one DeviceSn',
        querystring: onlineQuery,
        response: { 200: envelopeOf(z.array(onlineRowDto)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const offset = app.live.offsetMinutes;
      const now = Date.now();
      const today = dayOf(now, offset);
      const { BeginTime, EndTime, ProjectId, DeviceSn } = request.query;
      const to = EndTime ? dayStart(EndTime, offset) + DAY_MS : today + DAY_MS;
      const from = BeginTime ? dayStart(BeginTime, offset) : to - 7 * DAY_MS;
      if (!(from < to)) throw new AppError(400, 'history.badRange', {}, 'BeginTime');
      if (to - from > MAX_DAYS * DAY_MS) throw new AppError(400, 'history.rangeTooLong', { days: MAX_DAYS }, 'EndTime');
      if (ProjectId !== undefined) await scope.project(user, ProjectId);
      const devices = await reachableDevices(db, user, { projectId: ProjectId, deviceSn: DeviceSn });
      const periods = await repository.periods(
        user.groupId,
        devices.map((d) => d.deviceSn),
        from,
        to,
      );
      const bySn = new Map<string, OnlinePeriod[]>();
      for (const p of periods) bySn.set(p.deviceSn, [...(bySn.get(p.deviceSn) ?? []), p]);
      const rows = devices.map((d) => {
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
      return ok(request, rows, { count: rows.length });
    },
  );
}
