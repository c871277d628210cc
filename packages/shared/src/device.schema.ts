/**
 * Devices and what hangs on them (spec §3 Device, Device config, Device card, migration,
 * overview, Device image; §7 Devices): requests and the DTOs the API answers with.
 */
import { z } from 'zod';
import { anyText, optional } from './rules.ts';
import { areaCode } from './area.schema.ts';
import { idRef } from './schema-fields.ts';
import { checkValue } from './data-types.ts';
import { optionalPosition, position } from './geo.schema.ts';

/** Server-generated serial numbers: 'SL' and 10 digits. */
export const DEVICE_SN_PATTERN = /^SL\d{10}$/;
/** A serial number in a path or body (older devices may have other serials; letters, digits, - and _). */
export const deviceSn = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,40}$/, { message: 'rule.deviceSn' });

const idField = idRef;
const optionalRef = z.preprocess((v) => (v === '' || v === null || v === 0 || v === '0' ? undefined : v), idField.optional());
const clearableRef = z.preprocess((v) => (v === '' || v === 0 || v === '0' ? null : v), idField.nullable().optional());

const snBody = <T extends z.ZodRawShape>(shape: T) =>
  z.preprocess(
    (b) => {
      if (!b || typeof b !== 'object') return b;
      const v = b as Record<string, unknown>;
      return { ...v, DeviceSn: v.DeviceSn ?? v.deviceSn };
    },
    z.object({ DeviceSn: deviceSn, ...shape }),
  );

export const addDeviceRequest = z.object({
  DeviceNo: optional(
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_.:-]{1,40}$/, { message: 'rule.deviceNo' }),
  ),
  DeviceName: anyText(1, 64),
  DeviceDescription: optional(anyText(0, 500)),
  TypeId: optionalRef,
  ProjectId: optionalRef,
  RegionId: optionalRef,
  AreaId: z.preprocess((v) => (v === '' || v === null || v === 0 ? undefined : v), areaCode.optional()),
  Position: optionalPosition,
  Address: optional(anyText(0, 200)),
});
export type AddDeviceRequest = z.infer<typeof addDeviceRequest>;

/** A day as YYYY-MM-DD, or '' for none (a device's UseTime). */
export const dayOrNone = z
  .string()
  .trim()
  .refine((v) => v === '' || checkValue('date', '', v) === null, { message: 'rule.valueDate' });

export const updateDeviceRequest = snBody({
  DeviceName: anyText(1, 64).optional(),
  DeviceDescription: z.preprocess((v) => (v === null ? '' : v), anyText(0, 500).optional()),
  DeviceNo: z.preprocess(
    (v) => (v === null ? '' : v),
    z
      .union([
        z.literal(''),
        z
          .string()
          .trim()
          .regex(/^[A-Za-z0-9_.:-]{1,40}$/, { message: 'rule.deviceNo' }),
      ])
      .optional(),
  ),
  RegionId: clearableRef,
  AreaId: z.preprocess((v) => (v === '' || v === 0 ? null : v), areaCode.nullable().optional()),
  Position: z.preprocess((v) => (v === null ? '' : v), z.union([z.literal(''), optionalPosition])),
  Address: z.preprocess((v) => (v === null ? '' : v), anyText(0, 200).optional()),
  /** the day the device was put into use; '' or null clears it */
  UseTime: z.preprocess((v) => (v === null ? '' : v), dayOrNone.optional()),
});
export type UpdateDeviceRequest = z.infer<typeof updateDeviceRequest>;

export const migrateDeviceRequest = snBody({ ProjectId: idField });
export const deviceTypeRequest = snBody({ TypeId: clearableRef });
export const deviceSnRequest = snBody({});

export const deviceDto = z.object({
  Id: z.number(),
  DeviceSn: z.string(),
  DeviceNo: z.string(),
  DeviceName: z.string(),
  DeviceDescription: z.string(),
  TypeId: z.number().nullable(),
  /** the project or station the device is in, or null when unassigned */
  ProjectId: z.number().nullable(),
  ProjectName: z.string().nullable(),
  /** 0 project, 1 station (of ProjectId) */
  ProjectType: z.number().nullable(),
  /** the station's project (or the project itself when the device sits on a project) */
  ParentProjectId: z.number().nullable(),
  ParentProjectName: z.string().nullable(),
  RegionId: z.number().nullable(),
  AreaId: z.string().nullable(),
  /** 'lng,lat' (GCJ-02), or '' */
  Position: z.string(),
  Address: z.string(),
  Online: z.boolean(),
  /** 0 offline, 1 online, 2 online with an active alarm (spec §4). */
  State: z.number(),
  /** the newest active alarm's name (its description, else its code), or null */
  Alarm: z.string().nullable(),
  LastSeen: z.number().nullable(),
  CreatedAt: z.number(),
  /** the day the device was put into use (YYYY-MM-DD), or '' */
  UseTime: z.string(),
});
export type DeviceDto = z.infer<typeof deviceDto>;

/** What POST {g}/Device answers: the device and its MQTT credential, shown this once. */
export const createdDeviceDto = z.object({
  Device: deviceDto,
  Credential: z.object({ Username: z.string(), Password: z.string() }),
});

export const devicePageQuery = z.preprocess(
  (q) => {
    if (!q || typeof q !== 'object') return q;
    const v = q as Record<string, unknown>;
    return {
      ...v,
      ProjectId: v.ProjectId ?? v.projectId,
      TypeId: v.TypeId ?? v.typeId,
      DeviceSn: v.DeviceSn ?? v.deviceSn,
      ClientId: v.ClientId ?? v.clientId,
    };
  },
  z.object({
    /** a project (its stations included) or a station */
    ProjectId: optionalRef,
    /** a client (spec §3 Client): the devices of its projects and their stations */
    ClientId: optionalRef,
    TypeId: optionalRef,
    /** 1 online, 0 offline */
    Online: z.preprocess(
      (v) => (v === '' ? undefined : v === 'true' ? 1 : v === 'false' ? 0 : v),
      z.coerce.number().int().min(0).max(1).optional(),
    ),
    DeviceSn: z.preprocess((v) => (v === '' ? undefined : v), deviceSn.optional()),
  }),
);

/** The overview of a project (its stations included) or a station; without ProjectId, of every device the caller reaches. */
export const deviceOverviewQuery = z.preprocess(
  (q) => {
    if (!q || typeof q !== 'object') return q;
    const v = q as Record<string, unknown>;
    return { ...v, ProjectId: v.ProjectId ?? v.projectId, ClientId: v.ClientId ?? v.clientId };
  },
  /** A project or station (its stations included), or a client (its projects and their stations). */
  z.object({ ProjectId: optionalRef, ClientId: optionalRef }),
);

export const deviceOverviewDto = z.object({
  Num: z.number(),
  OnlineNum: z.number(),
  OfflineNum: z.number(),
  TypeData: z.array(z.object({ TypeId: z.number().nullable(), Num: z.number(), OnlineNum: z.number() })),
});

export const migrationDto = z.object({
  Id: z.number(),
  DeviceSn: z.string(),
  FromProjectId: z.number().nullable(),
  FromProjectName: z.string(),
  ToProjectId: z.number().nullable(),
  ToProjectName: z.string(),
  UserName: z.string(),
  CreatedAt: z.number(),
});
export type MigrationDto = z.infer<typeof migrationDto>;
export const migrationListDto = z.object({ DeviceSn: z.string(), ListMigration: z.array(migrationDto) });

export const recycledDeviceDto = deviceDto.extend({ DeletedAt: z.number(), DeletedBy: z.string(), ProjectExists: z.boolean() });

export const deviceControlCheckDto = z.object({ DeviceSn: z.string(), CanControl: z.boolean(), Online: z.boolean() });

/** Device config (spec §3): name, type and value kept per device. */
export const deviceConfigDto = z.object({
  Id: z.number(),
  DeviceSn: z.string(),
  DataName: z.string(),
  DataType: z.string(),
  DataValue: z.string(),
});
const configFields = {
  DataName: anyText(1, 64),
  DataType: z.preprocess((v) => (v === null || v === undefined ? '' : v), z.coerce.string().trim().max(32)),
  DataValue: z.preprocess((v) => (v === null || v === undefined ? '' : v), z.coerce.string().max(2000)),
};
export const addDeviceConfigRequest = z.object(configFields);
export const updateDeviceConfigRequest = z.object({ Id: idField, ...configFields });

/** A SIM card's ICCID: 19 or 20 digits (the last may be the letter F on some cards). */
export const iccid = z
  .string()
  .trim()
  .regex(/^\d{18,19}[\dFf]$/, { message: 'rule.iccid' });
export const deviceCardRequest = z.object({ ICCID: iccid });
export const deviceCardDto = z.object({
  Id: z.number(),
  DeviceSn: z.string(),
  ICCID: z.string(),
  /** whether a SIM provider is configured to answer the card's data */
  SimConfigured: z.boolean(),
  Sim: z.null(),
});

export const deviceImageDto = z.object({
  Id: z.number(),
  DeviceSn: z.string(),
  ImageName: z.string(),
  Rank: z.number(),
  url: z.string(),
});
export const DEVICE_IMAGE_LIMIT = 5 * 1024 * 1024;

/**
 * GET DeviceMap/GetDeviceMap: everything on the map in one compact answer. Rows are arrays in
 * the order of their Fields; State is 0 offline, 1 online, 2 online with a warning.
 */
export const DEVICE_MAP_FIELDS = ['DeviceSn', 'DeviceName', 'Lng', 'Lat', 'State', 'ProjectId', 'TypeId'] as const;
export const STATION_MAP_FIELDS = ['Id', 'Name', 'Lng', 'Lat', 'State', 'ParentId', 'DeviceNum'] as const;
const cell = z.union([z.string(), z.number(), z.null()]);
export const deviceMapDto = z.object({
  DeviceFields: z.array(z.string()),
  Devices: z.array(z.array(cell)),
  StationFields: z.array(z.string()),
  Stations: z.array(z.array(cell)),
});
export type DeviceMapDto = z.infer<typeof deviceMapDto>;

/**
 * The legacy device calls (spec §7 Devices, legacy; account and token in the query or body):
 * Device/GetPageDevices and MyPageDevice answer a page as the paged project calls do.
 */
export const devicePageDto = z.object({
  data: z.array(deviceDto),
  count: z.number(),
  totalPage: z.number(),
  currentPage: z.number(),
  pageSize: z.number(),
});

/** Device/GetRegionDevice: the devices of a region and of the regions under it. */
export const regionDeviceQuery = z.preprocess(
  (q) =>
    q && typeof q === 'object'
      ? { ...q, RegionId: (q as Record<string, unknown>).RegionId ?? (q as Record<string, unknown>).regionId }
      : q,
  z.object({ RegionId: idField }),
);

/** Device/UpdateDevicePosition: where the device stands ('lng,lat', GCJ-02), and its address when given. */
export const devicePositionRequest = snBody({
  Position: position,
  Address: optional(anyText(0, 200)),
});

/** Device/UpdateDeviceUseTime: the day the device was put into use ('' or null clears it). */
export const deviceUseTimeRequest = snBody({
  UseTime: z.preprocess((v) => (v === null ? '' : v), dayOrNone),
});
