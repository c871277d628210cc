/**
 * What the live connection knows (spec §4): the connected flag and, per device, the newest data
 * values, the active error codes and the state (0 offline, 1 online, 2 online with warning).
 * Components read it through the hooks of live-hooks.ts; each device has its own listeners so
 * that a message re-renders only what shows that device.
 */
import { TIME_KEY, type TopicKind } from '@sluice/shared/device-protocol';

export type LiveState = 0 | 1 | 2;

export interface LiveDevice {
  /** Newest value of each data key received live. */
  data: Readonly<Record<string, number | string>>;
  /** Time of the newest data (ms). */
  time: number | undefined;
  /** Active error codes, when an error message or a warn event has said. */
  codes: readonly string[] | undefined;
  /** State, when a status message or an event has said. */
  state: LiveState | undefined;
}

const EMPTY: LiveDevice = { data: {}, time: undefined, codes: undefined, state: undefined };

type Listener = () => void;

/** An alarm opened, cleared or handled, as the server's warn event says. */
export interface AlarmEvent {
  deviceSn: string;
  id: number;
  code: string;
  description: string;
  active: boolean;
  handled: boolean;
  time: number;
}
type AlarmListener = (event: AlarmEvent) => void;

/** What became of a command: the device's answer (done or refused, with its reason), or the server's time-out. */
export interface CommandEvent {
  deviceSn: string;
  /** The command's id (the device log's CommandId). */
  id: string;
  key: string;
  outcome: 'done' | 'refused' | 'timeout';
  /** The value the device reports after the command, when it said. */
  value?: number | string | boolean;
  /** The device's reason, when it gave one. */
  message?: string;
}
type CommandListener = (event: CommandEvent) => void;

/** How many command outcomes are kept for a sender whose call returns after the device answered. */
const KEPT_COMMANDS = 200;

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function readTime(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value < 1e12 ? value * 1000 : value;
  if (typeof value === 'string') {
    if (/^\d+$/.test(value)) return readTime(Number(value));
    const ms = Date.parse(value.includes('T') ? value : value.replace(' ', 'T'));
    return Number.isFinite(ms) ? ms : undefined;
  }
  return undefined;
}

function toState(value: unknown): LiveState | undefined {
  return value === 0 || value === 1 || value === 2 ? value : undefined;
}

export class LiveStore {
  private devices = new Map<string, LiveDevice>();
  private readonly deviceListeners = new Map<string, Set<Listener>>();
  private readonly stateListeners = new Set<Listener>();
  private readonly connectionListeners = new Set<Listener>();
  private readonly alarmListeners = new Set<AlarmListener>();
  private readonly commandListeners = new Set<CommandListener>();
  private readonly commands = new Map<string, CommandEvent>();
  private states = new Map<string, LiveState>();
  /** When each device was last updated, by a counter of updates. */
  private readonly updatedAt = new Map<string, number>();
  private updates = 0;
  connected = false;

  device(sn: string): LiveDevice {
    return this.devices.get(sn) ?? EMPTY;
  }

  /** The states said live, by serial number: a new Map whenever one changes. */
  stateSnapshot(): ReadonlyMap<string, LiveState> {
    return this.states;
  }

  subscribeDevice(sn: string, listener: Listener): () => void {
    let set = this.deviceListeners.get(sn);
    if (!set) this.deviceListeners.set(sn, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.deviceListeners.delete(sn);
    };
  }

  subscribeStates(listener: Listener): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** Every alarm event of any device (the bell's count, the new-alarm toast). */
  subscribeAlarms(listener: AlarmListener): () => void {
    this.alarmListeners.add(listener);
    return () => this.alarmListeners.delete(listener);
  }

  /** Every command outcome of any device, as it is heard. */
  subscribeCommands(listener: CommandListener): () => void {
    this.commandListeners.add(listener);
    return () => this.commandListeners.delete(listener);
  }

  /** A command's outcome heard already (the device may answer before the sender's call returns). */
  commandOutcome(id: string): CommandEvent | undefined {
    return this.commands.get(id);
  }

  subscribeConnection(listener: Listener): () => void {
    this.connectionListeners.add(listener);
    return () => this.connectionListeners.delete(listener);
  }

  setConnected(connected: boolean): void {
    if (this.connected === connected) return;
    this.connected = connected;
    for (const l of this.connectionListeners) l();
  }

  /** A point in the stream of updates, for forgetBefore. */
  mark(): number {
    return this.updates;
  }

  /**
   * Forgets what devices said before `mark` and not since: after a reconnect, once the pages
   * have fetched again, the server's answers are newer than what was heard before the drop.
   */
  forgetBefore(mark: number): void {
    const stale = [...this.updatedAt].filter(([, at]) => at <= mark).map(([sn]) => sn);
    if (stale.length === 0) return;
    const states = new Map(this.states);
    for (const sn of stale) {
      this.devices.delete(sn);
      this.updatedAt.delete(sn);
      states.delete(sn);
    }
    if (states.size !== this.states.size) {
      this.states = states;
      for (const l of this.stateListeners) l();
    }
    for (const sn of stale) this.notify(sn);
  }

  /** Forgets every device (on sign-out, or before a fresh start). */
  clear(): void {
    const sns = [...this.devices.keys()];
    this.devices = new Map();
    this.states = new Map();
    this.updatedAt.clear();
    this.commands.clear();
    for (const sn of sns) this.notify(sn);
    for (const l of this.stateListeners) l();
  }

  /**
   * Takes one message. Retained status messages are the broker's memory of the past, not news:
   * the pages' own fetches are the truth at load time, so they are ignored.
   */
  receive(kind: TopicKind, sn: string, payload: unknown, retained = false): void {
    if (kind === 'data') this.receiveData(sn, payload);
    else if (kind === 'error') this.receiveError(sn, payload);
    else if (kind === 'status' && !retained) {
      const online = record(payload)?.Online;
      if (online === 0 || online === false) this.update(sn, { state: 0 });
      else if (online === 1 || online === true) this.update(sn, { state: (this.device(sn).codes?.length ?? 0) > 0 ? 2 : 1 });
    } else if (kind === 'event') this.receiveEvent(sn, payload);
  }

  private receiveData(sn: string, payload: unknown): void {
    const messages = Array.isArray(payload) ? payload : [payload];
    const current = this.device(sn);
    const data: Record<string, number | string> = { ...current.data };
    let time = current.time;
    let changed = false;
    for (const m of messages) {
      const values = record(m);
      if (!values) continue;
      const at = readTime(values[TIME_KEY]) ?? Date.now();
      // A buffered (older) message does not overwrite newer values.
      if (time !== undefined && at < time) continue;
      time = at;
      for (const [key, value] of Object.entries(values)) {
        if (key === TIME_KEY) continue;
        if (typeof value === 'number' && Number.isFinite(value)) data[key] = value;
        else if (typeof value === 'boolean') data[key] = value ? 1 : 0;
        else if (typeof value === 'string') data[key] = value;
        else continue;
        changed = true;
      }
    }
    if (changed) this.update(sn, { data, time });
  }

  private receiveError(sn: string, payload: unknown): void {
    const body = record(payload);
    if (!body) return;
    let codes: string[];
    if (Array.isArray(body.Codes)) codes = body.Codes.filter((c): c is string => typeof c === 'string');
    else if (typeof body.Code === 'string') {
      const others = (this.device(sn).codes ?? []).filter((c) => c !== body.Code);
      codes = body.Active === 0 || body.Active === false ? others : [...others, body.Code];
    } else return;
    this.update(sn, { codes });
  }

  private receiveEvent(sn: string, payload: unknown): void {
    const body = record(payload);
    if (!body) return;
    const state = toState(body.State);
    if (body.Type === 'warn' && typeof body.Code === 'string') {
      const others = (this.device(sn).codes ?? []).filter((c) => c !== body.Code);
      const codes = body.Active === 0 || body.Active === false ? others : [...others, body.Code];
      this.update(sn, state === undefined ? { codes } : { codes, state });
      if (typeof body.Id === 'number') {
        const event: AlarmEvent = {
          deviceSn: sn,
          id: body.Id,
          code: body.Code,
          description: typeof body.Description === 'string' ? body.Description : '',
          active: !(body.Active === 0 || body.Active === false),
          handled: body.Handled === 1,
          time: readTime(body.Time) ?? Date.now(),
        };
        for (const l of this.alarmListeners) l(event);
      }
    } else if (body.Type === 'online' && state !== undefined) this.update(sn, { state });
    else if ((body.Type === 'ack' || body.Type === 'timeout') && typeof body.Id === 'string') {
      const value = body.Value;
      const event: CommandEvent = {
        deviceSn: sn,
        id: body.Id,
        key: typeof body.Key === 'string' ? body.Key : '',
        outcome: body.Type === 'timeout' ? 'timeout' : body.Success === true ? 'done' : 'refused',
        ...(typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean' ? { value } : {}),
        ...(typeof body.Message === 'string' && body.Message !== '' ? { message: body.Message } : {}),
      };
      // A late answer after a time-out still tells what happened; a time-out after an answer does not undo it.
      if (event.outcome === 'timeout' && this.commands.has(event.id)) return;
      this.commands.delete(event.id);
      this.commands.set(event.id, event);
      if (this.commands.size > KEPT_COMMANDS) this.commands.delete(this.commands.keys().next().value ?? '');
      for (const l of this.commandListeners) l(event);
    }
  }

  private update(sn: string, change: Partial<LiveDevice>): void {
    const next = { ...this.device(sn), ...change };
    this.devices.set(sn, next);
    this.updatedAt.set(sn, ++this.updates);
    if (next.state !== undefined && this.states.get(sn) !== next.state) {
      this.states = new Map(this.states).set(sn, next.state);
      for (const l of this.stateListeners) l();
    }
    this.notify(sn);
  }

  private notify(sn: string): void {
    for (const l of this.deviceListeners.get(sn) ?? []) l();
  }
}
