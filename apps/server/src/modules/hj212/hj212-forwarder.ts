/**
 * Forwarding to supervising platforms (issue 21): for each enabled link, the stored values of
 * its device's mapped pollutant codes are sent period by period as HJ 212 minute (2051), hourly
 * (2061) and daily (2031) data — average, minimum and maximum of the valid readings, in the
 * standard's units (the code table's scale undone), DataTime the period's start in the stations'
 * zone — each packet asking for an answer (Flag=5). A period counts as sent only when the
 * platform answered it (9014, same QN); until then the link retries with back-off (5 s doubling
 * to 5 min), and after an outage it sends every period it missed, oldest first (back-fill). A
 * platform may ask for a range again (a 2051/2061/2031 request with BeginTime and EndTime): it
 * gets 9011 (QnRtn=1) and the link sends from BeginTime again. Periods without valid readings
 * are skipped. How far each kind was answered is kept in the database, so a restart resumes.
 * Only the instance that leads the periodic jobs (live.leader) forwards.
 */
import net, { type Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import {
  HJ212_CN,
  HJ212_FLAG_ANSWER,
  HJ212_FLAG_V2017,
  HJ212_ST_SYSTEM,
  HJ212_ST_WATER,
  Hj212Framer,
  buildHj212Packet,
  cpValue,
  formatHj212Time,
  parseHj212Packet,
  parseHj212Time,
  type Hj212Packet,
} from '@sluice/shared/hj212';
import type { Hj212ForwardKind } from '@sluice/shared/hj212.schema';
import type { SecretBox } from '../../security/secret-box.ts';
import type { HistoryRepository } from '../telemetry/history.repository.ts';
import type { ForwardRow, Hj212Repository } from './hj212.repository.ts';

export interface LinkState {
  connected: boolean;
  lastSent: number | null;
  backlog: number;
  lastError: string;
}

export interface Hj212ForwarderDeps {
  repository: Hj212Repository;
  history: Pick<HistoryRepository, 'series' | 'raw'>;
  secrets: SecretBox;
  offsetMinutes: number;
  log: FastifyBaseLogger;
  /** How often links are looked at. */
  tickMs?: number;
  /** How long the platform has to answer a packet. */
  answerMs?: number;
  /** How long after a period ends its data is taken as complete (loggers report late). */
  graceMs?: number;
  /** The first retry's delay; it doubles up to five minutes. */
  retryMs?: number;
  /** Whether this instance runs the once-across-instances jobs (live.leader); the others do not forward. */
  leads?: () => boolean;
  now?: () => number;
}

const CN_OF: Record<Hj212ForwardKind, string> = {
  minute: HJ212_CN.minute,
  hourly: HJ212_CN.hourly,
  daily: HJ212_CN.daily,
};
const KIND_OF_CN = new Map(Object.entries(CN_OF).map(([kind, cn]) => [cn, kind]));
const HOUR = 3_600_000;
/** Periods one link sends in one look before the next link gets its turn. */
const MAX_PER_TURN = 200;
/** Pollutants per packet: keeps a data segment well under the standard's 1024 bytes. */
const CODES_PER_PACKET = 10;
const MAX_RETRY_MS = 5 * 60_000;

class PlatformLink {
  readonly socket: Socket;
  private readonly framer = new Hj212Framer();
  private readonly waiting = new Map<string, () => void>();
  closed = false;

  constructor(socket: Socket, onRequest: (packet: Hj212Packet) => void) {
    this.socket = socket;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      for (const r of this.framer.push(chunk)) {
        if (!r.ok) continue;
        const parsed = parseHj212Packet(r.packet);
        if (!parsed.ok) continue;
        if (parsed.value.cn === HJ212_CN.dataAnswer && parsed.value.qn) {
          this.waiting.get(parsed.value.qn)?.();
        } else onRequest(parsed.value);
      }
    });
    const close = () => {
      this.closed = true;
    };
    socket.on('close', close);
    socket.on('error', close);
  }

  /** Sends a packet and resolves when the platform answers its QN; rejects on time-out or a closed link. */
  request(packet: string, qn: string, answerMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = (error?: Error) => {
        clearTimeout(timer);
        this.waiting.delete(qn);
        this.socket.off('close', onClose);
        if (error) reject(error);
        else resolve();
      };
      const onClose = () => {
        done(new Error('the platform closed the connection'));
      };
      const timer = setTimeout(() => {
        done(new Error(`no answer within ${String(answerMs / 1000)} s`));
      }, answerMs);
      this.waiting.set(qn, () => {
        done();
      });
      this.socket.once('close', onClose);
      this.socket.write(packet, 'latin1');
    });
  }

  close(): void {
    this.closed = true;
    this.socket.destroy();
  }
}

export class Hj212Forwarder {
  private readonly deps: Hj212ForwarderDeps;
  private readonly states = new Map<number, LinkState & { failures: number; retryAt: number }>();
  private readonly links = new Map<number, { key: string; link: PlatformLink }>();
  /** Kinds a platform asked to be sent again from a time, by link. */
  private readonly rewinds = new Map<number, Partial<Record<string, number>>>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private started = false;
  /** Set by stop(): the turn under way ends after its packet. */
  private stopped = false;
  private lastQn = 0;

  constructor(deps: Hj212ForwarderDeps) {
    this.deps = deps;
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    for (const { link } of this.links.values()) link.close();
    this.links.clear();
  }

  stateOf(id: number): LinkState {
    const s = this.states.get(id);
    const link = this.links.get(id);
    return {
      connected: link !== undefined && !link.link.closed,
      lastSent: s?.lastSent ?? null,
      backlog: s?.backlog ?? 0,
      lastError: s?.lastError ?? '',
    };
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = (this.deps.leads?.() === false ? Promise.resolve() : this.tick()).finally(() => {
        this.running = undefined;
        this.schedule(this.deps.tickMs ?? 5000);
      });
    }, ms);
  }

  /** One look at every enabled link (exported for tests that drive the job themselves). */
  async tick(): Promise<void> {
    let forwards: ForwardRow[];
    try {
      forwards = await this.deps.repository.enabledForwards();
    } catch (error) {
      this.deps.log.error({ err: error }, 'HJ 212 forwarding: reading the links failed');
      return;
    }
    const ids = new Set(forwards.map((f) => f.id));
    for (const [id, { link }] of this.links) {
      if (!ids.has(id)) {
        link.close();
        this.links.delete(id);
      }
    }
    for (const forward of forwards) {
      if (this.stopped) return;
      await this.turn(forward);
    }
  }

  private stateFor(id: number) {
    let s = this.states.get(id);
    if (!s) {
      s = { connected: false, lastSent: null, backlog: 0, lastError: '', failures: 0, retryAt: 0 };
      this.states.set(id, s);
    }
    return s;
  }

  private async turn(forward: ForwardRow): Promise<void> {
    const state = this.stateFor(forward.id);
    const now = this.now();
    const kinds = forward.kinds.filter((k): k is Hj212ForwardKind => k in CN_OF);
    const cursors = { ...forward.cursors };
    for (const [kind, from] of Object.entries(this.rewinds.get(forward.id) ?? {})) {
      if (from !== undefined)
        cursors[kind] = Math.min(cursors[kind] ?? Infinity, this.align(kind as Hj212ForwardKind, forward, from));
    }
    this.rewinds.delete(forward.id);
    state.backlog = kinds.reduce((n, kind) => n + this.waitingPeriods(kind, forward, cursors, now), 0);
    if (state.retryAt > now || state.backlog === 0) {
      if (JSON.stringify(cursors) !== JSON.stringify(forward.cursors))
        await this.deps.repository.saveCursors(forward.id, cursors);
      return;
    }
    try {
      const link = await this.linkFor(forward);
      let sent = 0;
      for (const kind of kinds) {
        while (sent < MAX_PER_TURN && !this.stopped) {
          const start = this.cursorOf(kind, forward, cursors);
          const end = this.periodEnd(kind, forward, start);
          if (end > this.now() - (this.deps.graceMs ?? 60_000)) break;
          await this.sendPeriod(link, forward, kind, start, end);
          cursors[kind] = end;
          await this.deps.repository.saveCursors(forward.id, cursors);
          sent += 1;
        }
      }
      state.failures = 0;
      state.lastError = '';
    } catch (error) {
      state.failures += 1;
      state.lastError = error instanceof Error ? error.message : String(error);
      state.retryAt = this.now() + Math.min(MAX_RETRY_MS, (this.deps.retryMs ?? 5000) * 2 ** (state.failures - 1));
      this.links.get(forward.id)?.link.close();
      this.links.delete(forward.id);
      this.deps.log.warn({ link: forward.id, err: error }, 'HJ 212 forwarding failed; retrying later');
    }
    state.backlog = kinds.reduce((n, kind) => n + this.waitingPeriods(kind, forward, cursors, this.now()), 0);
  }

  private async linkFor(forward: ForwardRow): Promise<PlatformLink> {
    const key = `${forward.host}:${String(forward.port)}`;
    const existing = this.links.get(forward.id);
    if (existing && existing.key === key && !existing.link.closed) return existing.link;
    existing?.link.close();
    const socket = await new Promise<Socket>((resolve, reject) => {
      const s = net.connect(forward.port, forward.host, () => {
        s.off('error', reject);
        resolve(s);
      });
      s.once('error', reject);
      s.setTimeout(this.deps.answerMs ?? 10_000, () => s.destroy(new Error('connecting timed out')));
    });
    socket.setTimeout(0);
    const link = new PlatformLink(socket, (packet) => {
      this.platformRequest(forward, link, packet);
    });
    this.links.set(forward.id, { key, link });
    return link;
  }

  /** A platform asking for a range again: answered 9011 and sent from BeginTime on the next turn. */
  private platformRequest(forward: ForwardRow, link: PlatformLink, packet: Hj212Packet): void {
    const kind = KIND_OF_CN.get(packet.cn);
    const begin = parseHj212Time(cpValue(packet, 'BeginTime') ?? '', this.deps.offsetMinutes);
    if (!kind || begin === undefined) return;
    const rewinds = this.rewinds.get(forward.id) ?? {};
    rewinds[kind] = Math.min(rewinds[kind] ?? Infinity, begin);
    this.rewinds.set(forward.id, rewinds);
    const password = this.deps.secrets.open(forward.password);
    link.socket.write(
      buildHj212Packet({
        qn: packet.qn,
        st: HJ212_ST_SYSTEM,
        cn: HJ212_CN.requestAnswer,
        pw: password,
        mn: forward.mn,
        flag: HJ212_FLAG_V2017,
        cp: [[['QnRtn', '1']]],
      }),
      'latin1',
    );
  }

  private async sendPeriod(
    link: PlatformLink,
    forward: ForwardRow,
    kind: Hj212ForwardKind,
    start: number,
    end: number,
  ): Promise<void> {
    const groups = await this.periodValues(forward, start, end);
    const password = this.deps.secrets.open(forward.password);
    for (let i = 0; i < groups.length; i += CODES_PER_PACKET) {
      const qn = this.nextQn();
      const packet = buildHj212Packet({
        qn,
        st: HJ212_ST_WATER,
        cn: CN_OF[kind],
        pw: password,
        mn: forward.mn,
        flag: HJ212_FLAG_V2017 | HJ212_FLAG_ANSWER,
        cp: [[['DataTime', formatHj212Time(start, this.deps.offsetMinutes)]], ...groups.slice(i, i + CODES_PER_PACKET)],
      });
      await link.request(packet, qn, this.deps.answerMs ?? 10_000);
      const state = this.stateFor(forward.id);
      state.lastSent = this.now();
    }
  }

  /** Each code's average, minimum and maximum of the period's valid readings, in the standard's unit. */
  private async periodValues(forward: ForwardRow, start: number, end: number): Promise<[string, string][][]> {
    const codes = (await this.deps.repository.codesOf(forward.groupId)).filter(
      (c) => forward.codes.length === 0 || forward.codes.some((w) => w.toLowerCase() === c.code.toLowerCase()),
    );
    const series = await this.deps.history.series(
      forward.groupId,
      forward.deviceSn,
      codes.map((c) => c.dataKey),
    );
    const idOf = new Map(series.map((s) => [s.key, s.id]));
    const groups: [string, string][][] = [];
    for (const code of codes) {
      const id = idOf.get(code.dataKey);
      if (id === undefined) continue;
      const values = Array.from((await this.deps.history.raw(id, start, end, 100_000)).num).filter(
        (v): v is number => v !== null,
      );
      if (values.length === 0) continue;
      const inUnit = values.map((v) => v / code.scale);
      const avg = inUnit.reduce((a, b) => a + b, 0) / inUnit.length;
      groups.push([
        [`${code.code}-Avg`, number(avg)],
        [`${code.code}-Min`, number(Math.min(...inUnit))],
        [`${code.code}-Max`, number(Math.max(...inUnit))],
        [`${code.code}-Flag`, 'N'],
      ]);
    }
    return groups;
  }

  private nextQn(): string {
    this.lastQn = Math.max(this.now(), this.lastQn + 1);
    return formatHj212Time(this.lastQn, this.deps.offsetMinutes, true);
  }

  private periodMs(kind: Hj212ForwardKind, forward: ForwardRow): number {
    if (kind === 'minute') return forward.minuteInterval * 60_000;
    return kind === 'hourly' ? HOUR : 24 * HOUR;
  }

  /** The start of the period holding `ms`, periods aligned in the stations' zone (days at local midnight). */
  private align(kind: Hj212ForwardKind, forward: ForwardRow, ms: number): number {
    const length = this.periodMs(kind, forward);
    const offset = this.deps.offsetMinutes * 60_000;
    return Math.floor((ms + offset) / length) * length - offset;
  }

  private cursorOf(kind: Hj212ForwardKind, forward: ForwardRow, cursors: Record<string, number>): number {
    return cursors[kind] ?? this.align(kind, forward, forward.startAt);
  }

  private periodEnd(kind: Hj212ForwardKind, forward: ForwardRow, start: number): number {
    return start + this.periodMs(kind, forward);
  }

  private waitingPeriods(kind: Hj212ForwardKind, forward: ForwardRow, cursors: Record<string, number>, now: number): number {
    const start = this.cursorOf(kind, forward, cursors);
    const ready = now - (this.deps.graceMs ?? 60_000) - start;
    return ready <= 0 ? 0 : Math.floor(ready / this.periodMs(kind, forward));
  }
}

/** A value as the standard writes it: plain decimals, at most 4 places. */
function number(value: number): string {
  return String(Number(value.toFixed(4)));
}
