/**
 * With MQTT_URL set, the server uses an external broker (EMQX in production, Mosquitto in tests)
 * instead of the embedded one. It subscribes to every device's data, error, status and ack
 * topics through a shared subscription ($share/MQTT_SHARE_GROUP/…), so that N server instances
 * split the load, and publishes commands and console events there. Devices and consoles are
 * authenticated by that broker (EMQX can call POST /api/mqtt/auth and /api/mqtt/acl).
 *
 * Durability: the ingesting clients keep a persistent session (clean: false) and acknowledge a
 * QoS 1 message only after it is committed (mqtt.js sends the PUBACK when `handleMessage`
 * calls back), so the broker delivers again what a crashed instance had not stored. mqtt.js
 * handles one message at a time per connection, so ingestion uses several connections.
 */
import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import type { FastifyBaseLogger } from 'fastify';
import type { TopicCodec, TopicKind } from '@sluice/shared/device-protocol';
import type { IngestionService } from '../modules/telemetry/ingestion.service.ts';
import type { MessageBus, PublishOptions } from './message-bus.ts';

export interface ExternalOptions {
  url: string;
  username?: string | undefined;
  password?: string | undefined;
  shareGroup: string;
  /** Ingesting connections of this instance. */
  connections: number;
  /** A stable name of this instance, so that its persistent sessions resume after a restart. */
  instance: string;
}

const INGESTED: TopicKind[] = ['data', 'error', 'status', 'ack'];

export class ExternalBroker implements MessageBus {
  private readonly clients: MqttClient[] = [];
  private publisher: MqttClient | undefined;
  private readonly deps: { ingestion: IngestionService; topics: TopicCodec; log: FastifyBaseLogger };
  private readonly options: ExternalOptions;

  constructor(options: ExternalOptions, deps: ExternalBroker['deps']) {
    this.options = options;
    this.deps = deps;
  }

  /** The filters this server subscribes to: each ingested kind for every device (and group). */
  filters(): string[] {
    return INGESTED.map((kind) => `$share/${this.options.shareGroup}/${this.deps.topics.topic(kind, '+', '+')}`);
  }

  async start(): Promise<void> {
    const { url, username, password, connections, instance } = this.options;
    const base = {
      username,
      password,
      keepalive: 30,
      reconnectPeriod: 2000,
      connectTimeout: 10_000,
      protocolVersion: 4 as const,
    };
    this.publisher = await mqtt.connectAsync(url, {
      ...base,
      clientId: `sluice-pub-${randomBytes(6).toString('hex')}`,
      clean: true,
    });
    for (let i = 0; i < connections; i++) {
      const client = mqtt.connect(url, {
        ...base,
        clientId: `sluice-in-${instance}-${String(i)}`,
        clean: false,
        resubscribe: true,
      });
      client.handleMessage = (packet, callback) => {
        this.ingest(
          packet.topic,
          Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload),
          packet.retain,
        ).then(
          () => {
            callback();
          },
          (error: unknown) => {
            // Not stored: no PUBACK; the connection is dropped so that the broker delivers it again.
            this.deps.log.error({ err: error }, 'ingestion from the external broker failed; reconnecting');
            callback(error instanceof Error ? error : new Error(String(error)));
          },
        );
      };
      client.on('connect', (connack) => {
        if (connack.sessionPresent) return;
        client.subscribe(
          this.filters().map((f) => f),
          { qos: 1 },
          (error) => {
            if (error) this.deps.log.error({ err: error }, 'subscribing at the external broker failed');
          },
        );
      });
      client.on('error', (error) => {
        this.deps.log.warn({ err: error }, 'external broker connection error');
      });
      this.clients.push(client);
      await new Promise<void>((resolve, reject) => {
        client.once('connect', () => {
          resolve();
        });
        client.once('error', reject);
      });
    }
  }

  private async ingest(topic: string, payload: Buffer, retained: boolean): Promise<void> {
    const address = this.deps.topics.parse(topic);
    if (!address) return;
    const outcome = await this.deps.ingestion.handle({ address, payload, retained });
    if (!outcome.ok && 'retry' in outcome) throw new Error(outcome.reason);
  }

  publish(topic: string, payload: string, options: PublishOptions): Promise<void> {
    const publisher = this.publisher;
    if (!publisher) return Promise.reject(new Error('the external broker is not connected'));
    return publisher.publishAsync(topic, payload, { qos: options.qos, retain: options.retain ?? false }).then(() => undefined);
  }

  /** Undefined while every connection to the broker is open, else what is down (readiness). */
  problem(): string | undefined {
    const all = [...(this.publisher ? [this.publisher] : []), ...this.clients];
    const down = all.filter((c) => !c.connected).length;
    if (all.length === 0) return 'not connected';
    return down === 0 ? undefined : `${String(down)} of ${String(all.length)} connections to the external broker are down`;
  }

  async close(): Promise<void> {
    await Promise.all([...this.clients, ...(this.publisher ? [this.publisher] : [])].map((c) => c.endAsync()));
  }
}
