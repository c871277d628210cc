/**
 * A fleet of simulated devices speaking the device protocol (docs/device-protocol.md): each
 * device connects with its serial number and secret, leaves a retained `Online: 0` will,
 * announces `Online: 1`, subscribes to its commands, publishes its station's values every
 * interval (only the keys it has, under its own names), reports error codes, and answers
 * commands with acknowledgements (unless told to ignore them, to show time-outs). Devices of one station share one station model.
 */
import net from 'node:net';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import {
  DEFAULT_TOPICS,
  RUN_MODEL_KEYS,
  TopicCodec,
  type AckMessage,
  type CommandMessage,
  type TopicTemplates,
} from '@sluice/shared/device-protocol';
import { StationModel, type CommandResult, type StationOptions } from './station-model.ts';

export interface SimDevice {
  deviceSn: string;
  secret: string;
  groupId: number;
  /** Devices with the same station share one station model. */
  station: string;
  /** The keys it publishes (all of the station's when absent). */
  keys?: string[];
  /** Its own key → the station's key (a second pump reporting as pump 1, say). */
  keyMap?: Record<string, string>;
}

export interface FleetOptions {
  url: string;
  devices: SimDevice[];
  intervalMs: number;
  qos?: 0 | 1;
  topics?: TopicTemplates;
  /** Report faults on the error topic too (off where data points are linked to codes). */
  errorTopic?: boolean;
  station?: Omit<StationOptions, 'seed'>;
  /** Connections opened at once (a large fleet ramps up). */
  connectBatch?: number;
  log?: (message: string) => void;
  /**
   * Simulated seconds per real second (1 by default): a demonstration or a test sees an hour of
   * a station in seconds. Messages keep the real time.
   */
  speed?: number;
  /** Devices that leave commands unanswered (the server then times them out), by serial number. */
  ignoreCommands?: string[];
  /** Told of each data message as it is sent (tests measure from here). */
  onPublish?: (deviceSn: string, message: Record<string, number>) => void;
  /**
   * The local address the devices' TCP connections leave from (mqtt:// only), e.g. 127.0.0.2: one
   * address has one range of ephemeral ports towards the broker, too few for more than about
   * 28,000 devices on one machine.
   */
  localAddress?: string;
}

export interface FleetStats {
  connected: number;
  published: number;
  acknowledged: number;
  failed: number;
  commands: number;
  points: number;
  /** Connections that closed while the fleet ran (the broker dropped them, or the network did). */
  disconnects: number;
}

function seedOf(text: string): number {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

class DeviceAgent {
  private client: MqttClient | undefined;
  private timer: NodeJS.Timeout | undefined;
  private codes = '';
  private stopping = false;
  private readonly device: SimDevice;
  private readonly model: StationModel;
  private readonly fleet: Fleet;

  constructor(device: SimDevice, model: StationModel, fleet: Fleet) {
    this.device = device;
    this.model = model;
    this.fleet = fleet;
  }

  async start(): Promise<void> {
    const { deviceSn, secret, groupId } = this.device;
    const topics = this.fleet.topics;
    const status = topics.topic('status', deviceSn, groupId);
    const options: IClientOptions = {
      clientId: deviceSn,
      username: deviceSn,
      password: secret,
      keepalive: 30,
      clean: true,
      reconnectPeriod: 2000,
      connectTimeout: 10_000,
      protocolVersion: 4,
      will: { topic: status, payload: Buffer.from(JSON.stringify({ Online: 0 })), qos: 1, retain: true },
    };
    const client = this.fleet.connect(options);
    this.client = client;
    let up = false;
    client.on('connect', () => {
      if (!up) this.fleet.stats.connected += 1;
      up = true;
      client.publish(status, JSON.stringify({ Online: 1, Time: Date.now() }), { qos: 1, retain: true });
      client.subscribe(topics.topic('cmd', deviceSn, groupId), { qos: 1 });
      this.codes = '';
      this.publish();
    });
    client.on('close', () => {
      if (up) {
        this.fleet.stats.connected -= 1;
        if (!this.stopping) this.fleet.stats.disconnects += 1;
      }
      up = false;
    });
    client.on('message', (_topic, payload) => {
      this.onCommand(payload);
    });
    client.on('error', (error) => {
      this.fleet.log(`${deviceSn}: ${error.message}`);
    });
    await new Promise<void>((resolve) => {
      client.once('connect', () => {
        resolve();
      });
      client.once('error', () => {
        resolve();
      });
    });
    const jitter = Math.floor(Math.random() * this.fleet.options.intervalMs);
    this.timer = setTimeout(() => {
      this.timer = setInterval(() => {
        this.publish();
      }, this.fleet.options.intervalMs);
    }, jitter);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    await this.client?.endAsync();
  }

  /** Kills the connection without a goodbye, so that the broker publishes the last will. */
  drop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.client?.stream.destroy();
    this.client?.end(true);
  }

  private values(): Record<string, number> {
    const { keys, keyMap } = this.device;
    const all = this.model.v;
    if (!keys && !keyMap) return { ...all };
    const out: Record<string, number> = {};
    for (const key of keys ?? Object.keys(all)) {
      const value = all[keyMap?.[key] ?? key];
      if (value !== undefined) out[key] = value;
    }
    return out;
  }

  private publish(): void {
    const client = this.client;
    if (!client?.connected) return;
    const now = Date.now();
    this.model.step(this.fleet.simulatedTime(now));
    const { deviceSn, groupId } = this.device;
    const values = this.values();
    const payload = JSON.stringify({ Time: now, ...values });
    const stats = this.fleet.stats;
    stats.published += 1;
    stats.points += Object.keys(values).length;
    this.fleet.options.onPublish?.(deviceSn, { Time: now, ...values });
    client.publish(this.fleet.topics.topic('data', deviceSn, groupId), payload, { qos: this.fleet.options.qos ?? 1 }, (error) => {
      if (error) stats.failed += 1;
      else stats.acknowledged += 1;
    });
    if (this.fleet.options.errorTopic !== false) {
      const codes = this.model.activeCodes().sort().join(',');
      if (codes !== this.codes) {
        this.codes = codes;
        client.publish(
          this.fleet.topics.topic('error', deviceSn, groupId),
          JSON.stringify({ Time: now, Codes: codes ? codes.split(',') : [] }),
          { qos: 1 },
        );
      }
    }
  }

  private onCommand(payload: Buffer): void {
    let command: Partial<CommandMessage>;
    try {
      command = JSON.parse(payload.toString()) as Partial<CommandMessage>;
    } catch {
      return;
    }
    if (typeof command.Id !== 'string' || typeof command.Key !== 'string' || command.Value === undefined) return;
    this.fleet.stats.commands += 1;
    if (this.fleet.ignoring.has(this.device.deviceSn)) return;
    const key = this.device.keyMap?.[command.Key] ?? command.Key;
    const result = this.obey(key, command.Value);
    const ack: AckMessage = {
      Id: command.Id,
      Success: result.ok,
      Value: this.model.v[key] ?? (typeof command.Value === 'object' ? true : command.Value),
      Time: Date.now(),
      ...(result.message ? { Message: result.message } : {}),
    };
    this.client?.publish(this.fleet.topics.topic('ack', this.device.deviceSn, this.device.groupId), JSON.stringify(ack), {
      qos: 1,
    });
    // Show the change at once rather than at the next interval.
    if (result.ok) this.publish();
  }

  /** A command: a data point's value, the run model, or a rotation of one of its systems. */
  private obey(key: string, value: CommandMessage['Value']): CommandResult {
    if (key === RUN_MODEL_KEYS.config) {
      if (typeof value !== 'object') return { ok: false, message: 'a run model is an object' };
      const map = (k: string) => this.device.keyMap?.[k] ?? k;
      return this.model.configure({
        Systems: (Array.isArray(value.Systems) ? value.Systems : []).map((s) => ({
          ...s,
          Steps: s.Steps.map((step) => ({
            ...step,
            Key: map(step.Key),
            ...(step.ElapsedKey ? { ElapsedKey: map(step.ElapsedKey) } : {}),
          })),
        })),
      });
    }
    if (typeof value === 'object') return { ok: false, message: `${key} takes a value, not an object` };
    if (key === RUN_MODEL_KEYS.rotate) return this.model.rotate(Number(value));
    return this.model.command(key, value);
  }
}

export class Fleet {
  readonly options: FleetOptions;
  readonly topics: TopicCodec;
  readonly stats: FleetStats = {
    connected: 0,
    published: 0,
    acknowledged: 0,
    failed: 0,
    commands: 0,
    points: 0,
    disconnects: 0,
  };
  readonly stations = new Map<string, StationModel>();
  /** Devices that leave commands unanswered now (add or remove while running). */
  readonly ignoring: Set<string>;
  private readonly started = Date.now();
  private readonly agents = new Map<string, DeviceAgent>();

  private constructor(options: FleetOptions) {
    this.options = options;
    this.topics = new TopicCodec(options.topics ?? DEFAULT_TOPICS);
    this.ignoring = new Set(options.ignoreCommands);
  }

  /** A fleet whose devices connect and run once `connectAll` is called (its `stats` count meanwhile). */
  static create(options: FleetOptions): Fleet {
    const fleet = new Fleet(options);
    for (const device of options.devices) {
      let model = fleet.stations.get(device.station);
      if (!model) {
        model = new StationModel({ seed: seedOf(device.station), ...options.station });
        fleet.stations.set(device.station, model);
      }
      fleet.agents.set(device.deviceSn, new DeviceAgent(device, model, fleet));
    }
    return fleet;
  }

  static async start(options: FleetOptions): Promise<Fleet> {
    const fleet = Fleet.create(options);
    await fleet.connectAll();
    return fleet;
  }

  /** Connects the devices, `connectBatch` at a time; resolves when each has connected or failed once. */
  async connectAll(): Promise<void> {
    const agents = [...this.agents.values()];
    const batch = this.options.connectBatch ?? 100;
    for (let i = 0; i < agents.length; i += batch) await Promise.all(agents.slice(i, i + batch).map((a) => a.start()));
  }

  /** A device's MQTT client, leaving from `localAddress` when one is set. */
  connect(options: IClientOptions): MqttClient {
    const { url, localAddress } = this.options;
    if (!localAddress) return mqtt.connect(url, options);
    const { hostname, port } = new URL(url);
    if (!url.startsWith('mqtt:')) throw new Error('a local address needs an mqtt:// URL');
    return new mqtt.MqttClient(() => net.createConnection({ host: hostname, port: Number(port || 1883), localAddress }), {
      ...options,
      protocol: 'mqtt',
    });
  }

  /** The stations' clock at real time `now`: real time while speed is 1, faster from the start otherwise. */
  simulatedTime(now: number): number {
    const speed = this.options.speed ?? 1;
    return speed === 1 ? now : this.started + (now - this.started) * speed;
  }

  log(message: string): void {
    this.options.log?.(message);
  }

  /** Drops one device's connection as a power cut would (its last will says offline). */
  drop(deviceSn: string): void {
    this.agents.get(deviceSn)?.drop();
    this.agents.delete(deviceSn);
  }

  async stop(): Promise<void> {
    await Promise.all([...this.agents.values()].map((a) => a.stop()));
    this.agents.clear();
  }
}
