/**
 * The parts of a device type under type/{typeId}/… (spec §7 Device types): data points,
 * arguments, configs, display icons, hardware config, modules with their controls, arguments
 * and feedback, module classes, overview, schema tree and statistics. Each is a generic
 * resource scoped by its type, with the calls and table its description gives
 * (@sluice/shared/device-type-parts; sorted parts also take a bulk reorder at …/Sort); here are
 * its rules: what it may be sorted and searched by, and what it must refer to.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addModuleArgumentRequest,
  addModuleControlRequest,
  addModuleFeedbackRequest,
  addTypeArgumentRequest,
  addTypeClassRequest,
  addTypeConfigRequest,
  addTypeDataDefineRequest,
  addTypeDisplayIconRequest,
  addTypeModuleRequest,
  addTypeOverviewRequest,
  addTypeSchemaRequest,
  addTypeStatisticRequest,
  addTypeMaintenanceRequest,
  typeMaintenanceDto,
  updateTypeMaintenanceRequest,
  hardwareConfigDto,
  moduleArgumentDto,
  moduleControlDto,
  moduleFeedbackDto,
  typeArgumentDto,
  typeClassDto,
  typeConfigDto,
  typeDataDefineDto,
  typeDisplayIconDto,
  typeModuleDto,
  typeOverviewDto,
  typeSchemaDto,
  typeSchemaNode,
  typeStatisticDto,
  updateModuleArgumentRequest,
  updateModuleControlRequest,
  updateModuleFeedbackRequest,
  updateTypeArgumentRequest,
  updateTypeClassRequest,
  updateTypeConfigRequest,
  updateTypeDataDefineRequest,
  updateTypeDisplayIconRequest,
  updateTypeModuleRequest,
  updateTypeOverviewRequest,
  updateTypeSchemaRequest,
  updateTypeStatisticRequest,
  type ModuleControlDto,
  type TypeSchemaNode,
} from '@sluice/shared/device-type.schema';
import { idRef } from '@sluice/shared/schema-fields';
import { currentUser } from '../../auth/access.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { registerResource } from '../../http/resource.ts';
import { partResource } from './type-parts.ts';
import { hardwareRowsResource } from './hardware-rows.resource.ts';

const tags = ['Device types'];
const manage = { operate: 'system.manage' } as const;
const access = { read: 'session', write: manage } as const;
type Row = Record<string, unknown>;

export function typePartsRoutes(root: FastifyInstance): void {
  const { typeScope, deviceTypes } = root.ctx;
  const types = deviceTypes.repository;
  const parent = typeScope.typeParent();
  const defineKey = (row: Row, user: { groupId: number }, field = 'DataDefineId') =>
    row.data_define_id === undefined
      ? Promise.resolve(undefined)
      : typeScope.dataDefineKey(user.groupId, row.data_define_id, field);

  // ---- Data points of the type ------------------------------------------------------------
  registerResource(root, {
    ...partResource('dataDefines'),
    tags,
    access,
    dto: typeDataDefineDto,
    create: addTypeDataDefineRequest,
    update: updateTypeDataDefineRequest,
    sortable: ['DataDefineId', 'OutKey', 'ShowType'],
    searchable: ['OutKey'],
    parent,
    enrich: (rows, user) => deviceTypes.withLibraryFields(user.groupId, rows),
    ...typeScope.partHooks('dataDefines', {
      derive: async (row, user) => {
        await defineKey(row, user);
        return row;
      },
      inType: async (row, typeId, _user, selfId) => {
        if (row.data_define_id === undefined) return;
        if (await types.hasDataDefine(typeId, Number(row.data_define_id), selfId))
          throw new AppError(409, 'typeDataDefine.exists', {}, 'DataDefineId');
      },
    }),
  });

  // ---- Arguments, configs, display icons ---------------------------------------------------
  registerResource(root, {
    ...partResource('arguments'),
    tags,
    access,
    dto: typeArgumentDto,
    create: addTypeArgumentRequest,
    update: updateTypeArgumentRequest,
    sortable: ['Name', 'Category'],
    searchable: ['Name', 'Category'],
    parent,
    ...typeScope.partHooks('arguments', {
      derive: async (row, user) => {
        if (row.define_id !== undefined) await typeScope.dataDefineKey(user.groupId, row.define_id, 'DefineId');
        return row;
      },
    }),
  });

  registerResource(root, {
    ...partResource('configs'),
    tags,
    access,
    dto: typeConfigDto,
    create: addTypeConfigRequest,
    update: updateTypeConfigRequest,
    sortable: ['DataName', 'Category', 'Position'],
    searchable: ['DataName', 'Category'],
    parent,
  });

  registerResource(root, {
    ...partResource('displayIcons'),
    tags,
    access,
    dto: typeDisplayIconDto,
    create: addTypeDisplayIconRequest,
    update: updateTypeDisplayIconRequest,
    sortable: ['Name', 'Sn'],
    searchable: ['Name', 'DataDefineKey'],
    defaultOrder: { key: 'Sn', direction: 'asc' },
    parent,
    ...typeScope.partHooks('displayIcons', {
      derive: async (row, user) => {
        const key = await defineKey(row, user);
        return key === undefined ? row : { ...row, data_define_key: key };
      },
    }),
  });

  // ---- Hardware configuration ------------------------------------------------------------------
  registerResource(root, {
    ...partResource('hardwareConfigs'),
    ...hardwareRowsResource,
    tags,
    access,
    dto: hardwareConfigDto,
    parent,
    ...typeScope.partHooks('hardwareConfigs', {
      derive: async (row, user) => {
        await defineKey(row, user);
        return row;
      },
    }),
  });

  // ---- Modules, classes, controls, arguments, feedback -------------------------------------------
  registerResource(root, {
    ...partResource('modules'),
    tags,
    access,
    dto: typeModuleDto,
    create: addTypeModuleRequest,
    update: updateTypeModuleRequest,
    sortable: ['ModuleName', 'ModuleType', 'Sn'],
    searchable: ['ModuleName', 'ModuleType'],
    defaultOrder: { key: 'Sn', direction: 'asc' },
    parent,
  });

  registerResource(root, {
    ...partResource('classes'),
    tags,
    access,
    dto: typeClassDto,
    create: addTypeClassRequest,
    update: updateTypeClassRequest,
    sortable: ['Name', 'Rank'],
    searchable: ['Name'],
    defaultOrder: { key: 'Rank', direction: 'asc' },
    parent,
  });

  registerResource(root, {
    ...partResource('moduleControls'),
    tags,
    access,
    dto: moduleControlDto,
    create: addModuleControlRequest,
    update: updateModuleControlRequest,
    columns: { Key: 'control_key' },
    sortable: ['Sn', 'ControlName', 'ModuleId', 'Key'],
    searchable: ['ControlName', 'Key'],
    filters: { ModuleId: { key: 'ModuleId', schema: idRef } },
    defaultOrder: { key: 'Sn', direction: 'asc' },
    parent,
    ...typeScope.partHooks('moduleControls', {
      derive: async (row, user) => {
        const key = await defineKey(row, user);
        return key !== undefined && (row.control_key === undefined || row.control_key === '')
          ? { ...row, control_key: key }
          : row;
      },
      inType: async (row, typeId) => {
        if (row.module_id !== undefined) await typeScope.requireInType('type_modules', row.module_id, typeId, 'ModuleId');
        if (row.class_id !== undefined && row.class_id !== null)
          await typeScope.requireInType('type_classes', row.class_id, typeId, 'ClassId');
      },
    }),
  });

  registerResource(root, {
    ...partResource('moduleArguments'),
    tags,
    access,
    dto: moduleArgumentDto,
    create: addModuleArgumentRequest,
    update: updateModuleArgumentRequest,
    sortable: ['Name', 'Category'],
    searchable: ['Name', 'Category'],
    parent: typeScope.moduleParent(),
    beforeWrite: async (row, user) => {
      await defineKey(row, user);
      if (typeof row.module_id !== 'number') return row;
      return { ...row, type_id: await types.moduleTypeId(row.module_id) };
    },
  });

  registerResource(root, {
    ...partResource('moduleFeedbacks'),
    tags,
    access,
    dto: moduleFeedbackDto,
    create: addModuleFeedbackRequest,
    update: updateModuleFeedbackRequest,
    sortable: ['Sn', 'ModuleControlId'],
    searchable: [],
    filters: { ModuleControlId: { key: 'ModuleControlId', schema: idRef } },
    defaultOrder: { key: 'Sn', direction: 'asc' },
    parent,
    ...typeScope.partHooks('moduleFeedbacks', {
      derive: async (row, user) => {
        await defineKey(row, user);
        return row;
      },
      inType: async (row, typeId) => {
        if (row.module_control_id !== undefined)
          await typeScope.requireInType('type_module_controls', row.module_control_id, typeId, 'ModuleControlId');
      },
    }),
  });

  // ---- Overview -----------------------------------------------------------------------------
  registerResource(root, {
    ...partResource('overviews'),
    tags,
    access,
    dto: typeOverviewDto,
    create: addTypeOverviewRequest,
    update: updateTypeOverviewRequest,
    sortable: ['Sn', 'Name'],
    searchable: ['Name'],
    defaultOrder: { key: 'Sn', direction: 'asc' },
    parent,
    ...typeScope.partHooks('overviews', {
      inType: async (row, typeId) => {
        if (row.type_data_define_id !== undefined)
          await typeScope.requireInType('type_data_defines', row.type_data_define_id, typeId, 'TypeDataDefineId');
      },
    }),
  });

  // ---- Schema tree ------------------------------------------------------------------------------
  const schemaRows = (typeId: number) => types.schemaRows(typeId);
  /** The ids of a node and everything below it. */
  const subtree = (rows: { id: number; parent_id: number }[], id: number): Set<number> => {
    const ids = new Set([id]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const r of rows) {
        if (ids.has(r.parent_id) && !ids.has(r.id)) {
          ids.add(r.id);
          grew = true;
        }
      }
    }
    return ids;
  };
  registerResource(root, {
    ...partResource('schemas'),
    tags,
    access,
    dto: typeSchemaDto,
    create: addTypeSchemaRequest,
    update: updateTypeSchemaRequest,
    sortable: ['Name', 'SchemaType', 'ParentId'],
    searchable: ['Name', 'Value', 'SchemaType'],
    filters: {
      ParentId: { key: 'ParentId', schema: z.coerce.number().int().min(0) },
      SchemaType: { key: 'SchemaType', schema: z.string().max(32) },
    },
    parent,
    ...typeScope.partHooks('schemas', {
      derive: async (row, user) => {
        if (row.data_define_id !== undefined && row.data_define_id !== null) await defineKey(row, user);
        return row;
      },
      inType: async (row, typeId, _user, selfId) => {
        const parentId = Number(row.parent_id ?? 0);
        if (parentId === 0) return;
        await typeScope.requireInType('type_schemas', parentId, typeId, 'ParentId');
        if (selfId !== undefined && subtree(await schemaRows(typeId), selfId).has(parentId)) {
          throw new AppError(400, 'typeSchema.cycle', {}, 'ParentId');
        }
      },
    }),
    beforeRemove: async (_database, node) => {
      const typeId = await types.typeOf('type_schemas', node.Id);
      await types.deleteSchemaNodes([...subtree(await schemaRows(typeId), node.Id)].filter((id) => id !== node.Id));
    },
  });

  // ---- Statistics ------------------------------------------------------------------------------
  registerResource(root, {
    ...partResource('statistics'),
    tags,
    access,
    dto: typeStatisticDto,
    create: addTypeStatisticRequest,
    update: updateTypeStatisticRequest,
    columns: { Key: 'stat_key', Filter: 'filter_value' },
    sortable: ['Name', 'Key', 'StaticsType'],
    searchable: ['Name', 'Key'],
    filters: { StaticsType: { key: 'StaticsType', schema: z.string().max(32) } },
    parent,
    ...typeScope.partHooks('statistics', {
      derive: async (row, user) => {
        const key = await defineKey(row, user);
        return key === undefined ? row : { ...row, stat_key: key };
      },
    }),
  });

  // ---- Service intervals by run hours ------------------------------------------------------------
  registerResource(root, {
    ...partResource('maintenance'),
    tags,
    access,
    dto: typeMaintenanceDto,
    create: addTypeMaintenanceRequest,
    update: updateTypeMaintenanceRequest,
    columns: { Key: 'run_key' },
    sortable: ['Name', 'IntervalHours'],
    searchable: ['Name', 'Key'],
    parent,
    ...typeScope.partHooks('maintenance', {
      derive: async (row, user) => {
        const key = await defineKey(row, user);
        if (key === undefined) return row;
        // Run time is the time a switch is on: only a boolean data point counts it.
        const dataType = await types.dataDefineType(Number(row.data_define_id), user.groupId);
        if (dataType !== 'boolean' && dataType !== 'boolean2')
          throw new AppError(400, 'typeMaintenance.notSwitch', {}, 'DataDefineId');
        return { ...row, run_key: key };
      },
    }),
  });

  // ---- Custom reads -----------------------------------------------------------------------------
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/type/:typeId/TypeDataDefine/keys',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: "The DataKeys of a type's data points",
        params: z.object({ typeId: idRef }),
        response: { 200: envelopeOf(z.array(z.string())) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const typeId = await typeScope.ownType(request.params.typeId, user.groupId);
      return ok(request, await types.dataKeys(typeId));
    },
  );

  app.get(
    '/type/:typeId/TypeModuleControl/Module/:moduleId',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: "A module's controls, in order",
        params: z.object({ typeId: idRef, moduleId: idRef }),
        response: { 200: envelopeOf(z.array(moduleControlDto)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const typeId = await typeScope.ownType(request.params.typeId, user.groupId);
      await typeScope.requireInType('type_modules', request.params.moduleId, typeId, 'moduleId').catch(() => {
        throw new AppError(404, 'error.notFound');
      });
      const rows = await types.moduleControls(typeId, request.params.moduleId);
      return ok(
        request,
        rows.map((r): ModuleControlDto => ({
          Id: r.id,
          TypeId: r.type_id,
          ModuleId: r.module_id,
          Key: r.control_key,
          ControlName: r.control_name,
          DataDefineId: r.data_define_id,
          ShowType: r.show_type,
          Format: r.format,
          Unit: r.unit,
          AutoControl: r.auto_control === 1,
          Formula: r.formula,
          DataValue: r.data_value,
          Sn: r.sn,
          ClassId: r.class_id,
        })),
      );
    },
  );

  app.get(
    '/type/:typeId/TypeSchema/Tree',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: "The type's schema as a tree",
        params: z.object({ typeId: idRef }),
        response: { 200: envelopeOf(z.array(typeSchemaNode)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const typeId = await typeScope.ownType(request.params.typeId, user.groupId);
      const nodes = new Map<number, TypeSchemaNode>();
      const rows = await schemaRows(typeId);
      for (const r of rows) {
        nodes.set(r.id, {
          Id: r.id,
          TypeId: r.type_id,
          DataDefineId: r.data_define_id,
          Name: r.name,
          Value: r.value,
          SchemaType: r.schema_type,
          ParentId: r.parent_id,
          Children: [],
        });
      }
      const roots: TypeSchemaNode[] = [];
      for (const node of nodes.values()) {
        const parentNode = node.ParentId === 0 ? undefined : nodes.get(node.ParentId);
        if (parentNode) parentNode.Children.push(node);
        else roots.push(node);
      }
      return ok(request, roots);
    },
  );
}
