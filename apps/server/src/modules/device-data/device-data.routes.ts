/**
 * A device's own data points and panels (spec §7 Devices: DeviceDataDefine and DevicePanel
 * calls), copied from its type's standard template at creation and edited per device. The
 * device must be one the caller reaches (its group, and its role's projects).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PANEL_TYPES,
  addDeviceDataDefineRequest,
  addDevicePanelRequest,
  deviceDataDefineDto,
  devicePanelDto,
  panelTypeDto,
  updateDeviceDataDefineRequest,
  updateDevicePanelRequest,
} from '@sluice/shared/device-data.schema';
import { deviceSn } from '@sluice/shared/device.schema';
import { idRef } from '@sluice/shared/schema-fields';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { requestLanguage } from '../../http/language.ts';
import { registerResource, ownerColumn } from '../../http/resource.ts';
import type { CurrentUser } from '../../auth/current-user.ts';

const tags = ['Devices'];
const access = { read: { operate: 'device.view' }, write: { operate: 'device.manage' } } as const;

/** The device a call names: deviceSn in the query (reads) or DeviceSn in the body (writes), any casing. */
function namedDevice(request: FastifyRequest): unknown {
  for (const source of [request.query, request.body]) {
    if (!source || typeof source !== 'object') continue;
    const v = source as Record<string, unknown>;
    const sn = v.DeviceSn ?? v.deviceSn ?? v.devicesn ?? v.deviceSN;
    if (sn !== undefined) return sn;
  }
  return undefined;
}

export function deviceDataRoutes(root: FastifyInstance): void {
  const { scope, devices } = root.ctx;
  const parent = {
    column: 'device_sn',
    from: namedDevice,
    resolve: async (raw: unknown, user: CurrentUser, mode: 'read' | 'write') => {
      const sn = deviceSn.safeParse(raw);
      if (!sn.success) throw new AppError(404, 'error.notFound');
      return (await scope.device(user, sn.data, mode)).device_sn;
    },
  };

  registerResource(root, {
    table: 'device_data_defines',
    audit: { kind: 'deviceDataDefine', owner: ownerColumn('device', 'device_sn') },
    tags,
    access,
    dto: deviceDataDefineDto,
    create: addDeviceDataDefineRequest,
    update: updateDeviceDataDefineRequest,
    sortable: ['DataKey', 'DataName', 'PanelId'],
    searchable: ['DataKey', 'DataName', 'DisplayKey'],
    filters: {
      PanelId: { key: 'PanelId', schema: idRef },
      deviceSn: { key: 'DeviceSn', schema: deviceSn },
      DeviceSn: { key: 'DeviceSn', schema: deviceSn },
    },
    parent,
    routes: {
      all: 'GET /GetDeviceDataDefine',
      get: 'GET /GetDeviceDataDefine/:id',
      create: 'POST /DeviceDataDefineAdd',
      update: 'PUT /UpdateDeviceDataDefine',
      remove: 'POST /DeleteDeviceDataDefine#Id',
    },
    beforeWrite: async (row, user) => {
      if (row.panel_id === undefined || row.panel_id === null) return row;
      const panelDevice = await devices.repository.panelDevice(Number(row.panel_id), user.groupId);
      if (panelDevice === undefined || (row.device_sn !== undefined && panelDevice !== row.device_sn)) {
        throw new AppError(400, 'ref.unknown', { what: 'PanelId', id: Number(row.panel_id) }, 'PanelId');
      }
      return row;
    },
  });

  const panels = {
    table: 'device_panels',
    audit: { kind: 'devicePanel' as const, owner: ownerColumn('device', 'device_sn') },
    tags,
    access,
    dto: devicePanelDto,
    create: addDevicePanelRequest,
    update: updateDevicePanelRequest,
    parent,
  };
  registerResource(root, {
    ...panels,
    sortable: ['Sn', 'PanelName'],
    searchable: ['PanelName'],
    // The device named in the query (kept by the list's query schema through these filters).
    filters: { deviceSn: { key: 'deviceSn', schema: deviceSn }, DeviceSn: { key: 'deviceSn', schema: deviceSn } },
    defaultOrder: { key: 'Sn', direction: 'asc' },
    routes: {
      all: 'GET /GetDevicePanels',
      create: 'POST /AddPanel',
      update: 'PUT /UpdateDevicePanel',
      remove: 'POST /DeleteDevicePanel#Id',
    },
  });

  // DeletePanel: the shorter name some consoles call DeleteDevicePanel by.
  registerResource(root, { ...panels, sortable: [], searchable: [], routes: { remove: 'POST /DeletePanel#Id' } });

  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/DevicePanelType/Get',
    {
      config: { access: 'session' },
      schema: { tags, summary: 'The panel types of the device page', response: { 200: envelopeOf(z.array(panelTypeDto)) } },
    },
    (request) => {
      const lang = requestLanguage(request);
      return ok(
        request,
        PANEL_TYPES.map((p) => ({ Id: p.Id, Code: p.Code, Name: p.Name[lang] })),
      );
    },
  );
}
