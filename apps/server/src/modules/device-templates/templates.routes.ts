/**
 * Device type templates and their parts (spec §7 Templates). One template per type may be the
 * standard one, which new devices of the type start from (see template-to-device.service.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  addTemplateAccessoryRequest,
  addTemplateArgRequest,
  addTemplateConfigRequest,
  addTemplateControlDataRequest,
  addTemplatePanelRequest,
  addTemplateProfileRequest,
  addTemplateRequest,
  fullTemplateDto,
  templateAccessoryDto,
  templateArgDto,
  templateConfigDto,
  templateControlDataDto,
  templateDto,
  templateIdQuery,
  templatePanelDto,
  templateProfileDto,
  updateTemplateAccessoryRequest,
  updateTemplateArgRequest,
  updateTemplateConfigRequest,
  updateTemplateControlDataRequest,
  updateTemplatePanelRequest,
  updateTemplateProfileRequest,
  updateTemplateRequest,
} from '@sluice/shared/device-template.schema';
import { flag, idRef } from '@sluice/shared/schema-fields';
import { currentUser } from '../../auth/access.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { registerResource, ownerColumn } from '../../http/resource.ts';
import type { CurrentUser } from '../../auth/current-user.ts';

const tags = ['Templates'];
const manage = { operate: 'system.manage' } as const;
const access = { read: 'session', write: manage } as const;
type Row = Record<string, unknown>;

export function templatesRoutes(root: FastifyInstance): void {
  const { templates } = root.ctx;

  const partHooks = (check?: (row: Row, tempId: number) => Promise<void>) => ({
    beforeWrite: async (row: Row, user: CurrentUser) => {
      if (row.temp_id === undefined) return row;
      const tempId = await templates.ownTemplate(row.temp_id, user);
      await check?.(row, tempId);
      return row;
    },
  });
  const partRoutes = (name: string) =>
    ({
      all: `GET /${name}`,
      create: `POST /${name}/Add`,
      update: `PUT /${name}/Save`,
      remove: `POST /${name}/Remove#Id`,
    }) as const;
  const tempFilter = { TempId: { key: 'TempId' as const, schema: idRef } };

  registerResource(root, {
    table: 'type_templates',
    audit: { kind: 'template', owner: ownerColumn('deviceType', 'type_id') },
    tags,
    access,
    dto: templateDto,
    create: addTemplateRequest,
    update: updateTemplateRequest,
    sortable: ['TempName', 'IsStandard', 'TypeId'],
    searchable: ['TempName'],
    filters: { TypeId: { key: 'TypeId', schema: idRef }, IsStandard: { key: 'IsStandard', schema: flag } },
    queryAliases: {
      sortData: 'OrderBy',
      sortType: 'OrderType',
      TempName: 'Search',
      tempName: 'Search',
      typeId: 'TypeId',
      isStandard: 'IsStandard',
    },
    defaultOrder: { key: 'TempName', direction: 'asc' },
    routes: {
      list: 'GET /GetDeviceTypeTemplatePage',
      create: 'POST /TypeTemplateAdd',
      update: 'PUT /TypeTemplateModify',
      remove: 'POST /DeviceTypeTemplateRemove#Id',
    },
    beforeWrite: (row, user) => templates.beforeWrite(row, user),
  });

  registerResource(root, {
    table: 'template_profiles',
    audit: { kind: 'templateProfile', owner: ownerColumn('template', 'temp_id') },
    tags,
    access,
    dto: templateProfileDto,
    create: addTemplateProfileRequest,
    update: updateTemplateProfileRequest,
    sortable: ['DataKey', 'DataName'],
    searchable: ['DataKey', 'DataName', 'DisplayKey'],
    filters: tempFilter,
    routes: {
      all: 'GET /TemplateProfile',
      create: 'POST /AddTemplateProfile',
      update: 'PUT /ModifyTemplateProfile',
      remove: 'POST /RemoveTemplateProfile#Id',
    },
    ...partHooks((row, tempId) => templates.sameTemplate('template_panels', row.panel_id, tempId, 'PanelId', 'panel')),
  });

  registerResource(root, {
    table: 'template_panels',
    audit: { kind: 'templatePanel', owner: ownerColumn('template', 'temp_id') },
    tags,
    access,
    dto: templatePanelDto,
    create: addTemplatePanelRequest,
    update: updateTemplatePanelRequest,
    sortable: ['Sn', 'PanelName'],
    searchable: ['PanelName'],
    filters: tempFilter,
    defaultOrder: { key: 'Sn', direction: 'asc' },
    routes: partRoutes('TypeTemplatePanel'),
    reorder: { route: 'PUT /TypeTemplatePanel/Sort', key: 'Sn' },
    ...partHooks(),
  });

  registerResource(root, {
    table: 'template_args',
    audit: { kind: 'templateArgs', owner: ownerColumn('template', 'temp_id') },
    tags,
    access,
    dto: templateArgDto,
    create: addTemplateArgRequest,
    update: updateTemplateArgRequest,
    sortable: ['DataName'],
    searchable: ['DataName'],
    filters: tempFilter,
    routes: partRoutes('TypeTemplateArgs'),
    ...partHooks(),
  });

  registerResource(root, {
    table: 'template_accessories',
    audit: { kind: 'templateAccessory', owner: ownerColumn('template', 'temp_id') },
    tags,
    access,
    dto: templateAccessoryDto,
    create: addTemplateAccessoryRequest,
    update: updateTemplateAccessoryRequest,
    sortable: ['Name'],
    searchable: ['Name'],
    filters: tempFilter,
    routes: partRoutes('TypeTemplateAccessory'),
    ...partHooks(),
  });

  registerResource(root, {
    table: 'template_control_data',
    audit: { kind: 'templateControlData', owner: ownerColumn('template', 'temp_id') },
    tags,
    access,
    dto: templateControlDataDto,
    create: addTemplateControlDataRequest,
    update: updateTemplateControlDataRequest,
    sortable: ['SequenceIn', 'SequenceOut', 'ControlName'],
    searchable: ['ControlName', 'DataDefineKey', 'AssociateKey'],
    filters: { ...tempFilter, AccessoryId: { key: 'AccessoryId', schema: idRef } },
    defaultOrder: { key: 'SequenceIn', direction: 'asc' },
    routes: partRoutes('TypeTemplateControlData'),
    reorder: { route: 'PUT /TypeTemplateControlData/UpdateTemplateControlSeqIn', key: 'SequenceIn' },
    ...partHooks((row, tempId) =>
      templates.sameTemplate('template_accessories', row.accessory_id, tempId, 'AccessoryId', 'accessory'),
    ),
  });

  registerResource(root, {
    table: 'template_configs',
    audit: { kind: 'templateConfig', owner: ownerColumn('template', 'temp_id') },
    tags,
    access,
    dto: templateConfigDto,
    create: addTemplateConfigRequest,
    update: updateTemplateConfigRequest,
    sortable: ['Name', 'Category', 'DefineKey'],
    searchable: ['Name', 'Category', 'DefineKey'],
    filters: tempFilter,
    routes: {
      all: 'GET /TypeTemplateConfig',
      create: 'POST /TypeTemplateConfigAdd',
      update: 'PUT /TypeTemplateConfigModify',
      remove: 'POST /TypeTemplateConfigRemove#Id',
    },
    ...partHooks(),
  });

  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/GetDeviceTypeTemplate',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'A template with all of its parts (Id, id or TempId)',
        querystring: templateIdQuery,
        response: { 200: envelopeOf(fullTemplateDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return ok(request, await templates.full(user.groupId, request.query.Id));
    },
  );
}
