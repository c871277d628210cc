/**
 * HJ 212 loggers (a device's MN and password hash, and what the listeners of every instance
 * counted of it), a group's pollutant codes, forwarding links (how far each was answered, and
 * its state as the job leader last saw it), platforms' requests for a range again, and the parts
 * of split uploads waiting for their split's last part.
 */
import { sql } from 'kysely';
import { HJ212_FORWARD_KINDS, HJ212_TOTALS, type Hj212ForwardKind, type Hj212Total } from '@sluice/shared/hj212.schema';
import type { Db } from '../../db/database.ts';

export interface LoggerRow {
  groupId: number;
  deviceSn: string;
  mn: string;
  passwordHash: string;
}

/** What the listeners counted of a logger, on every instance. */
export interface LoggerStats {
  received: number;
  stored: number;
  /** Refusals by kind (header, length, crc, format, field, password, data). */
  refused: Record<string, number>;
  lastPacket: number | null;
  lastRefusal: string;
  /** The instance holding a connection authenticated as it ('' none). */
  connection: string;
}

/** A forwarding link as the job leader last saw it. */
export interface LinkState {
  connected: boolean;
  lastSent: number | null;
  backlog: number;
  lastError: string;
}

export interface CodeRow {
  code: string;
  dataKey: string;
  scale: number;
  /** What the code's period total (-Cou) is: a flow's volume, a pollutant's load, or none (''). */
  total: Hj212Total;
}

export interface ForwardRow {
  id: number;
  groupId: number;
  deviceSn: string;
  host: string;
  port: number;
  mn: string;
  /** Sealed. */
  password: string;
  codes: string[];
  kinds: string[];
  minuteInterval: number;
  startAt: number;
  cursors: Record<string, number>;
}

export class Hj212Repository {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  /** The logger an MN names, when its device is live (not in the recycle bin). */
  async loggerByMn(mn: string): Promise<LoggerRow | undefined> {
    const row = await this.db
      .selectFrom('hj212_loggers as l')
      .innerJoin('devices as d', (j) => j.onRef('d.device_sn', '=', 'l.device_sn').onRef('d.group_id', '=', 'l.group_id'))
      .select(['l.group_id', 'l.device_sn', 'l.mn', 'l.password_hash'])
      .where('l.mn', '=', mn)
      .where('d.deleted_at', 'is', null)
      .executeTakeFirst();
    return row && { groupId: row.group_id, deviceSn: row.device_sn, mn: row.mn, passwordHash: row.password_hash };
  }

  async loggerOf(groupId: number, deviceSn: string): Promise<LoggerRow | undefined> {
    const row = await this.db
      .selectFrom('hj212_loggers')
      .select(['group_id', 'device_sn', 'mn', 'password_hash'])
      .where('group_id', '=', groupId)
      .where('device_sn', '=', deviceSn)
      .executeTakeFirst();
    return row && { groupId: row.group_id, deviceSn: row.device_sn, mn: row.mn, passwordHash: row.password_hash };
  }

  /** Whether another device (of any group: MNs are unique on the listener) uses the MN. */
  async mnTaken(mn: string, deviceSn: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('hj212_loggers')
      .select('id')
      .where('mn', '=', mn)
      .where('device_sn', '<>', deviceSn)
      .executeTakeFirst();
    return row !== undefined;
  }

  async setLogger(groupId: number, deviceSn: string, mn: string, passwordHash: string): Promise<void> {
    const updated = await this.db
      .updateTable('hj212_loggers')
      .set({ mn, password_hash: passwordHash })
      .where('group_id', '=', groupId)
      .where('device_sn', '=', deviceSn)
      .executeTakeFirst();
    if (updated.numUpdatedRows > 0n) return;
    await this.db
      .insertInto('hj212_loggers')
      .values({ group_id: groupId, device_sn: deviceSn, mn, password_hash: passwordHash })
      .execute();
  }

  async removeLogger(groupId: number, deviceSn: string): Promise<boolean> {
    const deleted = await this.db
      .deleteFrom('hj212_loggers')
      .where('group_id', '=', groupId)
      .where('device_sn', '=', deviceSn)
      .executeTakeFirst();
    return deleted.numDeletedRows > 0n;
  }

  async codesOf(groupId: number): Promise<CodeRow[]> {
    const rows = await this.db
      .selectFrom('hj212_codes')
      .select(['code', 'data_key', 'scale', 'total'])
      .where('group_id', '=', groupId)
      .orderBy('code')
      .execute();
    return rows.map((r) => ({
      code: r.code,
      dataKey: r.data_key,
      scale: r.scale,
      total: HJ212_TOTALS.find((t) => t === r.total) ?? '',
    }));
  }

  /** Every enabled forwarding link, of every group (the forwarder's job). */
  async enabledForwards(): Promise<ForwardRow[]> {
    const rows = await this.db.selectFrom('hj212_forwards').selectAll().where('enabled', '=', 1).orderBy('id').execute();
    return rows.map((r) => ({
      id: r.id,
      groupId: r.group_id,
      deviceSn: r.device_sn,
      host: r.host,
      port: r.port,
      mn: r.mn,
      password: r.password,
      codes: r.codes
        .split(',')
        .map((c) => c.trim())
        .filter((c) => c !== ''),
      kinds: r.kinds
        .split(',')
        .map((k) => k.trim())
        .filter((k) => k !== ''),
      minuteInterval: r.minute_interval,
      startAt: r.start_at,
      cursors: numbersOf(r.cursors),
    }));
  }

  async saveCursors(id: number, cursors: Record<string, number>): Promise<void> {
    await this.db
      .updateTable('hj212_forwards')
      .set({ cursors: JSON.stringify(cursors) })
      .where('id', '=', id)
      .execute();
  }

  /** What the listeners counted of the device's logger (all zero when it has none). */
  async statsOf(groupId: number, deviceSn: string): Promise<LoggerStats> {
    const row = await this.db
      .selectFrom('hj212_loggers')
      .select(['received', 'stored', 'refused', 'last_packet', 'last_refusal', 'connection'])
      .where('group_id', '=', groupId)
      .where('device_sn', '=', deviceSn)
      .executeTakeFirst();
    return {
      received: row?.received ?? 0,
      stored: row?.stored ?? 0,
      refused: numbersOf(row?.refused ?? '{}'),
      lastPacket: row?.last_packet ?? null,
      lastRefusal: row?.last_refusal ?? '',
      connection: row?.connection ?? '',
    };
  }

  /** A packet of the logger, authenticated, on a connection of `instance`. */
  async heard(deviceSn: string, at: number, instance: string): Promise<void> {
    await this.db
      .updateTable('hj212_loggers')
      .set({ received: sql`received + 1`, last_packet: at, connection: instance })
      .where('device_sn', '=', deviceSn)
      .execute();
  }

  /** One of its uploads stored; `note` (what was not mapped) becomes its last refusal when given. */
  async stored(deviceSn: string, note?: string): Promise<void> {
    await this.db
      .updateTable('hj212_loggers')
      .set({ stored: sql`stored + 1`, ...(note === undefined ? {} : { last_refusal: note }) })
      .where('device_sn', '=', deviceSn)
      .execute();
  }

  /** Its last refusal: a problem that is no refused packet (a part of a split that never came). */
  async noted(deviceSn: string, reason: string): Promise<void> {
    await this.db.updateTable('hj212_loggers').set({ last_refusal: reason }).where('device_sn', '=', deviceSn).execute();
  }

  /** One of its packets refused for `kind`. */
  async refused(deviceSn: string, kind: string, reason: string): Promise<void> {
    // A logger's packets are handled one after the other; the condition catches the rare other connection.
    for (let attempt = 0; attempt < 5; attempt++) {
      const row = await this.db
        .selectFrom('hj212_loggers')
        .select('refused')
        .where('device_sn', '=', deviceSn)
        .executeTakeFirst();
      if (!row) return;
      const counts = numbersOf(row.refused);
      counts[kind] = (counts[kind] ?? 0) + 1;
      const updated = await this.db
        .updateTable('hj212_loggers')
        .set({ refused: JSON.stringify(counts), last_refusal: reason })
        .where('device_sn', '=', deviceSn)
        .where('refused', '=', row.refused)
        .executeTakeFirst();
      if (updated.numUpdatedRows > 0n) return;
    }
  }

  /** A connection of `instance` authenticated as the logger closed (another may have taken over meanwhile). */
  async released(deviceSn: string, instance: string): Promise<void> {
    await this.db
      .updateTable('hj212_loggers')
      .set({ connection: '' })
      .where('device_sn', '=', deviceSn)
      .where('connection', '=', instance)
      .execute();
  }

  /** Every connection `instance` held (it starts again: none is open). */
  async releasedAll(instance: string): Promise<void> {
    await this.db.updateTable('hj212_loggers').set({ connection: '' }).where('connection', '=', instance).execute();
  }

  /** A link's state as the job leader sees it now, for every instance to show. */
  async saveLinkState(id: number, state: LinkState, at: number): Promise<void> {
    await this.db
      .updateTable('hj212_forwards')
      .set({
        link_connected: state.connected ? 1 : 0,
        last_sent: state.lastSent,
        link_backlog: state.backlog,
        last_error: state.lastError,
        state_at: at,
      })
      .where('id', '=', id)
      .execute();
  }

  /** A link's waiting requests, oldest first. */
  async requestsOf(forwardId: number): Promise<ResendRequest[]> {
    const rows = await this.db
      .selectFrom('hj212_forward_requests')
      .select(['id', 'kind', 'next_at', 'end_at', 'qn', 'sent_any'])
      .where('forward_id', '=', forwardId)
      .orderBy('id')
      .execute();
    return rows.flatMap((r) => {
      const kind = HJ212_FORWARD_KINDS.find((k) => k === r.kind);
      return kind ? [{ id: r.id, kind, next: r.next_at, end: r.end_at, qn: r.qn, sentAny: r.sent_any === 1 }] : [];
    });
  }

  /** Keeps a request; a link keeps at most `keep` (a platform asking more drops the oldest). */
  async addRequest(
    forward: Pick<ForwardRow, 'id' | 'groupId'>,
    request: Omit<ResendRequest, 'id' | 'sentAny'>,
    now: number,
    keep: number,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('hj212_forward_requests')
        .values({
          group_id: forward.groupId,
          forward_id: forward.id,
          kind: request.kind,
          next_at: request.next,
          end_at: request.end,
          qn: request.qn,
          created_at: now,
        })
        .execute();
      await trx
        .deleteFrom('hj212_forward_requests')
        .where('forward_id', '=', forward.id)
        .where('id', 'not in', (eb) =>
          eb
            .selectFrom('hj212_forward_requests')
            .select('id')
            .where('forward_id', '=', forward.id)
            .orderBy('id', 'desc')
            .limit(keep),
        )
        .execute();
    });
  }

  async saveRequest(request: Pick<ResendRequest, 'id' | 'next' | 'sentAny'>): Promise<void> {
    await this.db
      .updateTable('hj212_forward_requests')
      .set({ next_at: request.next, sent_any: request.sentAny ? 1 : 0 })
      .where('id', '=', request.id)
      .execute();
  }

  async removeRequest(id: number): Promise<void> {
    await this.db.deleteFrom('hj212_forward_requests').where('id', '=', id).execute();
  }

  /** Stores a part; a part sent again (same device, CN, QN and PNO) is the one already stored. */
  async addPart(part: Omit<SplitPart, 'id'>): Promise<void> {
    await this.db
      .insertInto('hj212_split_parts')
      .values({
        group_id: part.groupId,
        device_sn: part.deviceSn,
        cn: part.cn,
        qn: part.qn,
        pnum: part.pnum,
        pno: part.pno,
        cp: JSON.stringify(part.cp),
        received_at: part.receivedAt,
      })
      .onConflict((oc) => oc.columns(['device_sn', 'cn', 'qn', 'pno']).doNothing())
      .execute();
  }

  /** The stored parts of a split, by PNO. */
  async partsOf(key: SplitKey): Promise<SplitPart[]> {
    const rows = await this.db
      .selectFrom('hj212_split_parts')
      .selectAll()
      .where('device_sn', '=', key.deviceSn)
      .where('cn', '=', key.cn)
      .where('qn', '=', key.qn)
      .orderBy('pno')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      groupId: r.group_id,
      deviceSn: r.device_sn,
      cn: r.cn,
      qn: r.qn,
      pnum: r.pnum,
      pno: r.pno,
      cp: parsePairs(r.cp),
      receivedAt: r.received_at,
    }));
  }

  /** Splits whose last part came before `before` (left open: a part never came, or joining them failed). */
  async splitsLeftBefore(before: number, limit = 100): Promise<SplitKey[]> {
    const rows = await this.db
      .selectFrom('hj212_split_parts')
      .select(['device_sn', 'cn', 'qn'])
      .groupBy(['device_sn', 'cn', 'qn'])
      .having((eb) => eb.fn.max('received_at'), '<', before)
      .limit(limit)
      .execute();
    return rows.map((r) => ({ deviceSn: r.device_sn, cn: r.cn, qn: r.qn }));
  }

  async removeParts(ids: number[]): Promise<void> {
    if (ids.length > 0) await this.db.deleteFrom('hj212_split_parts').where('id', 'in', ids).execute();
  }
}

/** A platform's request for a range of one kind again, and how far it was sent. */
export interface ResendRequest {
  id: number;
  kind: Hj212ForwardKind;
  /** The start of the next period to send. */
  next: number;
  /** EndTime: periods starting after it are not sent. */
  end: number;
  qn: string;
  /** Whether a period of the range held data. */
  sentAny: boolean;
}

/** One part of a split upload, as it was stored. */
export interface SplitPart {
  id: number;
  groupId: number;
  deviceSn: string;
  cn: string;
  qn: string;
  pnum: number;
  pno: number;
  cp: [string, string][];
  receivedAt: number;
}

/** A split upload, named by its logger's device, CN and QN. */
export type SplitKey = Pick<SplitPart, 'deviceSn' | 'cn' | 'qn'>;

function parsePairs(text: string): [string, string][] {
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return [];
    return value.filter((p): p is [string, string] => Array.isArray(p) && typeof p[0] === 'string' && typeof p[1] === 'string');
  } catch {
    return [];
  }
}

/** The numbers of a JSON object (cursors, counts); {} for anything else. */
function numbersOf(text: string): Record<string, number> {
  try {
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== 'object') return {};
    return Object.fromEntries(Object.entries(value).filter((e): e is [string, number] => typeof e[1] === 'number'));
  } catch {
    return {};
  }
}
