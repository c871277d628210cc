/**
 * The HJ 212-2017 listener (HJ212_PORT): data loggers connect over TCP and send packets. A
 * logger is a device: the MN names it, the PW must be its password. Uploads — real-time (2011),
 * minute (2051), hourly (2061) and daily (2031) data — become data messages of the device
 * protocol (hj212-values.ts) and go through the same ingestion as MQTT (checks, storage,
 * durability, alarms, online state). An upload whose Flag asks for an answer is answered (9014,
 * same QN) only once it is stored, or once it is refused for good; a fault on the server's side
 * leaves it unanswered, so the logger sends it again. A split upload's parts (PNUM/PNO) are
 * each stored and answered, and joined into one upload when the last is in (hj212-parts.ts);
 * `sweep` joins those left open, on the job leader. Other packets (heartbeats, notifications)
 * keep the logger online and are answered 9013 when asked; a logger asking for its clock to be
 * set (1013) is sent the server's time (1012).
 *
 * Each connection handles its packets one after another; while several wait, or while the
 * ingestion writer is full, the connection is not read (TCP pushes back on the logger). A bad
 * packet is refused with its reason, counted for its logger (or, before the connection named
 * one, for the listener), and recorded in the device's log; it never closes the connection or
 * disturbs another.
 */
import net, { type Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import {
  HJ212_CN,
  HJ212_FLAG_ANSWER,
  HJ212_FLAG_V2017,
  HJ212_KIND_OF_CN,
  HJ212_ST_WATER,
  Hj212Framer,
  buildHj212Packet,
  cpValue,
  formatHj212Time,
  hj212AnswerCn,
  hj212Reply,
  parseHj212Packet,
  readHj212Upload,
  wantsAnswer,
  type Hj212Packet,
  type Hj212Upload,
} from '@sluice/shared/hj212';
import { secretMatches } from '../devices/device-credentials.ts';
import type { IngestionService } from '../telemetry/ingestion.service.ts';
import type { RefusalLog } from '../telemetry/refusal-log.ts';
import type { OnlineService } from '../online/online.service.ts';
import type { Hj212Repository, LoggerRow, LoggerStats, SplitKey } from './hj212.repository.ts';
import { uploadValues } from './hj212-values.ts';
import { SPLIT_OPEN_MS, cpPairs, joinParts, missingParts, partOf, splitComplete } from './hj212-parts.ts';

/** Why packets are refused: the codec's kinds, and the listener's own. */
export type RefusalKind = 'header' | 'length' | 'crc' | 'format' | 'field' | 'mn' | 'password' | 'data';

export interface Hj212ListenerDeps {
  repository: Hj212Repository;
  ingestion: IngestionService;
  refusals: RefusalLog;
  online: OnlineService;
  /** Whether ingestion is full (the writer holds its bound): connections are not read meanwhile. */
  busy: () => boolean;
  offsetMinutes: number;
  log: FastifyBaseLogger;
  /** A connection silent this long is closed (a logger reconnects). */
  idleMs?: number;
  /**
   * This instance's name (ops/instance.ts): a logger's row in the database says which instance
   * holds its connection, and what it counted is counted there, so that every instance answers.
   */
  instance: string;
}

/** Packets a connection may have waiting before it is no longer read. */
const MAX_WAITING = 8;

/** The device an upload is stored for. */
type Sender = Pick<LoggerRow, 'groupId' | 'deviceSn'>;

/** What became of an upload: stored, refused for good (and recorded), or to be sent again (a fault on the server's side). */
type Stored = 'stored' | 'refused' | 'retry';

interface Connection {
  socket: Socket;
  framer: Hj212Framer;
  /** The logger this connection authenticated as (its last good packet's). */
  logger: LoggerRow | undefined;
  chain: Promise<void>;
  waiting: number;
}

export class Hj212Listener {
  private readonly deps: Hj212ListenerDeps;
  private server: net.Server | undefined;
  private readonly connections = new Set<Connection>();
  /** Refusals before a connection named a logger (or naming none). */
  readonly unattributed: Partial<Record<RefusalKind, number>> = {};
  private resumeTimer: NodeJS.Timeout | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;

  constructor(deps: Hj212ListenerDeps) {
    this.deps = deps;
  }

  async listen(port: number, host?: string): Promise<number> {
    // What this instance noted before it stopped is over: no connection of it is open now.
    await this.deps.repository.releasedAll(this.deps.instance);
    const server = net.createServer((socket) => {
      this.accept(socket);
    });
    this.server = server;
    server.on('error', (error) => {
      this.deps.log.error({ err: error }, 'HJ 212 listener');
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address();
    return typeof address === 'object' && address ? address.port : port;
  }

  /** Joins the splits left open every minute while this instance `leads` (the job leader). */
  startSweeping(leads: () => boolean, intervalMs = 60_000): void {
    this.sweepTimer ??= setInterval(() => {
      if (!leads()) return;
      this.sweeping ??= this.sweep()
        .catch((error: unknown) => {
          this.deps.log.error({ err: error }, 'HJ 212: joining split uploads left open failed');
        })
        .finally(() => {
          this.sweeping = undefined;
        });
    }, intervalMs);
    this.sweepTimer.unref();
  }

  async close(): Promise<void> {
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
    await this.sweeping;
    const server = this.server;
    this.server = undefined;
    for (const c of this.connections) c.socket.destroy();
    await Promise.all([...this.connections].map((c) => c.chain));
    await this.deps.repository.releasedAll(this.deps.instance).catch(() => undefined);
    if (server)
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
  }

  /**
   * Whether a connection is authenticated as the logger now, on any instance: one noted in its
   * row, unless its last packet is older than the idle time-out (an instance that died without
   * closing it leaves the note; the connection would have been closed by now).
   */
  connected(stats: LoggerStats, now = Date.now()): boolean {
    return stats.connection !== '' && stats.lastPacket !== null && stats.lastPacket >= now - this.idleMs;
  }

  private get idleMs(): number {
    return this.deps.idleMs ?? 15 * 60_000;
  }

  private accept(socket: Socket): void {
    socket.setEncoding('latin1');
    socket.setNoDelay(true);
    socket.setTimeout(this.idleMs, () => socket.destroy());
    const connection: Connection = { socket, framer: new Hj212Framer(), logger: undefined, chain: Promise.resolve(), waiting: 0 };
    this.connections.add(connection);
    socket.on('data', (chunk: string) => {
      for (const result of connection.framer.push(chunk)) {
        connection.waiting += 1;
        connection.chain = connection.chain
          .then(() =>
            result.ok
              ? this.handle(connection, result.packet)
              : this.refuse(connection.logger, result.kind, result.reason, undefined, connection),
          )
          .catch((error: unknown) => {
            this.deps.log.error({ err: error }, 'HJ 212 packet handling failed');
          })
          .finally(() => {
            connection.waiting -= 1;
            this.resume(connection);
          });
      }
      if (connection.waiting >= MAX_WAITING || this.deps.busy()) socket.pause();
    });
    socket.on('error', () => {
      // A reset by the logger; 'close' follows.
    });
    socket.on('close', () => {
      this.connections.delete(connection);
      const sn = connection.logger?.deviceSn;
      // While closing, close() notes them all at once.
      if (sn === undefined || !this.server || [...this.connections].some((c) => c.logger?.deviceSn === sn)) return;
      this.deps.repository.released(sn, this.deps.instance).catch((error: unknown) => {
        this.deps.log.warn({ err: error }, 'HJ 212: noting a closed connection failed');
      });
    });
  }

  /** Reads a paused connection again once its queue is short and ingestion has room; else looks again shortly. */
  private resume(connection: Connection): void {
    if (!connection.socket.isPaused() || connection.socket.destroyed) return;
    if (connection.waiting >= MAX_WAITING / 2) return;
    if (!this.deps.busy()) {
      connection.socket.resume();
      return;
    }
    this.resumeTimer ??= setTimeout(() => {
      this.resumeTimer = undefined;
      for (const c of this.connections) this.resume(c);
    }, 50);
  }

  /** Counts a refusal for the logger (or the listener, naming none) and records it in the device's log. */
  private async refuse(
    logger: Sender | undefined,
    kind: RefusalKind,
    reason: string,
    packet: string | undefined,
    connection?: Connection,
  ): Promise<void> {
    if (!logger) {
      this.unattributed[kind] = (this.unattributed[kind] ?? 0) + 1;
      this.deps.log.warn({ kind, reason, peer: connection?.socket.remoteAddress }, 'HJ 212 packet refused');
      return;
    }
    await this.deps.repository.refused(logger.deviceSn, kind, reason);
    await this.deps.refusals.record(
      {
        deviceSn: logger.deviceSn,
        groupId: logger.groupId,
        kind: 'data',
        reason: `HJ 212: ${reason}`,
        payload: packet === undefined ? undefined : Buffer.from(packet, 'latin1'),
      },
      Date.now(),
    );
  }

  /** Records a problem that is no refused packet (a part that never came) in the device's log. */
  private async note(logger: Sender, reason: string): Promise<void> {
    await this.deps.repository.noted(logger.deviceSn, reason);
    await this.deps.refusals.record(
      { deviceSn: logger.deviceSn, groupId: logger.groupId, kind: 'data', reason: `HJ 212: ${reason}` },
      Date.now(),
    );
  }

  private async handle(connection: Connection, text: string): Promise<void> {
    const now = Date.now();
    const parsed = parseHj212Packet(text);
    if (!parsed.ok) return this.refuse(connection.logger, parsed.kind, parsed.reason, text, connection);
    const packet = parsed.value;
    // Looked up for every packet (a logger sends one a minute): a changed password or MN counts at once.
    const logger = await this.deps.repository.loggerByMn(packet.mn);
    if (!logger) return this.refuse(undefined, 'mn', `no logger has MN ${packet.mn}`, text, connection);
    if (!secretMatches(logger.passwordHash, packet.pw ?? '')) {
      return this.refuse(logger, 'password', `wrong password for MN ${packet.mn}`, text, connection);
    }
    connection.logger = logger;
    await this.deps.repository.heard(logger.deviceSn, now, this.deps.instance);
    if (HJ212_KIND_OF_CN[packet.cn]) return this.upload(connection, logger, packet, text, now);
    // Heartbeats, notifications, answers to what the server sent: the logger is alive.
    await this.deps.online.touch(logger.groupId, logger.deviceSn, now);
    this.answer(connection, packet);
    if (packet.cn === HJ212_CN.timeCalibration) this.setClock(connection, packet, now);
  }

  /** A logger asking for its clock to be set (1013) is sent the server's time (1012 SystemTime), its DataTimes being the stations' local time. */
  private setClock(connection: Connection, packet: Hj212Packet, now: number): void {
    if (connection.socket.destroyed) return;
    const systemTime = formatHj212Time(now, this.deps.offsetMinutes);
    const polId = cpValue(packet, 'PolId');
    connection.socket.write(
      buildHj212Packet({
        qn: formatHj212Time(now, this.deps.offsetMinutes, true),
        st: packet.st ?? HJ212_ST_WATER,
        cn: HJ212_CN.setTime,
        pw: packet.pw,
        mn: packet.mn,
        flag: HJ212_FLAG_V2017 | HJ212_FLAG_ANSWER,
        cp: [[...(polId === undefined ? [] : [['PolId', polId] as [string, string]]), ['SystemTime', systemTime]]],
      }),
      'latin1',
    );
  }

  private async upload(connection: Connection, logger: LoggerRow, packet: Hj212Packet, text: string, now: number): Promise<void> {
    const part = partOf(packet);
    if (!part.ok) return this.refuseAndAnswer(connection, logger, packet, part.kind, part.reason, text);
    if (part.value) return this.storePart(connection, logger, packet, part.value, now);
    const upload = readHj212Upload(packet);
    if (!upload.ok) return this.refuseAndAnswer(connection, logger, packet, upload.kind, upload.reason, text);
    const stored = await this.store(logger, upload.value, text, now, true);
    if (stored === 'retry') return; // not stored on our side: no answer, the logger sends it again
    this.answer(connection, packet);
  }

  /**
   * An upload into ingestion: stored (counted as a packet stored when `count`: a split's parts
   * were counted as they came), refused (counted, and recorded in the device's log: here when no
   * code is mapped, by ingestion when it refuses the values), or to be sent again.
   */
  private async store(
    logger: Sender,
    upload: Hj212Upload,
    text: string | undefined,
    now: number,
    count: boolean,
  ): Promise<Stored> {
    const values = uploadValues(upload, await this.deps.repository.codesOf(logger.groupId), this.deps.offsetMinutes);
    if (!values || Object.keys(values.values).length === 0) {
      const codes = values?.unmapped.join(', ') ?? '';
      const reason = codes ? `no data point is mapped to ${codes}` : 'the upload holds no values';
      await this.refuse(logger, 'data', reason, text);
      return 'refused';
    }
    const outcome = await this.deps.ingestion.handle(
      {
        address: { kind: 'data', deviceSn: logger.deviceSn, groupId: logger.groupId },
        payload: Buffer.from(JSON.stringify({ Time: values.time, ...values.values })),
        retained: false,
      },
      now,
    );
    if (!outcome.ok) {
      if ('retry' in outcome) return 'retry';
      // Refused by ingestion (recorded in the device's log there); answered so that it is not sent for ever.
      await this.deps.repository.refused(logger.deviceSn, 'data', outcome.reason);
      return 'refused';
    }
    const note = values.unmapped.length > 0 ? `not mapped: ${values.unmapped.join(', ')}` : undefined;
    if (count) await this.deps.repository.stored(logger.deviceSn, note);
    else if (note !== undefined) await this.deps.repository.noted(logger.deviceSn, note);
    return 'stored';
  }

  /**
   * A part of a split upload: stored, and answered once stored; the last one once its split was
   * joined and stored as one upload too, or left to the sweep when that failed.
   */
  private async storePart(
    connection: Connection,
    logger: LoggerRow,
    packet: Hj212Packet,
    part: { pnum: number; pno: number },
    now: number,
  ): Promise<void> {
    const key: SplitKey = { deviceSn: logger.deviceSn, cn: packet.cn, qn: packet.qn ?? '' };
    await this.deps.repository.addPart({ ...key, groupId: logger.groupId, ...part, cp: cpPairs(packet), receivedAt: now });
    await this.deps.repository.stored(logger.deviceSn);
    try {
      await this.joinSplit(key, false, now);
    } catch (error) {
      this.deps.log.error(
        { err: error, device: logger.deviceSn },
        'HJ 212: joining a split upload failed; the sweep tries again',
      );
    }
    this.answer(connection, packet);
  }

  /**
   * Joins a split's parts into one upload per DataTime and stores them; the parts are forgotten
   * once stored or refused for good. Unless `leftOpen`, only a split whose every part is in.
   */
  private async joinSplit(key: SplitKey, leftOpen: boolean, now: number): Promise<void> {
    const parts = await this.deps.repository.partsOf(key);
    const first = parts[0];
    if (!first || (!leftOpen && !splitComplete(parts))) return;
    const logger: Sender = { groupId: first.groupId, deviceSn: first.deviceSn };
    const qn = key.qn || '(none)';
    for (const joined of joinParts(parts)) {
      const numbers = joined.parts.join(', ');
      if (joined.dataTime === undefined) {
        await this.refuse(
          logger,
          'field',
          `part ${numbers} of QN ${qn} has no DataTime, and no earlier part gave one`,
          undefined,
        );
        continue;
      }
      const upload = readHj212Upload(joined.packet, joined.dataTime);
      if (!upload.ok) {
        await this.refuse(logger, upload.kind, `part ${numbers} of QN ${qn}: ${upload.reason}`, undefined);
        continue;
      }
      // Not stored on our side: the parts stay, and the sweep tries again.
      if ((await this.store(logger, upload.value, undefined, now, false)) === 'retry') return;
    }
    const missing = missingParts(parts);
    if (missing.length > 0) await this.note(logger, `part ${missing.join(', ')} of QN ${qn} never came`);
    await this.deps.repository.removeParts(parts.map((p) => p.id));
  }

  /** Joins the splits whose last part came SPLIT_OPEN_MS before `now` or earlier (a part never came, or storing them failed). */
  async sweep(now = Date.now()): Promise<void> {
    const keys = await this.deps.repository.splitsLeftBefore(now - SPLIT_OPEN_MS);
    for (const key of keys) await this.joinSplit(key, true, Date.now());
  }

  private async refuseAndAnswer(
    connection: Connection,
    logger: LoggerRow,
    packet: Hj212Packet,
    kind: RefusalKind,
    reason: string,
    text: string,
  ): Promise<void> {
    await this.refuse(logger, kind, reason, text, connection);
    this.answer(connection, packet);
  }

  /** Answers a packet whose Flag asks for it: 9014 for data, 9013 for notifications (hj212AnswerCn). */
  private answer(connection: Connection, packet: Hj212Packet): void {
    const cn = hj212AnswerCn(packet.cn);
    if (!wantsAnswer(packet) || cn === undefined || connection.socket.destroyed) return;
    connection.socket.write(hj212Reply(packet, cn), 'latin1');
  }
}
