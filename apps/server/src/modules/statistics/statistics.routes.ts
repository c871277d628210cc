/**
 * Statistics (spec §7 Monitoring, history and statistics): {g}/DeviceStatisticsData (each day's
 * or month's figures of the type's statistics), {g}/DeviceDiscreteStatistics (time in each state,
 * days within the standard) and Device/GetRegionStatisticsDevice (per station or project: today
 * and this month). Devices and sites are those the caller reaches (group and role projects).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  discreteRecordDto,
  regionStatisticsDto,
  regionStatisticsQuery,
  statisticsQuery,
  statisticsRecordDto,
} from '@sluice/shared/statistics.schema';
import { currentUser } from '../../auth/access.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';

const tags = ['Statistics'];
const view = { operate: 'device.view' } as const;
const g = z.object({ g: z.string() });

export function statisticsRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { statistics } = app.ctx;

  app.get(
    '/:g/DeviceStatisticsData',
    {
      config: { access: view },
      schema: {
        tags,
        summary:
          "Per device (DeviceSn, or the devices of ProjectId or ClientId) and day or month (Period) from Begin to End: each of its type's statistics — min/avg/max (range filter applied), a counter's total (resets and gaps handled), whether the day met the standard",
        params: g,
        querystring: statisticsQuery,
        response: { 200: envelopeOf(z.array(statisticsRecordDto)) },
      },
    },
    async (request) => {
      const rows = await statistics.statisticsData(currentUser(request), request.query);
      return ok(request, rows, { count: rows.length });
    },
  );

  app.get(
    '/:g/DeviceDiscreteStatistics',
    {
      config: { access: view },
      schema: {
        tags,
        summary:
          "Per device (DeviceSn, ProjectId or ClientId) from Begin to End: each discrete statistic's time in each state, and each measurement held to a standard its days within it (compliance rate)",
        params: g,
        querystring: statisticsQuery,
        response: { 200: envelopeOf(z.array(discreteRecordDto)) },
      },
    },
    async (request) => {
      const rows = await statistics.discreteStatistics(currentUser(request), request.query);
      return ok(request, rows, { count: rows.length });
    },
  );

  app.get(
    '/Device/GetRegionStatisticsDevice',
    {
      config: { access: view },
      schema: {
        tags,
        summary:
          'Per station (By=station) or project the caller reaches, optionally of ProjectId, ClientId or RegionId: devices, online, warning; counters today and this month (treated water, energy, kWh per m³); effluent compliance this month',
        querystring: regionStatisticsQuery,
        response: { 200: envelopeOf(regionStatisticsDto) },
      },
    },
    async (request) => ok(request, await statistics.regionStatistics(currentUser(request), request.query)),
  );
}
