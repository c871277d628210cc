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
  type FullTemplateDto,
} from '@sluice/shared/device-template.schema';
import { flag, idRef } from '@sluice/shared/schema-fields';
import { currentUser } from '../../auth/access.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { registerResource } from '../../http/resource.ts';
import type { CurrentUser } from '../account/users.repository.ts';

const tags = ['Templates'];
const manage = { operate: 'system.manage' } as const;
const access = { read: 'session', write: manage } as const;
type Row = Record<string, unknown>;

export function templatesRoutes(root: FastifyInstance): void {
  const { db, typeScope } = root.ctx;

  /** The template a part names (TempId) must be the group's. */
  const ownTemplate = async (raw: unknown, user: CurrentUser): Promise<number> => {
    const id = idRef.safeParse(raw);
    if (!id.success) throw new AppError(400, 'ref.unknown', { what: 'TempId', id: String(raw) }, 'TempId');
    const row = await db
      .selectFrom('type_templates')
      .select('id')
      .where('id', '=', id.data)
      .where('group_id', '=', user.groupId)
      .executeTakeFirst();
    if (!row) throw new AppError(400, 'ref.unknown', { what: 'TempId', id: String(raw) }, 'TempId');
    return row.id;
  };
  /** A part of the same template (a panel, an accessory) that another part refers to. */
  const sameTemplate = async (
    table: 'template_panels' | 'template_accessories',
    id: unknown,
    tempId: number,
    field: string,
    what: string,
  ) => {
    if (id === undefined || id === null) return;
    const row = await db.selectFrom(table).select('temp_id').where('id', '=', Number(id)).executeTakeFirst();
    if (row?.temp_id !== tempId) throw new AppError(400, 'template.partOfOther', { what }, field);
  };
  const partHooks = (check?: (row: Row, tempId: number) => Promise<void>) => ({
    beforeWrite: async (row: Row, user: CurrentUser) => {
      if (row.temp_id === undefined) return row;
      const tempId = await ownTemplate(row.temp_id, user);
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

  /** Only one standard template per type: making one standard makes the others not. */
  const oneStandard = async (row: Row, user: CurrentUser) => {
    if (row.type_id !== undefined)
      await typeScope.ownType(row.type_id, user.groupId).catch(() => {
        throw new AppError(400, 'ref.unknown', { what: 'TypeId', id: String(row.type_id) }, 'TypeId');
      });
    if (row.is_standard === 1 && row.type_id !== undefined) {
      await db
        .updateTable('type_templates')
        .set({ is_standard: 0 })
        .where('group_id', '=', user.groupId)
        .where('type_id', '=', Number(row.type_id))
        .execute();
    }
    return row;
  };

  registerResource(root, {
    table: 'type_templates',
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
    beforeWrite: oneStandard,
  });

  registerResource(root, {
    table: 'template_profiles',
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
    ...partHooks((row, tempId) => sameTemplate('template_panels', row.panel_id, tempId, 'PanelId', 'panel')),
  });

  registerResource(root, {
    table: 'template_panels',
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
    ...partHooks((row, tempId) => sameTemplate('template_accessories', row.accessory_id, tempId, 'AccessoryId', 'accessory')),
  });

  registerResource(root, {
    table: 'template_configs',
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
      return ok(request, await fullTemplate(db, user.groupId, request.query.Id));
    },
  );
}

/** A template and its parts, each part list in its order. */
export async function fullTemplate(db: Db, groupId: number, id: number): Promise<FullTemplateDto> {
  const t = await db
    .selectFrom('type_templates')
    .selectAll()
    .where('id', '=', id)
    .where('group_id', '=', groupId)
    .executeTakeFirst();
  if (!t) throw new AppError(404, 'error.notFound');
  const [profiles, panels, args, accessories, controls, configs] = await Promise.all([
    db.selectFrom('template_profiles').selectAll().where('temp_id', '=', id).orderBy('id').execute(),
    db.selectFrom('template_panels').selectAll().where('temp_id', '=', id).orderBy('sn').orderBy('id').execute(),
    db.selectFrom('template_args').selectAll().where('temp_id', '=', id).orderBy('id').execute(),
    db.selectFrom('template_accessories').selectAll().where('temp_id', '=', id).orderBy('id').execute(),
    db.selectFrom('template_control_data').selectAll().where('temp_id', '=', id).orderBy('sequence_in').orderBy('id').execute(),
    db.selectFrom('template_configs').selectAll().where('temp_id', '=', id).orderBy('id').execute(),
  ]);
  return fullTemplateDto.parse({
    Id: t.id,
    TypeId: t.type_id,
    TempName: t.temp_name,
    IsStandard: t.is_standard === 1,
    DeviceSn: t.device_sn,
    Profiles: profiles.map((p) => ({
      Id: p.id,
      TempId: p.temp_id,
      PanelId: p.panel_id,
      DataType: p.data_type,
      DataKey: p.data_key,
      DisplayKey: p.display_key,
      DataName: p.data_name,
      Unit: p.unit,
      DefaultValue: p.default_value,
      Format: p.format,
      AutoControl: p.auto_control === 1,
    })),
    Panels: panels.map((p) => ({ Id: p.id, TempId: p.temp_id, PanelTypeId: p.panel_type_id, PanelName: p.panel_name, Sn: p.sn })),
    Args: args.map((a) => ({
      Id: a.id,
      TempId: a.temp_id,
      DataName: a.data_name,
      DataType: a.data_type,
      DataValue: a.data_value,
    })),
    Accessories: accessories.map((a) => ({ Id: a.id, TempId: a.temp_id, Name: a.name, ICON: a.icon })),
    ControlData: controls.map((c) => ({
      Id: c.id,
      TempId: c.temp_id,
      ControlName: c.control_name,
      DataValue: c.data_value,
      DataDefineKey: c.data_define_key,
      AssociateKey: c.associate_key,
      SequenceIn: c.sequence_in,
      SequenceOut: c.sequence_out,
      IState: c.i_state,
      AccessoryId: c.accessory_id,
    })),
    Configs: configs.map((c) => ({ Id: c.id, TempId: c.temp_id, Category: c.category, DefineKey: c.define_key, Name: c.name })),
  });
}
