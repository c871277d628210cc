/**
 * Alarm (Warn) records (spec §3 Warn; §7 Alarms, logs, records): opened by devices (error codes,
 * linked data over a standard), by the offline time-out, or by a person (WarnAdd); cleared when
 * their cause goes; handled by an operator with comments.
 */
import { z } from 'zod';
import { warnCodeValue } from './data-define.schema.ts';
import { deviceSn } from './device.schema.ts';
import { anyText } from './rules.ts';
import { emptyAsUndefined, idRef, text } from './schema-fields.ts';
import { timeParam } from './telemetry.schema.ts';

/** The warn code the offline time-out opens (seeded with each demo; described by the group's warn code when it has one). */
export const OFFLINE_WARN_CODE = 'O001';

export const ALARM_SOURCES = ['device', 'offline', 'manual'] as const;
export type AlarmSource = (typeof ALARM_SOURCES)[number];

/** Handling (Warn.State): 0 not handled, 1 handled. */
export const ALARM_HANDLING = { unhandled: 0, handled: 1 } as const;

export const warnDto = z.object({
  Id: z.number(),
  Code: z.string(),
  GroupCode: z.string(),
  /** When it opened (ms). */
  Dt: z.number(),
  DeviceNo: z.string(),
  DeviceSn: z.string(),
  DeviceName: z.string(),
  /** The device's station (or project) and its name. */
  ProjectId: z.number().nullable(),
  ProjectName: z.string(),
  /** The warn code's description when it opened. */
  Description: z.string(),
  Comments: z.string(),
  TypeId: z.number().nullable(),
  TypeName: z.string(),
  Color: z.string(),
  /** 0 not handled, 1 handled. */
  State: z.number(),
  /** 1 while its cause lasts, 0 once cleared. */
  Active: z.number(),
  Source: z.string(),
  ClearedAt: z.number().nullable(),
  HandledAt: z.number().nullable(),
  HandledBy: z.string(),
});
export type WarnDto = z.infer<typeof warnDto>;

const lowerAlias = (names: string[]) => (q: unknown) => {
  if (!q || typeof q !== 'object') return q;
  const v = { ...(q as Record<string, unknown>) };
  for (const name of names) {
    const lower = name.charAt(0).toLowerCase() + name.slice(1);
    if (v[name] === undefined && v[lower] !== undefined) v[name] = v[lower];
  }
  return v;
};

const flag = z.coerce.number().int().min(0).max(1);

/** The filters of GET Warn and GET {deviceSn}/Warn (with the paging parameters). */
export const warnQuery = z.preprocess(
  lowerAlias(['State', 'Active', 'ProjectId', 'TypeId', 'DeviceSn', 'BeginTime', 'EndTime']),
  z.object({
    /** Handling: 0 not handled, 1 handled. */
    State: emptyAsUndefined(flag),
    /** 1 active, 0 cleared. */
    Active: emptyAsUndefined(flag),
    /** A project, station or client node: alarms of the devices below it. */
    ProjectId: emptyAsUndefined(idRef),
    /** A warn type (the notice centre's tabs). */
    TypeId: emptyAsUndefined(idRef),
    DeviceSn: emptyAsUndefined(deviceSn),
    BeginTime: emptyAsUndefined(timeParam),
    EndTime: emptyAsUndefined(timeParam),
  }),
);
export type WarnQuery = z.infer<typeof warnQuery>;

/** The columns GET Warn orders by (OrderBy), and the default (newest first). */
export const WARN_ORDER = ['Dt', 'Code', 'DeviceSn', 'State', 'Active', 'ClearedAt', 'HandledAt'] as const;

const comments = anyText(1, 500);

/** PUT {deviceSn}/Warn: handles one alarm of the device. */
export const handleWarnRequest = z.object({ Id: idRef, Comments: comments });
/** PUT Warn: handles many alarms with one comment. */
export const handleWarnsRequest = z.object({ Ids: z.array(idRef).min(1).max(500), Comments: comments });
/** POST Warn/WarnDelete. */
export const deleteWarnsRequest = z.object({ Ids: z.array(idRef).min(1).max(500) });
/** POST Warn/WarnAdd: an alarm a person raises on a device with one of the group's warn codes. */
export const addWarnRequest = z.object({ DeviceSn: deviceSn, Code: warnCodeValue, Comments: text(500) });

/** GET Warn/GetWarnInfo: what the header's bell shows. */
export const warnInfoDto = z.object({
  /** Active alarms nobody has handled yet. */
  ActiveUnhandled: z.number(),
  /** All alarms nobody has handled yet (active or cleared). */
  Unhandled: z.number(),
  /** The newest active unhandled alarms (up to 5). */
  Latest: z.array(warnDto),
});
export type WarnInfoDto = z.infer<typeof warnInfoDto>;

/** GET Warn/statistics: BeginTime, EndTime (default the last 30 days), ProjectId. */
export const warnStatisticsQuery = z.preprocess(
  lowerAlias(['BeginTime', 'EndTime', 'ProjectId']),
  z.object({
    BeginTime: emptyAsUndefined(timeParam),
    EndTime: emptyAsUndefined(timeParam),
    ProjectId: emptyAsUndefined(idRef),
  }),
);

export const warnStatisticsDto = z.object({
  BeginTime: z.number(),
  EndTime: z.number(),
  Total: z.number(),
  ByState: z.object({ Active: z.number(), Cleared: z.number(), Handled: z.number(), Unhandled: z.number() }),
  ByType: z.array(z.object({ TypeId: z.number().nullable(), TypeName: z.string(), Color: z.string(), Count: z.number() })),
  ByProject: z.array(z.object({ ProjectId: z.number().nullable(), ProjectName: z.string(), Count: z.number() })),
  /** Local days (YYYY-MM-DD) with alarms opened. */
  ByDay: z.array(z.object({ Date: z.string(), Count: z.number() })),
});
export type WarnStatisticsDto = z.infer<typeof warnStatisticsDto>;
