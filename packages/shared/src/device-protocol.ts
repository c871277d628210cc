/**
 * The device protocol over MQTT (docs/device-protocol.md): topic templates, their parsing, and
 * the shapes of the payloads. Pure, so that the server, the simulator and the console agree.
 *
 * A template is a topic with placeholders that each fill one whole level:
 * `sluice/{groupId}/{deviceSn}/data`. {deviceSn} is required; {groupId} is optional, so that
 * existing field gateways with topics like `station/{deviceSn}/up` can be mapped.
 */

/** Kinds of topic: what devices publish (data, error, status, ack), receive (cmd), and what the server publishes for consoles (event). */
export const TOPIC_KINDS = ['data', 'error', 'status', 'cmd', 'ack', 'event'] as const;
export type TopicKind = (typeof TOPIC_KINDS)[number];

export type TopicTemplates = Record<TopicKind, string>;

export const DEFAULT_TOPICS: TopicTemplates = {
  data: 'sluice/{groupId}/{deviceSn}/data',
  error: 'sluice/{groupId}/{deviceSn}/error',
  status: 'sluice/{groupId}/{deviceSn}/status',
  cmd: 'sluice/{groupId}/{deviceSn}/cmd',
  ack: 'sluice/{groupId}/{deviceSn}/ack',
  event: 'sluice/{groupId}/{deviceSn}/event',
};

/** What a device may publish, and what it may subscribe to. */
export const DEVICE_PUBLISHES: readonly TopicKind[] = ['data', 'error', 'status', 'ack'];
export const DEVICE_SUBSCRIBES: readonly TopicKind[] = ['cmd'];
/** What a console user may subscribe to (never publish). */
export const CONSOLE_SUBSCRIBES: readonly TopicKind[] = ['data', 'error', 'status', 'event'];

/** The time data key (§3). */
export const TIME_KEY = 'Time';

/** MQTT settings of the console's client (§9): connect time-out 5 s, keep-alive 10 s, clean session. */
export const CONSOLE_MQTT = { connectTimeoutMs: 5000, keepaliveSeconds: 10, clean: true } as const;

const PLACEHOLDER = /\{(groupId|deviceSn)\}/g;

/** Why a template is unusable, or undefined when it is fine. */
export function templateProblem(template: string): string | undefined {
  if (!template.includes('{deviceSn}')) return 'must contain {deviceSn}';
  if (/[#+]/.test(template)) return 'must not contain the wildcards + or #';
  if (template.startsWith('$')) return 'must not start with $';
  for (const level of template.split('/')) {
    const stripped = level.replace(PLACEHOLDER, '');
    if (stripped !== level && stripped !== '') return 'a placeholder must fill a whole topic level';
    if (/[{}]/.test(stripped)) return 'knows only the placeholders {groupId} and {deviceSn}';
  }
  if ((template.match(/\{deviceSn\}/g) ?? []).length > 1 || (template.match(/\{groupId\}/g) ?? []).length > 1) {
    return 'may hold each placeholder once';
  }
  return undefined;
}

/** Why a set of templates is unusable (one is bad, or two kinds could not be told apart). */
export function templatesProblem(templates: TopicTemplates): string | undefined {
  for (const kind of TOPIC_KINDS) {
    const problem = templateProblem(templates[kind]);
    if (problem) return `${kind}: ${problem}`;
  }
  const shapes = TOPIC_KINDS.map((k) => templates[k].replace(PLACEHOLDER, '+'));
  if (new Set(shapes).size !== shapes.length) return 'every kind of topic needs its own template';
  return undefined;
}

export interface TopicAddress {
  kind: TopicKind;
  deviceSn: string;
  /** The group id of the topic, when its template has one. */
  groupId?: number;
}

interface Compiled {
  kind: TopicKind;
  levels: string[];
}

/** Parses and builds topics of a set of templates. */
export class TopicCodec {
  readonly templates: TopicTemplates;
  private readonly compiled: Compiled[];

  constructor(templates: TopicTemplates = DEFAULT_TOPICS) {
    const problem = templatesProblem(templates);
    if (problem) throw new Error(`Bad topic templates: ${problem}`);
    this.templates = templates;
    this.compiled = TOPIC_KINDS.map((kind) => ({ kind, levels: templates[kind].split('/') }));
  }

  /** The topic of a device (group id needed when the template has one). */
  topic(kind: TopicKind, deviceSn: string, groupId: number | string): string {
    return this.templates[kind].replace('{deviceSn}', deviceSn).replace('{groupId}', String(groupId));
  }

  /** A subscription filter of one kind for every device of a group (`+` for the serial number). */
  groupFilter(kind: TopicKind, groupId: number | string): string {
    return this.topic(kind, '+', groupId);
  }

  /** What a concrete topic addresses, or undefined when it matches no template. */
  parse(topic: string): TopicAddress | undefined {
    const levels = topic.split('/');
    for (const c of this.compiled) {
      const address = match(c, levels, false);
      if (!address) continue;
      const { groupId } = address;
      return typeof groupId === 'number'
        ? { kind: address.kind, deviceSn: address.deviceSn, groupId }
        : { kind: address.kind, deviceSn: address.deviceSn };
    }
    return undefined;
  }

  /**
   * What a subscription filter addresses: the kind, and the serial number and group or '+'
   * when the filter leaves them open. Undefined when it is not one of our templates with at
   * most the device and group levels left open ('#' is never accepted).
   */
  parseFilter(filter: string): FilterAddress | undefined {
    if (filter.includes('#')) return undefined;
    const levels = filter.split('/');
    for (const c of this.compiled) {
      const address = match(c, levels, true);
      if (address) return address;
    }
    return undefined;
  }
}

interface FilterAddress {
  kind: TopicKind;
  deviceSn: string;
  groupId?: number | '+';
}

function match(c: Compiled, levels: string[], wildcards: boolean): FilterAddress | undefined {
  if (levels.length !== c.levels.length) return undefined;
  let deviceSn: string | undefined;
  let groupId: number | '+' | undefined;
  for (const [i, pattern] of c.levels.entries()) {
    const level = levels[i] ?? '';
    if (pattern === '{deviceSn}') {
      if (level === '' || (level.includes('+') && !(wildcards && level === '+'))) return undefined;
      deviceSn = level;
    } else if (pattern === '{groupId}') {
      if (wildcards && level === '+') groupId = '+';
      else if (/^\d{1,9}$/.test(level)) groupId = Number(level);
      else return undefined;
    } else if (level !== pattern) {
      return undefined;
    }
  }
  if (deviceSn === undefined) return undefined;
  return groupId === undefined ? { kind: c.kind, deviceSn } : { kind: c.kind, deviceSn, groupId };
}

// ---- Payloads -------------------------------------------------------------------------------

/** A data message: data points keyed by DataKey, with `Time`; or an array of them (a gateway's buffer). */
export type DataValue = number | string | boolean;
export type DataMessage = Record<string, DataValue>;

/** An error message: the codes active now (an empty list clears them all). */
export interface ErrorMessage {
  Time?: number | string;
  Codes: string[];
}

/** A status message: retained; the last will says `Online: 0`. */
export interface StatusMessage {
  Online: 0 | 1;
  Time?: number | string;
  Version?: string;
}

/** A command to a device. */
export interface CommandMessage {
  Id: string;
  Key: string;
  /** A data point's new value; the run model's configuration for `$RunModel`. */
  Value: DataValue | RunModelConfig;
  Time: number;
}

/**
 * Keys of the run model's messages on the cmd topic (docs/device-protocol.md, run model). They
 * are no data points: a DataKey cannot start with `$`.
 */
export const RUN_MODEL_KEYS = { config: '$RunModel', rotate: '$Rotate' } as const;

/** One step of a rotation: the accessory's switch runs for RunTime seconds. */
export interface RunModelStepConfig {
  Accessory: string;
  Key: string;
  RunTime: number;
  /** Where the device reports the running step's seconds, if anywhere. */
  ElapsedKey?: string;
}

/** A device's run model as it receives it: every run system with its steps in order. */
export interface RunModelConfig {
  Systems: { Id: number; Name: string; RestTime: number; Steps: RunModelStepConfig[] }[];
}

/** A device's answer to a command. */
export interface AckMessage {
  Id: string;
  Success: boolean;
  Value?: DataValue;
  Message?: string;
  Time?: number | string;
}

/** What the server publishes on the event topic for consoles. */
export type EventMessage =
  | { Type: 'online'; DeviceSn: string; Online: 0 | 1; State: 0 | 1 | 2; Time: number }
  | {
      Type: 'warn';
      DeviceSn: string;
      Id: number;
      Code: string;
      Description: string;
      Active: 0 | 1;
      State: 0 | 1 | 2;
      /** 1 once someone handled it. */
      Handled?: 0 | 1;
      Time: number;
    }
  | {
      Type: 'ack';
      DeviceSn: string;
      Id: string;
      Key: string;
      Success: boolean;
      Value?: DataValue;
      /** The device's reason, when it gave one (a refusal's). */
      Message?: string;
      Time: number;
    }
  /** A command the device did not answer within the server's COMMAND_TIMEOUT. */
  | { Type: 'timeout'; DeviceSn: string; Id: string; Key: string; Time: number };

const LOCAL_DATETIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;

/**
 * Epoch milliseconds of a `Time` value: epoch milliseconds or seconds as a number or digits,
 * an ISO 8601 time with zone, or 'YYYY-MM-DD HH:mm:ss' in local time at `offsetMinutes` east
 * of UTC. Undefined when it is none of these.
 */
export function parseDeviceTime(value: unknown, offsetMinutes: number): number | undefined {
  if (typeof value === 'number')
    return Number.isFinite(value) && value > 0 ? (value >= 1e11 ? Math.round(value) : Math.round(value * 1000)) : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (/^\d{9,13}(\.\d+)?$/.test(text)) return parseDeviceTime(Number(text), offsetMinutes);
  const local = LOCAL_DATETIME.exec(text);
  if (local) {
    const [y, mo, d, h, mi, s, ms] = local.slice(1).map((p: string | undefined) => (p === undefined ? 0 : Number(p))) as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const utc = Date.UTC(y, mo - 1, d, h, mi, s, ms);
    const check = new Date(utc);
    if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return undefined;
    return utc - offsetMinutes * 60_000;
  }
  if (/^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:?\d{2})$/.test(text)) {
    const t = Date.parse(text);
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}

/** Minutes east of UTC of an offset written '+08:00', '-05:30' or 'Z'. */
export function parseUtcOffset(text: string): number | undefined {
  if (text === 'Z') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(text);
  if (!m) return undefined;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  if (minutes > 14 * 60) return undefined;
  return m[1] === '-' ? -minutes : minutes;
}
