/** Live data calls (spec §7 Monitoring, history and statistics; Devices: commands; Alarms: DeviceLog). */
import { z } from 'zod';
import { anyText } from './rules.ts';
import { dataKey, idRef } from './schema-fields.ts';

/** A time given as epoch milliseconds, 'YYYY-MM-DD', 'YYYY-MM-DD HH:mm[:ss]' (local) or ISO 8601 with zone. */
export const timeParam = z.union([z.number(), z.string().trim().min(1).max(40)]);

const lowerAlias = (names: string[]) => (q: unknown) => {
  if (!q || typeof q !== 'object') return q;
  const v = { ...(q as Record<string, unknown>) };
  for (const name of names) {
    const lower = name.charAt(0).toLowerCase() + name.slice(1);
    if (v[name] === undefined && v[lower] !== undefined) v[name] = v[lower];
  }
  return v;
};

export const HISTORY_SOURCES = ['auto', 'raw', 'hour', 'day'] as const;
export type HistorySource = (typeof HISTORY_SOURCES)[number];
export const HISTORY_LAYOUTS = ['rows', 'columns'] as const;

/** GET {kind}/{deviceSn}/DeviceHisData. */
export const historyQuery = z.preprocess(
  lowerAlias(['BeginTime', 'EndTime', 'Type', 'Keys', 'MaxPoints', 'Format', 'Layout']),
  z.object({
    BeginTime: timeParam,
    EndTime: timeParam.optional(),
    /** The source: auto (by range), raw rows, hourly or daily roll-ups. */
    Type: z.preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), z.enum(HISTORY_SOURCES)).default('auto'),
    /** Data keys, comma-joined; all of the device's when empty. */
    Keys: z.string().max(2000).optional(),
    MaxPoints: z.coerce.number().int().min(10).max(100_000).optional(),
    /** csv, xlsx: a file of every row in range (not downsampled). */
    Format: z.enum(['json', 'csv', 'xlsx']).default('json'),
    /**
     * How a JSON answer gives each series' points: rows (default; Points and Bands, as spec §7's
     * call answers) or columns (Times, Values, Mins, Maxs: the same numbers as flat arrays, what
     * the console's chart asks for — half the bytes and far less to encode and parse).
     */
    Layout: z.preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), z.enum(HISTORY_LAYOUTS)).default('rows'),
  }),
);
export type HistoryQuery = z.infer<typeof historyQuery>;

const historySeriesHead = {
  Key: z.string(),
  Name: z.string(),
  Unit: z.string(),
  /** false when the key has no data definition (kept, but flagged). */
  Defined: z.boolean(),
  /** Rows the points stand for (before downsampling). */
  Count: z.number(),
  /** The device type's statistics standard of the key ('50', or '6,9' for a band), when it sets one. */
  Standard: z.string().optional(),
};
const pointValue = z.union([z.number(), z.string(), z.null()]);

export const historySeriesDto = z.object({
  ...historySeriesHead,
  /** Points as [time ms, value]; numbers for numeric series, text otherwise. */
  Points: z.array(z.tuple([z.number(), pointValue])),
  /** From roll-ups: each point's bucket as [time ms, min, max] (Points then hold averages). */
  Bands: z.array(z.tuple([z.number(), z.number(), z.number()])).optional(),
});
/** Layout=columns: the same series with its points as columns of equal length. */
export const historyColumnsSeriesDto = z.object({
  ...historySeriesHead,
  /** Each point's time (ms). */
  Times: z.array(z.number()),
  /** Each point's value: numbers for numeric series (bucket averages from roll-ups), text otherwise. */
  Values: z.array(pointValue),
  /** From roll-ups: each point's bucket minimum and maximum. */
  Mins: z.array(z.number()).optional(),
  Maxs: z.array(z.number()).optional(),
});

const historyHead = {
  DeviceSn: z.string(),
  BeginTime: z.number(),
  EndTime: z.number(),
  /** Where the points come from: raw, hour or day. */
  Source: z.enum(['raw', 'hour', 'day']),
  /** min/max per bucket when there were more rows than MaxPoints, else none. */
  Downsampled: z.enum(['none', 'minmax']),
};
export const historyDto = z.object({ ...historyHead, Series: z.array(historySeriesDto) });
export type HistoryDto = z.infer<typeof historyDto>;
export const historyColumnsDto = z.object({ ...historyHead, Series: z.array(historyColumnsSeriesDto) });
export type HistoryColumnsDto = z.infer<typeof historyColumnsDto>;

export const latestDto = z.object({
  DeviceSn: z.string(),
  /** The Time of the newest message (ms), null before any data. */
  Time: z.number().nullable(),
  Online: z.boolean(),
  /** 0 offline, 1 online, 2 online with warning. */
  State: z.number(),
  Data: z.record(z.string(), z.union([z.number(), z.string()])),
  Points: z.array(
    z.object({
      Key: z.string(),
      Name: z.string(),
      Unit: z.string(),
      Value: z.union([z.number(), z.string()]),
      Defined: z.boolean(),
    }),
  ),
});
export type LatestDto = z.infer<typeof latestDto>;

/** GET {g}/DeviceMonitorData?Dt. */
export const monitorQuery = z.preprocess(
  lowerAlias(['Dt', 'ProjectId', 'DeviceSn']),
  z.object({
    Dt: z
      .string()
      .trim()
      .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'rule.valueDate' })
      .optional(),
    ProjectId: idRef.optional(),
    DeviceSn: z.string().max(40).optional(),
  }),
);

export const statsDto = z.object({
  Min: z.number(),
  Max: z.number(),
  Avg: z.number(),
  First: z.number(),
  Last: z.number(),
  Count: z.number(),
});

export const monitorRowDto = z.object({
  DeviceSn: z.string(),
  DeviceName: z.string(),
  ProjectId: z.number().nullable(),
  Online: z.boolean(),
  State: z.number(),
  Time: z.number().nullable(),
  Data: z.record(z.string(), z.union([z.number(), z.string()])),
  /** With Dt: the day's min, max, average, first, last and count of each numeric key. */
  Stats: z.record(z.string(), statsDto).optional(),
});

/** GET {g}/DeviceDayMonitorData?Begin&End. */
export const dayMonitorQuery = z.preprocess(
  lowerAlias(['Begin', 'End', 'ProjectId', 'DeviceSn', 'Keys']),
  z.object({
    Begin: z
      .string()
      .trim()
      .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'rule.valueDate' }),
    End: z
      .string()
      .trim()
      .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'rule.valueDate' }),
    ProjectId: idRef.optional(),
    DeviceSn: z.string().max(40).optional(),
    Keys: z.string().max(2000).optional(),
  }),
);

export const dayMonitorRowDto = z.object({
  DeviceSn: z.string(),
  Date: z.string(),
  Data: z.record(z.string(), statsDto),
});

/** GET DeviceOnline/GetDeviceOnline. */
export const onlineQuery = z.preprocess(
  lowerAlias(['BeginTime', 'EndTime', 'ProjectId', 'DeviceSn']),
  z.object({
    BeginTime: z
      .string()
      .trim()
      .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'rule.valueDate' })
      .optional(),
    EndTime: z
      .string()
      .trim()
      .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'rule.valueDate' })
      .optional(),
    ProjectId: idRef.optional(),
    DeviceSn: z.string().max(40).optional(),
  }),
);

export const onlineRowDto = z.object({
  DeviceSn: z.string(),
  DeviceName: z.string(),
  Online: z.boolean(),
  /** Hours online per local day, 'YYYY-MM-DD' → hours (2 decimals). */
  Days: z.array(z.object({ Date: z.string(), Hours: z.number() })),
  /** The days added up by the §5 summation rule. */
  TotalHours: z.number(),
});

/** POST {g}/{deviceSn}/DeviceCommand. */
export const commandRequest = z.preprocess(
  lowerAlias(['Key', 'Value']),
  z.object({
    Key: dataKey,
    Value: z.union([z.number(), z.string().max(256), z.boolean()]),
  }),
);
export type CommandRequest = z.infer<typeof commandRequest>;

/**
 * What a device log row records: a command sent (0), done (1) or refused by the device (2), or
 * timed out (4: the device did not answer within the server's COMMAND_TIMEOUT; an answer arriving
 * later still records done or refused); or a message from the device that the server could not
 * use (3: Key is the topic kind, NewValue the start of the payload, Message why); or an
 * operator's note (5: Message the note).
 */
export const DEVICE_LOG_STATE = { sent: 0, done: 1, refusedByDevice: 2, messageRefused: 3, timedOut: 4, note: 5 } as const;

/** POST {kind}/{deviceSn}/DeviceLog: an operator's note in the device log (state 5; Key the data point it is about, if any). */
export const deviceLogNoteRequest = z.object({
  Message: anyText(1, 500),
  Key: z.preprocess((v) => (v === '' || v === null ? undefined : v), dataKey.optional()),
});
export type DeviceLogNoteRequest = z.infer<typeof deviceLogNoteRequest>;

export const deviceLogDto = z.object({
  Id: z.number(),
  DeviceSn: z.string(),
  CommandId: z.string(),
  Key: z.string(),
  KeyName: z.string(),
  OldValue: z.string(),
  NewValue: z.string(),
  SendTime: z.number(),
  /** When the device acknowledged; null until then. */
  Time: z.number().nullable(),
  /**
   * DEVICE_LOG_STATE: 0 sent, 1 done, 2 refused by the device, 3 a device message the server
   * refused, 4 timed out (no answer within COMMAND_TIMEOUT), 5 a note.
   */
  State: z.number(),
  Message: z.string(),
  UserName: z.string(),
});
export type DeviceLogDto = z.infer<typeof deviceLogDto>;

/** GET {kind}/{deviceSn}/DeviceLog. */
export const deviceLogQuery = z.preprocess(
  lowerAlias(['BeginTime', 'EndTime', 'Order', 'OrderType']),
  z.object({
    BeginTime: timeParam.optional(),
    EndTime: timeParam.optional(),
    OrderType: z.enum(['asc', 'desc', 'ASC', 'DESC']).optional(),
  }),
);

/** What the console's MQTT client needs (GET Mqtt/Config). */
export const mqttConfigDto = z.object({
  /** ws(s) URL of the broker; null: the console's own origin at /mqtt. */
  Url: z.string().nullable(),
  Path: z.string(),
  /** Username: the account; password: the session token. */
  Username: z.string(),
  GroupId: z.number(),
  ConnectTimeout: z.number(),
  KeepAlive: z.number(),
  Clean: z.boolean(),
  /** Filters to subscribe to (every device of the group the user may see; others are not delivered). */
  Subscriptions: z.array(z.string()),
  /** Templates by kind with {groupId} and {deviceSn}, to subscribe to one device. */
  Topics: z.record(z.string(), z.string()),
});
export type MqttConfigDto = z.infer<typeof mqttConfigDto>;
