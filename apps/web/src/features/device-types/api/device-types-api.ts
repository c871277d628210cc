/**
 * Device types and everything under them (spec §7 Device types, Templates): the type tree, copy,
 * the parts under type/{typeId}/…, a module's arguments, images and firmware files, and the
 * templates with their parts. Reorderable parts save their order with the bulk …/Sort calls.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  DeviceTypeDto,
  HardwareConfigDto,
  ModuleControlDto,
  TypeDataDefineDto,
  TypeImageDto,
  TypeSchemaDto,
  TypeStatisticDto,
  TypeMaintenanceDto,
  TypeUpdateFileDto,
  moduleArgumentDto,
  moduleFeedbackDto,
  typeArgumentDto,
  typeClassDto,
  typeConfigDto,
  typeDisplayIconDto,
  typeModuleDto,
  typeOverviewDto,
} from '@sluice/shared/device-type.schema';
import type {
  TemplateDto,
  TemplateProfileDto,
  templateAccessoryDto,
  templateArgDto,
  templateConfigDto,
  templateControlDataDto,
  templatePanelDto,
} from '@sluice/shared/device-template.schema';
import { typePart, typePartPath, type TypePartKey } from '@sluice/shared/device-type-parts';
import { defineResource, type ResourceContext } from '../../../components/resource-table/resource';
import { api } from '../../../lib/api-client';
import { uploadWithProgress, type UploadProgress } from '../../../lib/api-transfer';

export type TypeRow = DeviceTypeDto & { children?: TypeRow[] };
export type TypeArgumentDto = z.infer<typeof typeArgumentDto>;
export type TypeConfigDto = z.infer<typeof typeConfigDto>;
export type DisplayIconDto = z.infer<typeof typeDisplayIconDto>;
export type TypeModuleDto = z.infer<typeof typeModuleDto>;
export type TypeClassDto = z.infer<typeof typeClassDto>;
export type ModuleArgumentDto = z.infer<typeof moduleArgumentDto>;
export type ModuleFeedbackDto = z.infer<typeof moduleFeedbackDto>;
export type TypeOverviewDto = z.infer<typeof typeOverviewDto>;
export type SchemaRow = TypeSchemaDto & { children?: SchemaRow[] };
export type TemplatePanelDto = z.infer<typeof templatePanelDto>;
export type TemplateArgDto = z.infer<typeof templateArgDto>;
export type TemplateAccessoryDto = z.infer<typeof templateAccessoryDto>;
export type TemplateControlDataDto = z.infer<typeof templateControlDataDto>;
export type TemplateConfigDto = z.infer<typeof templateConfigDto>;
export type {
  HardwareConfigDto,
  ModuleControlDto,
  TemplateDto,
  TemplateProfileDto,
  TypeDataDefineDto,
  TypeImageDto,
  TypeMaintenanceDto,
  TypeStatisticDto,
  TypeUpdateFileDto,
};

// ---- Types -----------------------------------------------------------------------------------

export const deviceTypesResource = defineResource<TypeRow>({
  key: 'device-types',
  operate: 'system.manage',
  list: 'GET /Type',
  paging: 'all',
  create: 'POST /Type',
  update: 'PUT /Type/:id',
  remove: 'DELETE /Type/:id',
});

export interface CopyRequest {
  SourceId: number;
  TargetId?: number;
  TypeName?: string;
}

/** {x}/Type/Copy: everything of a type into a new type (TypeName), or over an existing one (TargetId). */
export function useCopyType() {
  return useMutation({
    mutationFn: ({ ctx, body }: { ctx: ResourceContext; body: CopyRequest }) =>
      api.post<DeviceTypeDto>(`/${String(ctx.groupId)}/Type/Copy`, body),
  });
}

/** {x}/Type/copyfiles: a type's images and firmware appended to another type. */
export function useCopyTypeFiles() {
  return useMutation({
    mutationFn: ({ ctx, body }: { ctx: ResourceContext; body: Required<Pick<CopyRequest, 'SourceId' | 'TargetId'>> }) =>
      api.post<DeviceTypeDto>(`/${String(ctx.groupId)}/Type/copyfiles`, body),
  });
}

// ---- Parts under type/{typeId}/ ----------------------------------------------------------------

/**
 * The five calls of a part (its path from @sluice/shared/device-type-parts: type/{typeId}/… or
 * module/{moduleId}/…), loaded whole; a part kept in order also has its …/Sort.
 */
function typePartResource<Row extends { Id: number }>(key: TypePartKey) {
  const base = typePartPath(key);
  const order = typePart(key).order;
  return defineResource<Row>({
    key: `type-${key}`,
    operate: 'system.manage',
    list: `GET ${base}`,
    paging: 'all',
    create: `POST ${base}`,
    update: `PUT ${base}`,
    remove: `DELETE ${base}/:id`,
    ...(order ? { reorder: { call: `PUT ${base}/Sort` as const, field: order } } : {}),
  });
}

export const typeDataDefinesResource = typePartResource<TypeDataDefineDto>('dataDefines');
export const typeArgumentsResource = typePartResource<TypeArgumentDto>('arguments');
export const typeConfigsResource = typePartResource<TypeConfigDto>('configs');
export const displayIconsResource = typePartResource<DisplayIconDto>('displayIcons');
export const hardwareResource = typePartResource<HardwareConfigDto>('hardwareConfigs');
export const modulesResource = typePartResource<TypeModuleDto>('modules');
export const classesResource = typePartResource<TypeClassDto>('classes');
export const controlsResource = typePartResource<ModuleControlDto>('moduleControls');
export const feedbackResource = typePartResource<ModuleFeedbackDto>('moduleFeedbacks');
export const overviewResource = typePartResource<TypeOverviewDto>('overviews');
export const schemaResource = typePartResource<SchemaRow>('schemas');
export const statisticsResource = typePartResource<TypeStatisticDto>('statistics');
export const maintenanceResource = typePartResource<TypeMaintenanceDto>('maintenance');
export const moduleArgumentsResource = typePartResource<ModuleArgumentDto>('moduleArguments');

/** GET type/{typeId}/TypeDataDefine/keys: the data keys of a type's data points. */
export function useTypeDataKeys(typeId: number) {
  return useQuery({
    queryKey: ['type-data-defines', 'keys', typeId],
    queryFn: async () => (await api.get<string[]>(`/type/${String(typeId)}/TypeDataDefine/keys`)).data,
  });
}

// ---- Images and firmware -------------------------------------------------------------------------

export const typeImagesResource = defineResource<TypeImageDto>({
  key: 'type-images',
  operate: 'system.manage',
  list: 'GET /type/{typeId}/TypeImage',
  paging: 'none',
  remove: 'DELETE /type/{typeId}/TypeImage/:id',
  // A name change is saved with the order call, for one image.
  update: (ctx, body) =>
    api.put<TypeImageDto[]>('/TypeImages/TypeImageSave', {
      TypeId: ctx.path?.typeId,
      Images: [{ Id: body.Id, Sn: body.Sn, ImageName: body.ImageName }],
    }),
  reorder: {
    call: 'PUT /TypeImages/TypeImageSave',
    field: 'Sn',
    body: (items, ctx) => ({ TypeId: ctx.path?.typeId, Images: items }),
  },
});

export function uploadTypeImage(
  typeId: number,
  file: Blob,
  fileName: string,
  onProgress?: (p: UploadProgress) => void,
  signal?: AbortSignal,
) {
  const form = new FormData();
  form.append('TypeId', String(typeId));
  form.append('file', file, fileName);
  return uploadWithProgress<TypeImageDto>(`/type/${String(typeId)}/TypeImage`, form, { onProgress, signal });
}

export const firmwareResource = defineResource<TypeUpdateFileDto>({
  key: 'type-firmware',
  operate: 'system.manage',
  list: 'GET /type/{typeId}/TypeUpdateFile',
  paging: 'none',
  update: 'PUT /type/{typeId}/TypeUpdateFile',
  remove: 'DELETE /type/{typeId}/TypeUpdateFile/:id',
});

export function uploadFirmware(
  typeId: number,
  file: File,
  fields: { Version: string; Role: string; Description: string },
  onProgress: (p: UploadProgress) => void,
  signal: AbortSignal,
) {
  const form = new FormData();
  // Fields before the file: a bad version is refused before anything is stored.
  form.append('TypeId', String(typeId));
  form.append('Version', fields.Version);
  form.append('Role', fields.Role);
  form.append('Description', fields.Description);
  form.append('file', file, file.name);
  return uploadWithProgress<TypeUpdateFileDto>(`/type/${String(typeId)}/TypeUpdateFile`, form, { onProgress, signal });
}

// ---- Templates -----------------------------------------------------------------------------------

export const templatesResource = defineResource<TemplateDto>({
  key: 'type-templates',
  operate: 'system.manage',
  list: 'GET /GetDeviceTypeTemplatePage',
  create: 'POST /TypeTemplateAdd',
  update: 'PUT /TypeTemplateModify',
  remove: 'POST /DeviceTypeTemplateRemove#Id',
});

/** A template part's calls: list by TempId, Add, Save, Remove (and a reorder call when sorted). */
function templatePart<Row extends { Id: number }>(
  key: string,
  calls: { list: `/${string}`; create: `/${string}`; update: `/${string}`; remove: `/${string}` },
  reorder?: { call: `PUT /${string}`; field: string },
) {
  return defineResource<Row>({
    key: `template-${key}`,
    operate: 'system.manage',
    list: `GET ${calls.list}`,
    paging: 'none',
    create: `POST ${calls.create}`,
    update: `PUT ${calls.update}`,
    remove: `POST ${calls.remove}#Id`,
    ...(reorder ? { reorder } : {}),
  });
}

const parts = (name: string) =>
  ({ list: `/${name}`, create: `/${name}/Add`, update: `/${name}/Save`, remove: `/${name}/Remove` }) as const;

export const profilesResource = templatePart<TemplateProfileDto>('profiles', {
  list: '/TemplateProfile',
  create: '/AddTemplateProfile',
  update: '/ModifyTemplateProfile',
  remove: '/RemoveTemplateProfile',
});
export const panelsResource = templatePart<TemplatePanelDto>('panels', parts('TypeTemplatePanel'), {
  call: 'PUT /TypeTemplatePanel/Sort',
  field: 'Sn',
});
export const argsResource = templatePart<TemplateArgDto>('args', parts('TypeTemplateArgs'));
export const accessoriesResource = templatePart<TemplateAccessoryDto>('accessories', parts('TypeTemplateAccessory'));
export const controlDataResource = templatePart<TemplateControlDataDto>('control-data', parts('TypeTemplateControlData'), {
  call: 'PUT /TypeTemplateControlData/UpdateTemplateControlSeqIn',
  field: 'SequenceIn',
});
export const templateConfigsResource = templatePart<TemplateConfigDto>('configs', {
  list: '/TypeTemplateConfig',
  create: '/TypeTemplateConfigAdd',
  update: '/TypeTemplateConfigModify',
  remove: '/TypeTemplateConfigRemove',
});
