/**
 * The legacy DeviceBaseData and DeviceControlData calls (spec §7 Devices, legacy; account and
 * token in the query or body): a device's data points on its basic-data panel (type 4) or its
 * control panel (type 7). Each kind has Get{Kind} (deviceSn), {Kind}Add, Update{Kind} and
 * Delete{Kind} (Id), named as the DeviceDataDefine calls are; reading takes device.view, the rest
 * device.manage.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PANEL_POINT_KINDS,
  addPanelPointRequest,
  deviceDataDefineDto,
  panelPointIdRequest,
  panelPointListQuery,
  updatePanelPointRequest,
} from '@sluice/shared/device-data.schema';
import { currentUser } from '../../auth/access.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { requestLanguage } from '../../http/language.ts';
import { ownerColumn } from '../../http/resource.ts';
import { fromBody } from '../audit/audit-trail.ts';
import { tableSubject } from '../audit/table-subject.ts';

const tags = ['Devices (legacy)'];
const view = { operate: 'device.view' } as const;
const manage = { operate: 'device.manage' } as const;
const points = tableSubject('deviceDataDefine', 'device_data_defines', undefined, ownerColumn('device', 'device_sn'));

export function panelPointsRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { panelPoints } = app.ctx;

  for (const [kind, panelType] of Object.entries(PANEL_POINT_KINDS)) {
    const panel = panelType === PANEL_POINT_KINDS.DeviceBaseData ? 'basic-data' : 'control';

    app.get(
      `/Get${kind}`,
      {
        config: { access: view, legacyToken: true },
        schema: {
          tags,
          summary: `A device's data points on its ${panel} panels`,
          querystring: panelPointListQuery,
          response: { 200: envelopeOf(z.array(deviceDataDefineDto)) },
        },
      },
      async (request) => {
        const rows = await panelPoints.list(currentUser(request), panelType, request.query.DeviceSn);
        return ok(request, rows, { count: rows.length });
      },
    );

    app.post(
      `/${kind}Add`,
      {
        config: { access: manage, legacyToken: true, audit: { subject: points } },
        schema: {
          tags,
          summary: `Add a data point to a device's ${panel} panel (made when the device has none)`,
          body: addPanelPointRequest,
          response: { 201: envelopeOf(deviceDataDefineDto) },
        },
      },
      async (request, reply) => {
        const point = await panelPoints.add(currentUser(request), panelType, request.body, requestLanguage(request));
        return reply.status(201).send(ok(request, point, { message: 'created' }));
      },
    );

    app.put(
      `/Update${kind}`,
      {
        config: { access: manage, legacyToken: true, audit: { subject: points, id: fromBody('Id') } },
        schema: {
          tags,
          summary: `Change a data point on a device's ${panel} panel`,
          body: updatePanelPointRequest,
          response: { 200: envelopeOf(deviceDataDefineDto) },
        },
      },
      async (request) =>
        ok(request, await panelPoints.update(currentUser(request), panelType, request.body), { message: 'saved' }),
    );

    app.post(
      `/Delete${kind}`,
      {
        config: { access: manage, legacyToken: true, audit: { subject: points, action: 'delete', id: fromBody('Id') } },
        schema: { tags, summary: `Delete a data point from a device's ${panel} panel`, body: panelPointIdRequest },
      },
      async (request) => {
        await panelPoints.remove(currentUser(request), panelType, request.body.Id);
        return ok(request, null, { message: 'deleted' });
      },
    );
  }
}
