/**
 * The embedded MQTT broker (Aedes): MQTT over TCP on MQTT_PORT and MQTT over WebSocket at /mqtt
 * on the HTTP server (wss when the server has TLS). Its hooks call MqttAuth for connections,
 * publishes and subscriptions, and the ingestion pipeline for what devices publish:
 * `authorizePublish` answers only after the message is committed, and Aedes sends the PUBACK
 * of a QoS 1 message after that answer — so an acknowledged message is durable. Consoles do not
 * wait for the disk: a data message is delivered to them once it is checked and handed to the
 * writer (`forwardNow`), and Aedes' own delivery after the commit then goes to no one. Should
 * the commit fail, the device, not acknowledged, sends the message again.
 *
 * A console in a browser authenticates with the session cookie its WebSocket upgrade carries
 * (scripts cannot read the token to send it as a password); other clients send the token as the
 * password. A console's connections close as soon as its session ends (closeSessions).
 */
import { createServer, type Server as NetServer } from 'node:net';
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { Aedes, type AuthenticateError, type Client, type PublishPacket } from 'aedes';
import { WebSocketServer, createWebSocketStream } from 'ws';
import type { FastifyBaseLogger } from 'fastify';
import type { TopicAddress } from '@sluice/shared/device-protocol';
import type { IngestionService } from '../modules/telemetry/ingestion.service.ts';
import type { OnlineService } from '../modules/online/online.service.ts';
import type { MessageBus, PublishOptions } from './message-bus.ts';
import { describe, type MqttAuth, type MqttIdentity } from './mqtt-auth.ts';
import { hashToken, type SessionEnd } from '../auth/sessions.repository.ts';
import { AdmissionGate } from './admission-gate.ts';
import { ConnectionHold, type HoldableClient } from './connection-hold.ts';
import { IngestBacklog } from './ingest-backlog.ts';
import { readInSips, type SippableClient } from './sip-reader.ts';

export const WS_PATH = '/mqtt';
const DISCONNECT_GRACE_MS = 500;
/** A device whose turn to connect would come later than this is refused (CONNACK 3) and comes back later. */
const ADMISSION_MAX_WAIT_MS = 20_000;

/** A Writable's hook for writing the pieces buffered while it was corked at once. */
type WritevHook = (chunks: { chunk: Buffer }[], callback: (error?: Error | null) => void) => void;

/** Aedes' clients stop reading their connection when paused (not in its type declarations). */
type Pausable = Client & HoldableClient;

/** A device's data message on its way to ingestion. */
interface BacklogMessage {
  client: Pausable;
  address: TopicAddress;
  payload: Buffer;
  topic: string;
  qos: PublishPacket['qos'];
  /** A retained message is delivered by Aedes alone (it keeps what it delivers for later subscribers). */
  retain: boolean;
  /** Whether it waited in the backlog, holding its connection. */
  held: boolean;
  callback: (error?: Error | null) => void;
}

/**
 * What a message in the backlog counts for: its payload, and the objects that hold it while it
 * waits (the parsed packet and its topic, Aedes' state for it, its callback) — about 1 KiB,
 * measured in a heap snapshot of a saturated fleet (docs/performance.md).
 */
export const backlogBytesOf = (message: { payload: Buffer }): number => message.payload.length + 1024;

/** A refusal with its CONNACK code: 3 server unavailable, 4 bad username or password, 5 not authorised. */
function authError(message: string, code: 3 | 4 | 5): AuthenticateError {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment -- aedes declares AuthErrorCode an ambient const enum, which isolated modules cannot read
  return Object.assign(new Error(message), { returnCode: code });
}

export class EmbeddedBroker implements MessageBus {
  readonly aedes: Aedes;
  private readonly identities = new WeakMap<Client, MqttIdentity>();
  /** Payloads refused, or delivered already (forwardNow): acknowledged, but not delivered (again). */
  private readonly dropped = new WeakSet<Buffer>();
  /** Open connections per device. */
  private readonly connections = new Map<string, Set<Client>>();
  /** Open connections of console users. */
  private readonly consoles = new Set<Client>();
  /** Device connections not read while their messages wait for ingestion. */
  private readonly held: ConnectionHold;
  /** Devices' messages waiting for ingestion to make room. */
  readonly backlog: IngestBacklog<BacklogMessage>;
  /** The session token of a WebSocket upgrade's cookie (when it came from the console's own origin). */
  private readonly upgradeTokens = new WeakMap<IncomingMessage, string>();
  private tcp: NetServer | undefined;
  private readonly ws: WebSocketServer;
  private readonly deps: {
    auth: MqttAuth;
    ingestion: IngestionService;
    online: OnlineService;
    log: FastifyBaseLogger;
    /** The session token of an upgrade request's cookie, if it may be used. */
    sessionCookie: (request: IncomingMessage) => string | undefined;
    /** Devices admitted a second at most (a connect storm after a restart); 0: no limit. */
    connectRate: number;
    /** Whether ingestion holds all it may (then devices' connections are not read meanwhile). */
    busy: () => boolean;
    /** The bound of the backlog (INGEST_BACKLOG_BYTES): payloads and what holds them (see `backlogBytesOf`). */
    backlogBytes: number;
  };
  private readonly gate: AdmissionGate | undefined;

  private constructor(aedes: Aedes, deps: EmbeddedBroker['deps']) {
    this.aedes = aedes;
    this.deps = deps;
    this.gate = deps.connectRate > 0 ? new AdmissionGate(deps.connectRate, ADMISSION_MAX_WAIT_MS) : undefined;
    this.backlog = new IngestBacklog<BacklogMessage>(
      deps.busy,
      (message) => {
        this.ingest(message);
      },
      { sizeOf: backlogBytesOf, maxBytes: deps.backlogBytes },
    );
    this.held = new ConnectionHold(() => !this.backlog.full);
    this.ws = new WebSocketServer({
      noServer: true,
      maxPayload: 1024 * 1024,
      handleProtocols: (protocols) => (protocols.has('mqtt') ? 'mqtt' : protocols.has('mqttv3.1') ? 'mqttv3.1' : false),
    });
  }

  /** Hands a device's message to ingestion; Aedes acknowledges it (PUBACK) when it is stored. */
  private ingest(message: BacklogMessage): void {
    const { client, address, payload, callback } = message;
    const accepted = message.retain
      ? undefined
      : () => {
          this.forwardNow(message);
        };
    this.deps.ingestion.handle({ address, payload, retained: false, accepted }).then(
      (outcome) => {
        // Answered first: releasing reads on, and what it reads may be held again, timed from this answer.
        if (!('retry' in outcome)) this.held.answered(client);
        if (message.held) this.held.release(client);
        if (outcome.ok) callback(null);
        else if ('retry' in outcome) callback(new Error(outcome.reason));
        else {
          // Refused: acknowledged so that the device does not send it again, delivered to no one.
          this.dropped.add(payload);
          callback(null);
        }
      },
      (error: unknown) => {
        if (message.held) this.held.release(client);
        callback(error instanceof Error ? error : new Error(String(error)));
      },
    );
  }

  /**
   * Delivers a checked data message to its subscribers now, before its commit; the delivery
   * Aedes makes once it is acknowledged is then dropped. Subscribers are checked as always
   * (authorizeForward): the copy is a new view of the same bytes, not dropped itself.
   */
  private forwardNow({ topic, qos, payload }: BacklogMessage): void {
    this.dropped.add(payload);
    this.aedes.publish({ cmd: 'publish', topic, payload: payload.subarray(), qos, retain: false, dup: false }, (error) => {
      if (error) this.deps.log.warn({ err: error, topic }, 'delivering live data failed');
    });
  }

  static async create(deps: EmbeddedBroker['deps']): Promise<EmbeddedBroker> {
    const aedes = await Aedes.createBroker({
      concurrency: 1000,
      connectTimeout: 10_000,
      drainTimeout: 30_000,
      queueLimit: 200,
      maxClientsIdLength: 64,
    });
    const broker = new EmbeddedBroker(aedes, deps);
    broker.install();
    return broker;
  }

  /** Serves MQTT over WebSocket at /mqtt on the HTTP server. */
  attach(server: HttpServer): void {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = (request.url ?? '').split('?')[0];
      if (path?.toLowerCase() !== WS_PATH) return;
      const token = this.deps.sessionCookie(request);
      if (token) this.upgradeTokens.set(request, token);
      this.ws.handleUpgrade(request, socket, head, (ws) => {
        const stream = createWebSocketStream(ws);
        // A packet in one WebSocket message. mqtt-packet writes a packet in three or four pieces
        // (header, topic, payload…) while the stream is corked; ws' stream has no _writev, so on
        // uncork each piece went as a WebSocket message of its own, one after the other's write
        // callback — for a console receiving a fleet's live data, three or four socket writes
        // and loop turns a message. Together: one message, one write.
        const writev: WritevHook = (chunks, callback) => {
          ws.send(Buffer.concat(chunks.map((c) => c.chunk)), callback);
        };
        Object.assign(stream, { _writev: writev });
        stream.on('error', () => {
          ws.terminate();
        });
        this.handle(stream, request);
      });
    });
  }

  /** A new connection, read in sips (sip-reader.ts). */
  private handle(stream: Duplex, request?: IncomingMessage): void {
    readInSips(this.aedes.handle(stream, request) as unknown as SippableClient);
  }

  /** Listens for MQTT over TCP; answers the port (useful with port 0). */
  listen(port: number, host: string): Promise<number> {
    const server = createServer((socket) => {
      this.handle(socket);
    });
    this.tcp = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  }

  publish(topic: string, payload: string, options: PublishOptions): Promise<void> {
    return new Promise((resolve, reject) => {
      this.aedes.publish(
        { cmd: 'publish', topic, payload: Buffer.from(payload), qos: options.qos, retain: options.retain ?? false, dup: false },
        (error) => {
          if (error) reject(error);
          else resolve();
        },
      );
    });
  }

  /**
   * Stops taking connections and closes the open ones. The TCP server's close waits for its
   * connections to end, so the broker closes them (Aedes closes every client) while it waits;
   * waiting for them first would wait until the devices leave of their own accord.
   */
  async close(): Promise<void> {
    for (const client of this.ws.clients) client.terminate();
    const tcp = this.tcp;
    const tcpClosed = new Promise<void>((resolve) => {
      if (tcp)
        tcp.close(() => {
          resolve();
        });
      else resolve();
    });
    await new Promise<void>((resolve) => {
      this.aedes.close(() => {
        resolve();
      });
    });
    await tcpClosed;
  }

  /** What waits for ingestion in the broker (metrics): messages and bytes now and at most, connections held. */
  backlogStats(): Record<string, number> {
    const { backlog, held } = this;
    return {
      waiting: backlog.size,
      bytes: backlog.bytes,
      peak: backlog.peak,
      peakBytes: backlog.peakBytes,
      waited: backlog.waited,
      held: held.size,
      readAgain: held.readAgain,
      deferredReads: held.deferred,
    };
  }

  /** Whether a device holds a connection now. */
  isConnected(deviceSn: string): boolean {
    return (this.connections.get(deviceSn)?.size ?? 0) > 0;
  }

  /** Devices holding at least one connection now. */
  get devicesConnected(): number {
    return this.connections.size;
  }

  get clients(): number {
    return this.aedes.connectedClients;
  }

  /** Closes the connections of devices that are gone (their group was removed). */
  closeDevices(deviceSns: Iterable<string>): void {
    for (const sn of deviceSns) for (const client of this.connections.get(sn) ?? []) client.close();
  }

  /** Closes the console connections of sessions that ended (a sign-out, a disabled user). */
  closeSessions(end: SessionEnd): void {
    for (const client of this.consoles) {
      const identity = this.identities.get(client);
      if (identity?.kind !== 'user') continue;
      const ended = 'userId' in end ? identity.user.id === end.userId : hashToken(identity.token) === end.tokenHash;
      if (!ended) continue;
      this.consoles.delete(client);
      this.deps.log.info({ who: describe(identity) }, 'MQTT session ended; disconnecting');
      client.close();
    }
  }

  private install(): void {
    const { auth, online, log } = this.deps;
    const aedes = this.aedes;

    aedes.authenticate = (client, username, password, done) => {
      // A password wins; a browser console sends none and has the cookie of its upgrade.
      const cookie = client.req && this.upgradeTokens.get(client.req);
      auth.authenticate(client.id, username, password?.toString('utf8') ?? cookie).then(
        (result) => {
          if ('refused' in result) {
            done(
              authError(
                result.refused,
                result.refused.includes('password') || result.refused.includes('secret') || result.refused.includes('session')
                  ? 4
                  : 5,
              ),
              false,
            );
            return;
          }
          this.identities.set(client, result);
          // Known from now (not from clientReady, which comes later): a session ending meanwhile closes it too.
          if (result.kind === 'user') {
            this.consoles.add(client);
            client.conn.once('close', () => this.consoles.delete(client));
          }
          // Devices come in at a steady rate; consoles and the server at once.
          if (result.kind !== 'device' || !this.gate) {
            done(null, true);
            return;
          }
          void this.gate.admit().then((admitted) => {
            if (admitted) done(null, true);
            else {
              log.info({ clientId: client.id }, 'MQTT connection deferred: too many devices connecting at once');
              done(authError('server busy: too many devices connecting', 3), false);
            }
          });
        },
        (error: unknown) => {
          log.error({ err: error }, 'MQTT authentication failed');
          done(authError('server unavailable', 3), false);
        },
      );
    };

    aedes.authorizePublish = (client, packet, callback) => {
      if (packet.topic.startsWith('$SYS')) {
        callback(new Error('$SYS is reserved'));
        return;
      }
      const identity = client ? this.identities.get(client) : undefined;
      // A client's last will published after it has gone: the will was checked when it connected.
      if (!client || !identity) {
        if (!client) {
          this.ingestWill(packet);
          callback(null);
        } else callback(new Error('not authenticated'));
        return;
      }
      const verdict = auth.mayPublish(identity, packet.topic);
      if (!verdict.ok) {
        callback(new Error(verdict.reason));
        return;
      }
      if (identity.kind !== 'device') {
        callback(null);
        return;
      }
      const address = auth.topics.parse(packet.topic);
      if (!address) {
        callback(new Error('not a protocol topic'));
        return;
      }
      // Back-pressure: while ingestion is full, the message waits in the backlog as it came, and
      // this device's connection is not read until the message is stored, or for half its
      // keep-alive (ingest-backlog.ts, connection-hold.ts).
      const message: BacklogMessage = {
        client: client as Pausable,
        address,
        payload: packet.payload as Buffer,
        topic: packet.topic,
        qos: packet.qos,
        retain: packet.retain,
        held: false,
        callback,
      };
      if (this.backlog.offer(message)) {
        message.held = true;
        this.held.hold(message.client);
      }
    };

    aedes.authorizeSubscribe = (client, subscription, callback) => {
      const identity = this.identities.get(client);
      if (!identity) {
        callback(new Error('not authenticated'));
        return;
      }
      auth.maySubscribe(identity, subscription.topic).then(
        (verdict) => {
          // A refused subscription is answered with failure (0x80); the connection stays.
          callback(null, verdict.ok ? subscription : null);
        },
        (error: unknown) => {
          log.error({ err: error }, 'MQTT subscription check failed');
          callback(null, null);
        },
      );
    };

    aedes.authorizeForward = (client, packet) => {
      if (this.dropped.has(packet.payload as Buffer)) return null;
      const identity = this.identities.get(client);
      if (!identity || !auth.mayReceive(identity, packet.topic)) return null;
      if (identity.kind === 'user') {
        auth.refresh(identity).then(
          (live) => {
            if (!live) {
              log.info({ who: describe(identity) }, 'MQTT session over; disconnecting');
              client.close();
            }
          },
          () => undefined,
        );
      }
      return packet;
    };

    aedes.on('clientReady', (client) => {
      const identity = this.identities.get(client);
      if (identity?.kind !== 'device') return;
      const { groupId, deviceSn } = identity.device;
      const open = this.connections.get(deviceSn) ?? new Set<Client>();
      open.add(client);
      this.connections.set(deviceSn, open);
      void online.touch(groupId, deviceSn);
      this.held.answered(client as Pausable);
      // A device may hold several connections (DeviceSn-…, or a new one taking over); it is
      // offline when the last one closes.
      client.conn.once('close', () => {
        open.delete(client);
        // A moment's grace: a client taking over the session closes the old one first.
        setTimeout(() => {
          if (open.size > 0 || this.connections.get(deviceSn) !== open) return;
          this.connections.delete(deviceSn);
          void online.offline(groupId, deviceSn, 'disconnect');
        }, DISCONNECT_GRACE_MS).unref();
      });
    });
    aedes.on('ping', (_packet, client) => {
      this.held.answered(client as Pausable);
      const identity = this.identities.get(client);
      if (identity?.kind === 'device') void online.touch(identity.device.groupId, identity.device.deviceSn);
    });
    aedes.on('clientError', (client, error) => {
      const identity = this.identities.get(client);
      log.info(
        { clientId: client.id, who: identity ? describe(identity) : 'unknown', reason: error.message },
        'MQTT client dropped',
      );
    });
    aedes.on('connectionError', (client, error) => {
      log.info({ clientId: client.id, reason: error.message }, 'MQTT connection failed');
    });
  }

  /** A will published with no client attached (an old session's): still a status for ingestion. */
  private ingestWill(packet: PublishPacket): void {
    const address = this.deps.auth.topics.parse(packet.topic);
    if (address?.kind !== 'status') return;
    void this.deps.ingestion.handle({ address, payload: packet.payload as Buffer, retained: false });
  }
}
