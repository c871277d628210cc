/**
 * Monitoring of many devices at once (spec §7): {g}/DeviceMonitorData (?Dt) — each device's
 * newest values, or with Dt that local day's last values and min/max/avg from the daily
 * roll-ups — and {g}/DeviceDayMonitorData (Begin, End) — per device and day, each key's daily
 * statistics. Both read roll-ups and latest values only, never raw rows.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dayMonitorQuery, dayMonitorRowDto, monitorQuery, monitorRowDto } from '@sluice/shared/telemetry.schema';
import { currentUser } from '../../auth/access.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { DAY_MS, dayStart } from './rollup.ts';
import { MonitorService, type DayOfDevice } from './monitor.service.ts';
import { reachableDevices } from './reachable-devices.repository.ts';

const tags = ['Live data'];
const view = { operate: 'device.view' } as const;
const g = z.object({ g: z.string() });
const MAX_DAYS = 366;

export function monitorRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db, scope } = app.ctx;
  const monitor = () => new MonitorService(app.live.history, app.live.offsetMinutes);

  app.get(
    '/:g/DeviceMonitorData',
    {
      config: { access: view },
      schema: {
        tags,
        summary:
          'Every device the caller reaches (optionally of ProjectId, or one DeviceSn) with its newest values and state; with Dt (YYYY-MM-DD) that day’s last values and statistics',
        params: g,
        querystring: monitorQuery,
        response: { 200: envelopeOf(z.array(monitorRowDto)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { Dt, ProjectId, DeviceSn } = request.query;
      if (ProjectId !== undefined) await scope.project(user, ProjectId);
      const devices = await reachableDevices(db, user, { projectId: ProjectId, deviceSn: DeviceSn });
      const sns = devices.map((d) => d.deviceSn);
      const warned = await app.live.alarmsRepository.withActive(user.groupId, sns);
      const latest = await app.live.history.latest(user.groupId, sns);
      let daily: Map<string, DayOfDevice> | undefined;
      if (Dt !== undefined) {
        const from = dayStart(Dt, app.live.offsetMinutes);
        const byDay = await monitor().dayStats(user.groupId, sns, from, from + DAY_MS);
        daily = new Map();
        for (const [sn, days] of byDay) {
          const day = days.get(Dt);
          if (day) daily.set(sn, day);
        }
      }
      const rows = devices.map((d) => {
        const state = d.online ? (warned.has(d.deviceSn) ? 2 : 1) : 0;
        const base = { DeviceSn: d.deviceSn, DeviceName: d.name, ProjectId: d.projectId, Online: d.online, State: state };
        if (!daily) {
          const l = latest.get(d.deviceSn);
          return { ...base, Time: l?.ts ?? null, Data: l?.data ?? {} };
        }
        const day = daily.get(d.deviceSn);
        return { ...base, Time: day?.time ?? null, Data: day?.data ?? {}, Stats: day?.stats ?? {} };
      });
      return ok(request, rows, { count: rows.length });
    },
  );

  app.get(
    '/:g/DeviceDayMonitorData',
    {
      config: { access: view },
      schema: {
        tags,
        summary:
          'Per device and local day from Begin to End (YYYY-MM-DD, at most 366 days): each key’s min, max, average, first, last and count, from the daily roll-ups',
        params: g,
        querystring: dayMonitorQuery,
        response: { 200: envelopeOf(z.array(dayMonitorRowDto)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { Begin, End, ProjectId, DeviceSn, Keys } = request.query;
      const offset = app.live.offsetMinutes;
      const from = dayStart(Begin, offset);
      const to = dayStart(End, offset) + DAY_MS;
      if (!(from < to)) throw new AppError(400, 'history.badRange', {}, 'Begin');
      if (to - from > MAX_DAYS * DAY_MS) throw new AppError(400, 'history.rangeTooLong', { days: MAX_DAYS }, 'End');
      if (ProjectId !== undefined) await scope.project(user, ProjectId);
      const devices = await reachableDevices(db, user, { projectId: ProjectId, deviceSn: DeviceSn });
      const keys = Keys ? new Set(Keys.split(',').map((k) => k.trim())) : undefined;
      const byDay = await monitor().dayStats(
        user.groupId,
        devices.map((d) => d.deviceSn),
        from,
        to,
        keys,
      );
      const rows: z.infer<typeof dayMonitorRowDto>[] = [];
      for (const d of devices) {
        for (const [date, day] of [...(byDay.get(d.deviceSn) ?? new Map<string, DayOfDevice>())].sort(([a], [b]) =>
          a.localeCompare(b),
        )) {
          rows.push({ DeviceSn: d.deviceSn, Date: date, Data: day.stats });
        }
      }
      return ok(request, rows, { count: rows.length });
    },
  );
}
