/**
 * Forwarding to supervising platforms (issue 21): for each enabled link, the stored values of
 * its device's mapped pollutant codes are sent period by period as HJ 212 minute (2051), hourly
 * (2061) and daily (2031) data — average, minimum, maximum, total and flag of each code
 * (hj212-period.ts), in the standard's units, DataTime the period's start in the stations' zone —
 * each packet asking for an answer (Flag=5), split into parts (PNUM/PNO) when it would be longer
 * than the standard allows. A period counts as sent only when the platform answered every part
 * (9014, same QN); until then the link retries with back-off (5 s doubling to 5 min), and after
 * an outage it sends every period it missed, oldest first (back-fill). Periods without readings
 * are skipped. How far each kind was answered is kept in the database, so a restart resumes.
 * An hour or a day without readings of a code is sent from the logger's own hourly or daily
 * figures of it when they are stored (a logger that reports only 2061 or 2031 data).
 *
 * A platform may ask for a range again (2051/2061/2031 with BeginTime and EndTime): it gets 9011
 * (QnRtn=1 once the request is stored, or why not), the periods of that range, then 9012
 * (ExeRtn=1, or 100 when it held no data). Requests are kept in the database until their 9012 is
 * sent, so a restart or a new job leader carries them out. Other requests (setting the clock,
 * intervals, passwords) are for data loggers, not for a forwarder of stored data: they are
 * refused (QnRtn=2). Only the instance that leads the periodic jobs (live.leader) forwards.
 */
import net, { type Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import {
  HJ212_CN,
  HJ212_EXE_RTN,
  HJ212_FLAG_ANSWER,
  HJ212_FLAG_V2017,
  HJ212_QN_RTN,
  HJ212_ST_WATER,
  Hj212Framer,
  buildHj212Packets,
  cpValue,
  formatHj212Time,
  hj212Reply,
  parseHj212Packet,
  parseHj212Time,
  wantsAnswer,
  type Hj212Packet,
} from '@sluice/shared/hj212';
import type { Hj212ForwardKind } from '@sluice/shared/hj212.schema';
import type { SecretBox } from '../../security/secret-box.ts';
import type { HistoryRepository } from '../telemetry/history.repository.ts';
import type { CodeRow, ForwardRow, Hj212Repository, LinkState, ResendRequest } from './hj212.repository.ts';
import { periodFigures, periodGroup, totalOf, volumeOf, type PeriodFigures, type Reading } from './hj212-period.ts';

/** How often a link's unchanged state is written again: its age tells the others the leader is alive. */
export const LINK_STATE_REFRESH_MS = 30_000;

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
/** The logger's own figures of an hour or a day (hj212-values.ts): `<DataKey>_HourAvg`, `_DayAvg`… */
const LOGGER_FIGURES: Partial<Record<Hj212ForwardKind, string>> = { hourly: 'Hour', daily: 'Day' };
const FIGURE_SUFFIXES = ['Avg', 'Min', 'Max', 'Cou', 'Flag'] as const;
const HOUR = 3_600_000;
/** Periods one link sends in one look before the next link gets its turn. */
const MAX_PER_TURN = 200;
/** Re-send requests a link keeps waiting (a platform asking more drops the oldest). */
const MAX_REQUESTS = 16;
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
        const { cn, qn } = parsed.value;
        if (cn === HJ212_CN.dataAnswer && qn) this.waiting.get(qn)?.();
        else if (!/^901[1-4]$/.test(cn)) onRequest(parsed.value);
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

  send(packet: string): void {
    if (!this.closed) this.socket.write(packet, 'latin1');
  }

  close(): void {
    this.closed = true;
    this.socket.destroy();
  }
}

/** A code's period as sent: its figures, and the logger's own total when they are the logger's. */
interface CodePeriod {
  figures: PeriodFigures;
  loggerTotal: number | undefined;
}

const isKind = (kind: string): kind is Hj212ForwardKind => kind in CN_OF;

export class Hj212Forwarder {
  private readonly deps: Hj212ForwarderDeps;
  private readonly states = new Map<number, LinkState & { failures: number; retryAt: number }>();
  private readonly links = new Map<number, { key: string; link: PlatformLink }>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private started = false;
  /** Set by stop(): the turn under way ends after its packet. */
  private stopped = false;
  private lastQn = 0;
  /** Each link's state as last written for the other instances, and when. */
  private readonly published = new Map<number, { state: string; at: number }>();

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
    await this.closeLinks();
  }

  /** Closes every link (stopping, or no longer leading) and says so to the other instances. */
  private async closeLinks(): Promise<void> {
    const ids = [...this.links.keys()];
    for (const { link } of this.links.values()) link.close();
    this.links.clear();
    for (const id of ids) await this.publish(id).catch(() => undefined);
  }

  /**
   * Writes the link's state for every instance to answer (the console asks whichever it reaches):
   * when it changed, and every LINK_STATE_REFRESH_MS while this instance forwards.
   */
  private async publish(id: number): Promise<void> {
    const state = this.stateOf(id);
    const text = JSON.stringify(state);
    const at = Date.now();
    const last = this.published.get(id);
    if (last?.state === text && at - last.at < LINK_STATE_REFRESH_MS) return;
    await this.deps.repository.saveLinkState(id, state, at);
    this.published.set(id, { state: text, at });
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
      // An instance that stops leading lets its links go: the new leader opens its own.
      this.running = (this.deps.leads?.() === false ? this.closeLinks() : this.tick()).finally(() => {
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
      await this.publish(forward.id).catch((error: unknown) => {
        this.deps.log.warn({ link: forward.id, err: error }, 'HJ 212 forwarding: writing the link state failed');
      });
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

  /** Periods waiting: those of the link's kinds not yet answered, and those of ranges a platform asked for again. */
  private backlogOf(
    forward: ForwardRow,
    kinds: Hj212ForwardKind[],
    cursors: Record<string, number>,
    requests: ResendRequest[],
    now: number,
  ): number {
    const regular = kinds.reduce((n, kind) => n + this.waitingPeriods(kind, forward, cursors, now), 0);
    const asked = requests.reduce((n, r) => {
      const length = this.periodMs(r.kind, forward);
      const last = Math.min(r.end, now - (this.deps.graceMs ?? 60_000) - length);
      // A range with nothing left to send still waits for its 9012.
      return n + Math.max(1, Math.floor((last - r.next) / length) + 1);
    }, 0);
    return regular + asked;
  }

  private async turn(forward: ForwardRow): Promise<void> {
    const state = this.stateFor(forward.id);
    const kinds = forward.kinds.filter(isKind);
    const cursors = { ...forward.cursors };
    let requests: ResendRequest[] = [];
    try {
      requests = await this.deps.repository.requestsOf(forward.id);
      const now = this.now();
      state.backlog = this.backlogOf(forward, kinds, cursors, requests, now);
      if (state.retryAt > now || state.backlog === 0) return;
      const link = await this.linkFor(forward);
      let sent = 0;
      for (const request of [...requests]) {
        // Up to EndTime, but not a period still under way.
        const last = Math.min(request.end, this.readyBefore() - this.periodMs(request.kind, forward));
        while (request.next <= last && sent < MAX_PER_TURN && !this.stopped) {
          const end = this.periodEnd(request.kind, forward, request.next);
          if (await this.sendPeriod(link, forward, request.kind, request.next, end)) request.sentAny = true;
          request.next = end;
          await this.deps.repository.saveRequest(request);
          sent += 1;
        }
        if (request.next <= last) break;
        link.send(
          hj212Reply(
            { qn: request.qn || undefined, pw: this.deps.secrets.open(forward.password), mn: forward.mn },
            HJ212_CN.executeResult,
            [[['ExeRtn', request.sentAny ? HJ212_EXE_RTN.done : HJ212_EXE_RTN.noData]]],
          ),
        );
        await this.deps.repository.removeRequest(request.id);
        requests = requests.filter((r) => r !== request);
      }
      for (const kind of kinds) {
        while (sent < MAX_PER_TURN && !this.stopped) {
          const start = this.cursorOf(kind, forward, cursors);
          const end = this.periodEnd(kind, forward, start);
          if (end > this.readyBefore()) break;
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
    state.backlog = this.backlogOf(forward, kinds, cursors, requests, this.now());
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

  /**
   * A platform's request: a range of minute, hourly or daily data again is stored, answered 9011
   * QnRtn=1 (100 when it could not be stored) and sent on the link's next turn, then 9012; a
   * wrong PW or MN, or any other request, is answered with why it is not carried out.
   */
  private platformRequest(forward: ForwardRow, link: PlatformLink, packet: Hj212Packet): void {
    const password = this.deps.secrets.open(forward.password);
    const answer = (qnRtn: string) => {
      if (wantsAnswer(packet))
        link.send(hj212Reply({ qn: packet.qn, pw: password, mn: forward.mn }, HJ212_CN.requestAnswer, [[['QnRtn', qnRtn]]]));
    };
    const kind = KIND_OF_CN.get(packet.cn) as Hj212ForwardKind | undefined;
    const begin = parseHj212Time(cpValue(packet, 'BeginTime') ?? '', this.deps.offsetMinutes);
    const end = parseHj212Time(cpValue(packet, 'EndTime') ?? '', this.deps.offsetMinutes);
    if (packet.pw !== password) answer(HJ212_QN_RTN.password);
    else if (packet.mn !== forward.mn) answer(HJ212_QN_RTN.mn);
    else if (!kind || begin === undefined || end === undefined || end < begin) answer(HJ212_QN_RTN.refused);
    else {
      const request = { kind, next: this.align(kind, forward, begin), end, qn: packet.qn ?? '' };
      this.deps.repository.addRequest(forward, request, this.now(), MAX_REQUESTS).then(
        () => {
          answer(HJ212_QN_RTN.ready);
        },
        (error: unknown) => {
          this.deps.log.error({ link: forward.id, err: error }, 'HJ 212 forwarding: storing a platform request failed');
          answer(HJ212_QN_RTN.unknown);
        },
      );
    }
  }

  /** Sends one period (its parts when long) and waits for every answer; false when it held no data (nothing sent). */
  private async sendPeriod(
    link: PlatformLink,
    forward: ForwardRow,
    kind: Hj212ForwardKind,
    start: number,
    end: number,
  ): Promise<boolean> {
    const groups = await this.periodValues(forward, kind, start, end);
    if (groups.length === 0) return false;
    const qn = this.nextQn();
    const packets = buildHj212Packets({
      qn,
      st: HJ212_ST_WATER,
      cn: CN_OF[kind],
      pw: this.deps.secrets.open(forward.password),
      mn: forward.mn,
      flag: HJ212_FLAG_V2017 | HJ212_FLAG_ANSWER,
      cp: [[['DataTime', formatHj212Time(start, this.deps.offsetMinutes)]], ...groups],
    });
    // Parts share the QN: each is answered before the next goes.
    for (const packet of packets) {
      await link.request(packet, qn, this.deps.answerMs ?? 10_000);
      this.stateFor(forward.id).lastSent = this.now();
    }
    return true;
  }

  /**
   * Each code's group for the period (hj212-period.ts), in the table's order: from the period's
   * readings; for an hour or a day without readings, from the logger's own figures of it.
   */
  private async periodValues(
    forward: ForwardRow,
    kind: Hj212ForwardKind,
    start: number,
    end: number,
  ): Promise<[string, string][][]> {
    const table = await this.deps.repository.codesOf(forward.groupId);
    const codes = table.filter(
      (c) => forward.codes.length === 0 || forward.codes.some((w) => w.toLowerCase() === c.code.toLowerCase()),
    );
    // The flow's volume gives the pollutants' loads, whether or not the flow itself is forwarded.
    const flow = table.find((c) => c.total === 'volume');
    const prefix = LOGGER_FIGURES[kind];
    const wanted = [...new Set([...codes, ...(flow ? [flow] : [])].map((c) => c.dataKey))];
    const keys = wanted.flatMap((k) => [
      k,
      `${k}_Invalid`,
      `${k}_Flag`,
      ...(prefix ? FIGURE_SUFFIXES.map((s) => `${k}_${prefix}${s}`) : []),
    ]);
    const series = await this.deps.history.series(forward.groupId, forward.deviceSn, keys);
    const idOf = new Map(series.map((s) => [s.key, s.id]));
    const periodOf = async (code: CodeRow): Promise<CodePeriod | undefined> => {
      const figures = periodFigures(await this.readings(idOf, code.dataKey, start, end), code.scale);
      if (figures) return { figures, loggerTotal: undefined };
      return prefix === undefined ? undefined : this.loggerFigures(idOf, `${code.dataKey}_${prefix}`, code.scale, start, end);
    };
    const periodMs = end - start;
    const flowPeriod = flow && (await periodOf(flow));
    const volume = flowPeriod && (flowPeriod.loggerTotal ?? volumeOf(flowPeriod.figures.avg, periodMs));
    const groups: [string, string][][] = [];
    for (const code of codes) {
      const period = code === flow ? flowPeriod : await periodOf(code);
      if (!period) continue;
      // The logger's own total where it reported one; else computed as the code table says.
      const total = code.total === '' ? undefined : (period.loggerTotal ?? totalOf(code, period.figures, periodMs, volume));
      groups.push(periodGroup(code.code, period.figures, total));
    }
    return groups;
  }

  /**
   * The logger's own figures of an hour or a day (`<DataKey>_HourAvg`, `_HourMin`… at its
   * DataTime, the period's start), in the standard's unit; undefined without an average.
   */
  private async loggerFigures(
    idOf: Map<string, number>,
    base: string,
    scale: number,
    start: number,
    end: number,
  ): Promise<CodePeriod | undefined> {
    const latest = async (suffix: (typeof FIGURE_SUFFIXES)[number]) => {
      const id = idOf.get(`${base}${suffix}`);
      if (id === undefined) return undefined;
      const rows = await this.deps.history.raw(id, start, end, 1000);
      const i = rows.length - 1;
      return i < 0 ? undefined : { num: rows.num[i] ?? undefined, txt: rows.txt[i] ?? undefined };
    };
    const [avg, min, max, cou, flag] = await Promise.all(FIGURE_SUFFIXES.map(latest));
    if (avg?.num === undefined) return undefined;
    const unscaled = (v: number | undefined) => (v === undefined ? undefined : v / scale);
    return {
      figures: { avg: avg.num / scale, min: unscaled(min?.num), max: unscaled(max?.num), flag: flag?.txt ?? 'N' },
      loggerTotal: cou?.num,
    };
  }

  /** A data point's readings in [start, end): valid ones under its key, invalid ones under `_Invalid`, each with its flag from `_Flag`. */
  private async readings(idOf: Map<string, number>, key: string, start: number, end: number): Promise<Reading[]> {
    const load = async (k: string) => {
      const id = idOf.get(k);
      return id === undefined ? undefined : this.deps.history.raw(id, start, end, 100_000);
    };
    const [valid, invalid, flags] = await Promise.all([load(key), load(`${key}_Invalid`), load(`${key}_Flag`)]);
    const flagAt = new Map<number, string>();
    for (let i = 0; i < (flags?.length ?? 0); i++) {
      const text = flags?.txt[i];
      if (typeof text === 'string') flagAt.set(Number(flags?.ts[i]), text);
    }
    const out: Reading[] = [];
    const add = (rows: typeof valid, fallback: string) => {
      for (let i = 0; i < (rows?.length ?? 0); i++) {
        const value = rows?.num[i];
        const ts = Number(rows?.ts[i]);
        if (typeof value === 'number') out.push({ ts, value, flag: flagAt.get(ts) ?? fallback });
      }
    };
    add(valid, 'N');
    // An invalid reading always comes with its flag; D (fault) stands in should it be missing.
    add(invalid, 'D');
    return out;
  }

  /** Periods ending by then are complete (loggers report late). */
  private readyBefore(): number {
    return this.now() - (this.deps.graceMs ?? 60_000);
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
