/**
 * Notifications' SQL: the rules and channels an alarm meets, the people they reach, quiet
 * hours, and the delivery rows — one per attempt, the pending and held ones being the queue the
 * job claims (a conditional update, so two server instances never send the same row).
 */
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { NotifyChannelTable, NotifyDeliveryTable, NotifyRuleTable } from '../../db/tables.ts';
import type { DeliveryStatus } from '@sluice/shared/notify.schema';

export type ChannelRow = Selectable<NotifyChannelTable>;
export type RuleRow = Selectable<NotifyRuleTable>;
export type DeliveryRow = Selectable<NotifyDeliveryTable>;
export type NewDelivery = Omit<Insertable<NotifyDeliveryTable>, 'id'>;

/** An alarm as a notice tells it. */
export interface AlarmFacts {
  id: number;
  group_id: number;
  code: string;
  description: string;
  device_sn: string;
  state: number;
  active: number;
  dt: number;
  source: string;
  warn_type_id: number | null;
  device_name: string | null;
  project_id: number | null;
  project_name: string | null;
  type_name: string | null;
}

export interface Person {
  id: number;
  user_name: string;
  email: string;
  phone: string;
  config: string;
}

export interface QuietHours {
  enabled: boolean;
  start: string;
  end: string;
}

export const DEFAULT_QUIET_HOURS: QuietHours = { enabled: false, start: '22:00', end: '07:00' };

export const splitIds = (csv: string): number[] =>
  csv
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);

export class NotificationsRepository {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  /** The alarm with its device's, station's and type's names (its device may be gone). */
  async alarm(id: number): Promise<AlarmFacts | undefined> {
    return this.db
      .selectFrom('warns as w')
      .leftJoin('devices as d', (j) => j.onRef('d.device_sn', '=', 'w.device_sn').onRef('d.group_id', '=', 'w.group_id'))
      .leftJoin('projects as p', 'p.id', 'd.project_id')
      .leftJoin('warn_types as t', 't.id', 'w.warn_type_id')
      .select([
        'w.id',
        'w.group_id',
        'w.code',
        'w.description',
        'w.device_sn',
        'w.state',
        'w.active',
        'w.dt',
        'w.source',
        'w.warn_type_id',
        'd.device_name',
        'd.project_id',
        'p.name as project_name',
        't.type_name',
      ])
      .where('w.id', '=', id)
      .executeTakeFirst();
  }

  /** The group's enabled rules whose channel is enabled, with the channel. */
  async activeRules(groupId: number): Promise<{ rule: RuleRow; channel: ChannelRow }[]> {
    const rules = await this.db
      .selectFrom('notify_rules')
      .selectAll()
      .where('group_id', '=', groupId)
      .where('enabled', '=', 1)
      .execute();
    if (rules.length === 0) return [];
    const channels = await this.channels(
      groupId,
      rules.map((r) => r.channel_id),
    );
    return rules.flatMap((rule) => {
      const channel = channels.get(rule.channel_id);
      return channel && channel.enabled === 1 ? [{ rule, channel }] : [];
    });
  }

  async rule(groupId: number, id: number): Promise<RuleRow | undefined> {
    return this.db.selectFrom('notify_rules').selectAll().where('group_id', '=', groupId).where('id', '=', id).executeTakeFirst();
  }

  async channel(groupId: number, id: number): Promise<ChannelRow | undefined> {
    return (await this.channels(groupId, [id])).get(id);
  }

  async channels(groupId: number, ids: number[]): Promise<Map<number, ChannelRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('notify_channels')
      .selectAll()
      .where('group_id', '=', groupId)
      .where('id', 'in', [...new Set(ids)])
      .execute();
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** How many rules use the channel. */
  async rulesUsing(groupId: number, channelId: number): Promise<number> {
    const { count } = await this.db
      .selectFrom('notify_rules')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('group_id', '=', groupId)
      .where('channel_id', '=', channelId)
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  /** The group's users among `ids` (active or not: a disabled user is skipped when sending). */
  async people(groupId: number, ids: number[]): Promise<(Person & { status: number })[]> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('users')
      .select(['id', 'user_name', 'email', 'phone', 'config', 'status'])
      .where('group_id', '=', groupId)
      .where('id', 'in', [...new Set(ids)])
      .execute();
  }

  /** The ids among `ids` that are not rows of the group in `table`. */
  async missing(groupId: number, table: 'users' | 'warn_types' | 'projects', ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const found = await this.db
      .selectFrom(table)
      .select('id')
      .where('group_id', '=', groupId)
      .where('id', 'in', [...new Set(ids)])
      .execute();
    const have = new Set(found.map((r) => r.id));
    return [...new Set(ids)].filter((id) => !have.has(id));
  }

  /** The project and the projects above it (station → project → client node). */
  async projectChain(groupId: number, projectId: number | null): Promise<number[]> {
    const chain: number[] = [];
    let id = projectId;
    while (id !== null && id > 0 && !chain.includes(id) && chain.length < 8) {
      chain.push(id);
      const row = await this.db
        .selectFrom('projects')
        .select('parent_id')
        .where('group_id', '=', groupId)
        .where('id', '=', id)
        .executeTakeFirst();
      id = row?.parent_id ?? null;
    }
    return chain;
  }

  async quietHours(groupId: number): Promise<QuietHours> {
    const row = await this.db.selectFrom('notify_settings').selectAll().where('group_id', '=', groupId).executeTakeFirst();
    return row ? { enabled: row.quiet_enabled === 1, start: row.quiet_start, end: row.quiet_end } : DEFAULT_QUIET_HOURS;
  }

  async setQuietHours(groupId: number, quiet: QuietHours): Promise<void> {
    const values = { quiet_enabled: quiet.enabled ? 1 : 0, quiet_start: quiet.start, quiet_end: quiet.end };
    await this.db
      .insertInto('notify_settings')
      .values({ group_id: groupId, ...values })
      .onConflict((oc) => oc.column('group_id').doUpdateSet(values))
      .execute();
  }

  async insertDeliveries(rows: NewDelivery[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.insertInto('notify_deliveries').values(rows).execute();
  }

  async delivery(groupId: number, id: number): Promise<DeliveryRow | undefined> {
    return this.db
      .selectFrom('notify_deliveries')
      .selectAll()
      .where('group_id', '=', groupId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The attempts of the same alarm, rule and recipient. */
  private sameMessage(row: DeliveryRow) {
    let q = this.db
      .selectFrom('notify_deliveries')
      .where('group_id', '=', row.group_id)
      .where('warn_id', '=', row.warn_id)
      .where('recipient', '=', row.recipient);
    q = row.rule_id === null ? q.where('rule_id', 'is', null) : q.where('rule_id', '=', row.rule_id);
    return q;
  }

  /** Whether another attempt of the same message waits to be sent. */
  async hasQueued(row: DeliveryRow): Promise<boolean> {
    const found = await this.sameMessage(row)
      .select('id')
      .where('status', 'in', ['pending', 'held', 'sending'])
      .executeTakeFirst();
    return found !== undefined;
  }

  async lastAttempt(row: DeliveryRow): Promise<number> {
    const { attempt } = await this.sameMessage(row)
      .select((eb) => eb.fn.max<number | string>('attempt').as('attempt'))
      .executeTakeFirstOrThrow();
    return Number(attempt);
  }

  /** Pending or held rows due by `now`, oldest first. */
  async due(now: number, limit: number): Promise<DeliveryRow[]> {
    return this.db
      .selectFrom('notify_deliveries')
      .selectAll()
      .where('status', 'in', ['pending', 'held'])
      .where('due_at', '<=', now)
      .orderBy('due_at')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** Takes the row for sending if it is still as it was read; false when another instance took it. */
  async claim(row: DeliveryRow, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('notify_deliveries')
      .set({ status: 'sending', updated_at: now })
      .where('id', '=', row.id)
      .where('status', '=', row.status)
      .where('updated_at', '=', row.updated_at)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async finish(
    id: number,
    status: Extract<DeliveryStatus, 'sent' | 'failed' | 'cancelled'>,
    now: number,
    error = '',
  ): Promise<void> {
    await this.db
      .updateTable('notify_deliveries')
      .set({ status, done_at: now, error, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /** Held by quiet hours until `until`. */
  async hold(id: number, until: number, now: number): Promise<void> {
    await this.db
      .updateTable('notify_deliveries')
      .set({ status: 'held', due_at: until, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /** Rows left 'sending' by an instance that stopped mid-send go back to the queue. */
  async releaseStale(before: number, now: number): Promise<void> {
    await this.db
      .updateTable('notify_deliveries')
      .set({ status: 'pending', updated_at: now })
      .where('status', '=', 'sending')
      .where('updated_at', '<', before)
      .execute();
  }
}
