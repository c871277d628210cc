/**
 * HJ 212 loggers (a device's MN and password hash, and what the listeners of every instance
 * counted of it), a group's pollutant codes, and forwarding links (with their state as the job
 * leader last saw it).
 */
import { sql } from 'kysely';
import { HJ212_TOTALS, type Hj212Total } from '@sluice/shared/hj212.schema';
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
