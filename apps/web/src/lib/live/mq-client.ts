/**
 * The console's message-queue client (spec §7 Real time, §8, §9): MQTT over WebSocket with
 * mqtt.js, topics with persistent or once-only handlers, a connected flag, and every topic
 * subscribed again after each reconnect. Free of React and of the DOM, so that the live-latency
 * benchmark measures this very client in Node.
 */
import type { IClientOptions, MqttClient } from 'mqtt';

export type MessageHandler = (payload: unknown, topic: string, retained: boolean) => void;
export type ConnectFn = (url: string, options: IClientOptions) => MqttClient;

export interface MqOptions {
  url: string;
  username: string;
  /** None from a browser console: the broker reads the session cookie of the WebSocket upgrade. */
  password?: string;
  clientId?: string;
  connectTimeoutMs: number;
  keepaliveSeconds: number;
  clean: boolean;
  /** Wait between reconnect attempts. */
  reconnectPeriodMs?: number;
}

export interface MqLog {
  info(message: string): void;
  warn(message: string, detail?: unknown): void;
}

/** Spec §8: subscribing without a handler is refused with exactly this message. */
export const NO_HANDLER = 'onMessageArrived is not a function';

interface Handler {
  fn: MessageHandler;
  once: boolean;
}

/** Does a concrete topic match an MQTT filter (`+` one level, `#` the rest)? */
export function topicMatches(filter: string, topic: string): boolean {
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= t.length) return false;
    if (f[i] !== '+' && f[i] !== t[i]) return false;
  }
  return f.length === t.length;
}

function parse(payload: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(payload)) as unknown;
  } catch {
    return undefined;
  }
}

export class MqClient {
  private client: MqttClient | undefined;
  private readonly handlers = new Map<string, Handler[]>();
  private readonly stateListeners = new Set<(connected: boolean, reconnected: boolean) => void>();
  private connections = 0;
  connected = false;

  private readonly connectFn: ConnectFn;
  private readonly log: MqLog;

  constructor(connectFn: ConnectFn, log: MqLog = console) {
    this.connectFn = connectFn;
    this.log = log;
  }

  /** Resolves on the first successful connection; rejects with the error's message when the first attempt fails or times out. */
  connect(options: MqOptions): Promise<void> {
    this.end();
    const client = this.connectFn(options.url, {
      protocolVersion: 4,
      username: options.username,
      ...(options.password === undefined ? {} : { password: options.password }),
      clientId: options.clientId ?? `console-${Math.random().toString(16).slice(2, 14)}`,
      connectTimeout: options.connectTimeoutMs,
      keepalive: options.keepaliveSeconds,
      clean: options.clean,
      reconnectPeriod: options.reconnectPeriodMs ?? 2000,
      // We subscribe again ourselves on every connect, to every topic we hold handlers for.
      resubscribe: false,
    });
    this.client = client;
    client.on('message', (topic, payload, packet) => {
      this.dispatch(topic, payload, packet.retain);
    });
    client.on('connect', () => {
      this.connections += 1;
      this.setConnected(true, this.connections > 1);
      this.subscribeAll();
    });
    client.on('close', () => {
      if (this.connected) this.log.warn('Message queue: connection lost');
      this.setConnected(false, false);
    });
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (error?: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        client.off('connect', onConnect);
        client.off('error', onError);
        if (error) reject(error);
        else resolve();
      };
      const onConnect = () => {
        settle();
      };
      const onError = (error: Error) => {
        settle(new Error(error.message || String(error)));
      };
      const timer = setTimeout(() => {
        settle(new Error(`Message queue: no connection within ${String(options.connectTimeoutMs / 1000)} s`));
      }, options.connectTimeoutMs);
      client.on('connect', onConnect);
      client.on('error', onError);
      client.on('error', (error) => {
        this.log.warn('Message queue: error', error.message);
      });
    });
  }

  /**
   * Calls `handler` with each message's parsed JSON on topics matching `filter`, every time or
   * only once. Resolves when the broker has granted the subscription (or at once while
   * disconnected: it is made on connecting); a refused subscription is logged and rejects.
   */
  subscribe(filter: string, handler: MessageHandler, options: { once?: boolean } = {}): Promise<void> {
    if (typeof handler !== 'function') return Promise.reject(new Error(NO_HANDLER));
    const list = this.handlers.get(filter);
    const entry = { fn: handler, once: options.once ?? false };
    if (list) {
      list.push(entry);
      return Promise.resolve();
    }
    this.handlers.set(filter, [entry]);
    return this.connected ? this.brokerSubscribe([filter]) : Promise.resolve();
  }

  /** Removes one handler, or every handler of the filter; the broker subscription goes with the last. */
  unsubscribe(filter: string, handler?: MessageHandler): void {
    const list = this.handlers.get(filter);
    if (!list) return;
    const left = handler ? list.filter((h) => h.fn !== handler) : [];
    if (left.length > 0) {
      this.handlers.set(filter, left);
      return;
    }
    this.handlers.delete(filter);
    if (this.connected) this.client?.unsubscribe(filter);
  }

  publish(topic: string, message: unknown): Promise<void> {
    const client = this.client;
    if (!client) return Promise.reject(new Error('Message queue: not connected'));
    return client
      .publishAsync(topic, typeof message === 'string' ? message : JSON.stringify(message), { qos: 0 })
      .then(() => undefined);
  }

  /** Called with the connected flag on every change; `reconnected` is true on connections after the first. */
  onStateChange(listener: (connected: boolean, reconnected: boolean) => void): () => void {
    this.stateListeners.add(listener);
    return () => {
      this.stateListeners.delete(listener);
    };
  }

  /** Closes the connection and forgets the handlers' broker state (handlers stay for the next connect). */
  end(): void {
    const client = this.client;
    this.client = undefined;
    this.connections = 0;
    if (client) {
      client.removeAllListeners('close');
      client.end(true);
    }
    this.setConnected(false, false);
  }

  private setConnected(connected: boolean, reconnected: boolean): void {
    if (connected === this.connected) return;
    this.connected = connected;
    if (connected) this.log.info(reconnected ? 'Message queue: reconnected' : 'Message queue: connected');
    for (const listener of this.stateListeners) listener(connected, reconnected);
  }

  private subscribeAll(): void {
    const filters = [...this.handlers.keys()];
    if (filters.length > 0) void this.brokerSubscribe(filters).catch(() => undefined);
  }

  private async brokerSubscribe(filters: string[]): Promise<void> {
    const client = this.client;
    if (!client) return;
    try {
      const granted = await client.subscribeAsync(filters, { qos: 0 });
      const refused = granted.filter((g) => g.qos === 128).map((g) => g.topic);
      if (refused.length > 0) throw new Error(`refused: ${refused.join(', ')}`);
    } catch (error) {
      this.log.warn('Message queue: subscribe failed', error instanceof Error ? error.message : error);
      throw error;
    }
  }

  private dispatch(topic: string, payload: Uint8Array, retained: boolean): void {
    let parsed: unknown;
    let read = false;
    for (const [filter, list] of this.handlers) {
      if (!topicMatches(filter, topic)) continue;
      if (!read) {
        parsed = parse(payload);
        read = true;
        if (parsed === undefined) {
          this.log.warn(`Message queue: a message on ${topic} is not JSON`);
          return;
        }
      }
      for (const h of [...list]) {
        if (h.once) this.unsubscribe(filter, h.fn);
        try {
          h.fn(parsed, topic, retained);
        } catch (error) {
          this.log.warn(`Message queue: a handler of ${filter} failed`, error);
        }
      }
    }
  }
}
