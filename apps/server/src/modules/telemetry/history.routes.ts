/**
 * History and latest values of one device (spec §7 Monitoring): {kind}/{deviceSn}/DeviceHisData
 * (BeginTime, EndTime, type, keys; Format=csv to export), …/DeviceHisData/Latest and
 * DeviceHis/GetLatestDeviceHis (devicesn). The device must be one the caller reaches.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deviceSn } from '@sluice/shared/device.schema';
import { historyColumnsDto, historyDto, historyQuery, latestDto } from '@sluice/shared/telemetry.schema';
import { currentUser } from '../../auth/access.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { checkGroupSegment } from '../sites/path-group.ts';
import type { KnownDevice } from './device-directory.ts';
import { HistoryService } from './history.service.ts';
import { XLSX_CONTENT_TYPE } from '../data-defines/xlsx.ts';

const tags = ['Live data'];
const view = { operate: 'device.view' } as const;
const deviceParams = z.object({ kind: z.string(), deviceSn });

export function historyRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { config, scope } = app.ctx;
  const service = (): HistoryService =>
    new HistoryService(app.live.history, app.live.directory, app.live.offsetMinutes, config.HISTORY_MAX_POINTS);

  /** The device, when the caller reaches it (404 otherwise), with its online flag and alarm state. */
  const reach = async (
    request: FastifyRequest,
    sn: string,
  ): Promise<{ device: KnownDevice; online: boolean; warning: boolean }> => {
    const user = currentUser(request);
    const row = await scope.device(user, sn);
    const device: KnownDevice = {
      groupId: row.group_id,
      deviceSn: row.device_sn,
      projectId: row.project_id,
      typeId: row.type_id,
      name: row.device_name,
    };
    const warning = (await app.live.alarmsRepository.withActive(row.group_id, [row.device_sn])).has(row.device_sn);
    return { device, online: row.online === 1, warning };
  };

  app.get(
    '/:kind/:deviceSn/DeviceHisData',
    {
      config: { access: view },
      schema: {
        tags,
        summary:
          'History of a device for charts: per key at most MaxPoints points (default 2,000; min/max per bucket), from raw rows, hourly or daily roll-ups chosen by the range (Type=auto) or named (raw, hour, day). Format=csv or xlsx exports every row in range; a series the type’s statistics hold to a standard carries it. Layout=columns answers each series’ points as columns (Times, Values, Mins, Maxs) instead of rows (Points, Bands).',
        params: deviceParams,
        querystring: historyQuery,
        response: { 200: envelopeOf(z.union([historyDto, historyColumnsDto])) },
      },
    },
    async (request, reply) => {
      checkGroupSegment(request.params.kind, currentUser(request));
      const { device } = await reach(request, request.params.deviceSn);
      if (request.query.Format === 'csv') {
        const rows = service().csv(device, request.query);
        // Run the first step now, so that a refusal (too many rows, bad range) is an ordinary error.
        const first = await rows.next();
        const stream = Readable.from(
          (async function* () {
            if (!first.done) yield first.value;
            yield* rows;
          })(),
        );
        const name = `${device.deviceSn}-${new Date().toISOString().slice(0, 10)}.csv`;
        // A file, not the envelope: sent through the untyped reply.
        const file: FastifyReply = reply;
        return file
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${name}"`)
          .send(stream);
      }
      if (request.query.Format === 'xlsx') {
        const workbook = await service().xlsx(device, request.query);
        const name = `${device.deviceSn}-${new Date().toISOString().slice(0, 10)}.xlsx`;
        const file: FastifyReply = reply;
        return file
          .header('content-type', XLSX_CONTENT_TYPE)
          .header('content-disposition', `attachment; filename="${name}"`)
          .send(workbook);
      }
      const standards = await app.ctx.statistics.standardsOf(device.groupId, device.typeId);
      return ok(request, await service().chart(device, request.query, undefined, standards));
    },
  );

  app.get(
    '/:kind/:deviceSn/DeviceHisData/Latest',
    {
      config: { access: view },
      schema: {
        tags,
        summary: "A device's newest values with names and units, its online flag and state (2: online with warning)",
        params: deviceParams,
        response: { 200: envelopeOf(latestDto) },
      },
    },
    async (request) => {
      checkGroupSegment(request.params.kind, currentUser(request));
      const { device, online, warning } = await reach(request, request.params.deviceSn);
      return ok(request, await service().latest(device, online, warning));
    },
  );

  app.get(
    '/DeviceHis/GetLatestDeviceHis',
    {
      config: { access: view },
      schema: {
        tags,
        summary: "A device's newest values (devicesn)",
        querystring: z.preprocess(
          (q) =>
            q && typeof q === 'object'
              ? {
                  devicesn:
                    (q as Record<string, unknown>).devicesn ??
                    (q as Record<string, unknown>).DeviceSn ??
                    (q as Record<string, unknown>).deviceSn,
                }
              : q,
          z.object({ devicesn: deviceSn }),
        ),
        response: { 200: envelopeOf(latestDto) },
      },
    },
    async (request) => {
      const { device, online, warning } = await reach(request, request.query.devicesn);
      return ok(request, await service().latest(device, online, warning));
    },
  );
}
