/**
 * Alarm notifications. When alarms open (after their commit, never awaited by ingestion),
 * `alarmOpened` queues one delivery per rule they meet and per recipient: due at once for a
 * level without delay, after the rule's minutes for an escalation. The job (`start`, every
 * NOTIFY_INTERVAL; `tick(now)` in tests) sends what is due: a delivery whose alarm has been
 * handled or deleted, or whose rule or channel is gone or off, is cancelled; one that falls in
 * the group's quiet hours waits for their end unless its rule is urgent; the rest go through
 * their channel's adapter. A failed attempt is recorded with its reason, and a new attempt is
 * queued after an exponential back-off until NOTIFY_MAX_ATTEMPTS.
 */
import { DEFAULT_LANGUAGE, pickLanguage, type Language } from '@sluice/shared/i18n';
import type { ChannelKind } from '@sluice/shared/notify.schema';
import type { SecretBox } from '../../security/secret-box.ts';
import { AppError } from '../../http/errors.ts';
import { reasonOf, type AlarmNotice, type ChannelAdapter, type ChannelSettings } from './channels/channel.ts';
import { noticeText } from './notify-message.ts';
import {
  splitIds,
  type AlarmFacts,
  type ChannelRow,
  type DeliveryRow,
  type NewDelivery,
  type NotificationsRepository,
  type QuietHours,
  type RuleRow,
} from './notifications.repository.ts';
import { afterCommit } from '../../db/request-transaction.ts';

export interface NotificationSettings {
  /** How often the job looks for due deliveries. */
  intervalMs: number;
  maxAttempts: number;
  /** The first retry's wait; each further one doubles it. */
  retryBaseMs: number;
  offsetMinutes: number;
}

/** The alarm fields alarmOpened needs (a WarnRow). */
export interface OpenedAlarm {
  id: number;
  group_id: number;
  device_sn: string;
  code: string;
  description: string;
  warn_type_id: number | null;
  /** When it opened: levels are due this many minutes after. */
  dt: number;
}

const MINUTE = 60_000;
/** Sends at most this many deliveries at once. */
const PARALLEL = 4;
/** A row 'sending' for longer was left by a stopped instance. */
const STALE_MS = 10 * MINUTE;

/** Minutes of the day of 'HH:mm'. */
const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * When the quiet hours holding `now` end (ms), or undefined when `now` is outside them. Hours
 * may wrap midnight (22:00–07:00). Local time is the configured UTC offset.
 */
export function quietUntil(quiet: QuietHours, now: number, offsetMinutes: number): number | undefined {
  if (!quiet.enabled) return undefined;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === end) return undefined;
  const local = now + offsetMinutes * MINUTE;
  const dayStart = local - (local % (1440 * MINUTE));
  const minute = Math.floor((local - dayStart) / MINUTE);
  const inside = start < end ? minute >= start && minute < end : minute >= start || minute < end;
  if (!inside) return undefined;
  const endDay = start < end || minute < end ? dayStart : dayStart + 1440 * MINUTE;
  return endDay + end * MINUTE - offsetMinutes * MINUTE;
}

export class NotificationsService {
  private readonly repository: NotificationsRepository;
  private readonly secrets: SecretBox;
  private readonly adapters: Record<ChannelKind, ChannelAdapter>;
  private readonly settings: NotificationSettings;
  /** Deliveries finished by this instance since start, by channel kind and outcome (metrics). */
  readonly outcomes = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private soon: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private readonly queueing = new Set<Promise<void>>();
  private onError: (error: unknown) => void = () => undefined;

  constructor(deps: {
    repository: NotificationsRepository;
    secrets: SecretBox;
    adapters: Record<ChannelKind, ChannelAdapter>;
    settings: NotificationSettings;
  }) {
    this.repository = deps.repository;
    this.secrets = deps.secrets;
    this.adapters = deps.adapters;
    this.settings = deps.settings;
  }

  get records(): NotificationsRepository {
    return this.repository;
  }

  /**
   * Alarms just opened (committed): queues their deliveries and wakes the job. Never throws and
   * never makes its caller wait: ingestion calls it and goes on.
   */
  alarmOpened(alarms: OpenedAlarm[], now = Date.now()): void {
    if (alarms.length === 0) return;
    // Raised by a request (an alarm by hand): once it has committed, outside it.
    afterCommit(() => {
      this.queueOpened(alarms, now);
    });
  }

  private queueOpened(alarms: OpenedAlarm[], now: number): void {
    const queued = this.queue(alarms, now).then(
      (count) => {
        if (count > 0) this.kick();
      },
      (error: unknown) => {
        this.onError(error);
      },
    );
    this.queueing.add(queued);
    void queued.finally(() => this.queueing.delete(queued));
  }

  /** Resolves once the alarms already reported are queued (tests, and stopping). */
  async queued(): Promise<void> {
    while (this.queueing.size > 0) await Promise.all(this.queueing);
  }

  /** Queues the deliveries of the alarms (what alarmOpened runs); the number queued. */
  async queue(alarms: OpenedAlarm[], now = Date.now()): Promise<number> {
    const rows: NewDelivery[] = [];
    const byGroup = new Map<number, OpenedAlarm[]>();
    for (const alarm of alarms) byGroup.set(alarm.group_id, [...(byGroup.get(alarm.group_id) ?? []), alarm]);
    for (const [groupId, opened] of byGroup) {
      const rules = await this.repository.activeRules(groupId);
      if (rules.length === 0) continue;
      for (const alarm of opened) {
        const facts = await this.repository.alarm(alarm.id);
        const chain = await this.repository.projectChain(groupId, facts?.project_id ?? null);
        for (const { rule, channel } of rules) {
          if (!covers(rule, alarm.warn_type_id, chain)) continue;
          for (const recipient of await this.recipients(rule, channel)) {
            rows.push({
              group_id: groupId,
              warn_id: alarm.id,
              rule_id: rule.id,
              rule_name: rule.name,
              channel_id: channel.id,
              channel_name: channel.name,
              kind: channel.kind,
              level: rule.level,
              urgent: rule.urgent,
              recipient: recipient.address,
              recipient_name: recipient.name,
              user_id: recipient.userId,
              device_sn: alarm.device_sn,
              code: alarm.code,
              description: alarm.description,
              attempt: 1,
              status: recipient.problem ? 'failed' : 'pending',
              error: recipient.problem ?? '',
              done_at: recipient.problem ? now : null,
              due_at: alarm.dt + rule.delay_minutes * MINUTE,
              created_at: now,
              updated_at: now,
            });
          }
        }
      }
    }
    await this.repository.insertDeliveries(rows);
    return rows.filter((r) => r.status === 'pending').length;
  }

  /**
   * Whom a rule's delivery goes to: the webhook's host, or each of the rule's users by their
   * e-mail address or mobile number. A user without one (or disabled) gets a failed record
   * saying so, so that the history shows who was not reached.
   */
  private async recipients(
    rule: RuleRow,
    channel: ChannelRow,
  ): Promise<{ address: string; name: string; userId: number | null; problem?: string }[]> {
    if (channel.kind === 'webhook') {
      let host = channel.url;
      try {
        host = new URL(channel.url).host;
      } catch {
        // shown as stored
      }
      return [{ address: host, name: '', userId: null }];
    }
    const people = await this.repository.people(rule.group_id, splitIds(rule.user_ids));
    return people.map((p) => {
      const address = channel.kind === 'email' ? p.email.trim() : p.phone.trim();
      const who = { address, name: p.user_name, userId: p.id };
      if (p.status !== 1) return { ...who, problem: 'The user is not active' };
      if (!address)
        return {
          ...who,
          problem: channel.kind === 'email' ? 'The user has no e-mail address' : 'The user has no mobile number',
        };
      return who;
    });
  }

  /** Refuses a rule naming what its group does not have, or an e-mail or SMS rule without recipients. */
  async checkRule(
    groupId: number,
    rule: { channelId?: number | undefined; userIds: number[]; typeIds: number[]; projectIds: number[] },
  ): Promise<void> {
    if (rule.channelId !== undefined) {
      const channel = await this.repository.channel(groupId, rule.channelId);
      if (!channel) throw new AppError(400, 'notify.channelUnknown', {}, 'ChannelId');
      if (channel.kind !== 'webhook' && rule.userIds.length === 0)
        throw new AppError(400, 'notify.recipientsRequired', {}, 'UserIds');
    }
    const checks = [
      ['users', rule.userIds, 'notify.unknownUsers', 'UserIds'],
      ['warn_types', rule.typeIds, 'notify.unknownTypes', 'TypeIds'],
      ['projects', rule.projectIds, 'notify.unknownProjects', 'ProjectIds'],
    ] as const;
    for (const [table, ids, message, field] of checks) {
      const missing = await this.repository.missing(groupId, table, ids);
      if (missing.length > 0) throw new AppError(400, message, { ids: missing.join(', ') }, field);
    }
  }

  /** The group's channels among `ids`, by id. */
  channels(groupId: number, ids: number[]): Promise<Map<number, ChannelRow>> {
    return this.repository.channels(groupId, ids);
  }

  /** A channel stays while rules use it. */
  async checkChannelRemovable(groupId: number, channelId: number, name: string): Promise<void> {
    const count = await this.repository.rulesUsing(groupId, channelId);
    if (count > 0) throw new AppError(409, 'notify.channelInUse', { name, count });
  }

  quietHours(groupId: number): Promise<QuietHours> {
    return this.repository.quietHours(groupId);
  }

  setQuietHours(groupId: number, quiet: QuietHours): Promise<void> {
    return this.repository.setQuietHours(groupId, quiet);
  }

  /**
   * A failed delivery sent again: a new attempt due now (beyond NOTIFY_MAX_ATTEMPTS, as a person
   * asked for it), unless another attempt for the same alarm, rule and recipient is queued.
   */
  async retry(groupId: number, id: number, now = Date.now()): Promise<void> {
    const row = await this.repository.delivery(groupId, id);
    if (!row) throw new AppError(404, 'error.notFound');
    if (row.status !== 'failed' || (await this.repository.hasQueued(row))) throw new AppError(409, 'notify.notRetryable');
    const latest = await this.repository.lastAttempt(row);
    await this.queueAttempt(row, latest + 1, now, now);
    afterCommit(() => {
      this.kick();
    });
  }

  /** Runs the job every `intervalMs` until stop(); errors go to onError. Timers do not keep the process alive. */
  start(onError: (error: unknown) => void): void {
    this.onError = onError;
    this.timer ??= setInterval(() => {
      this.kick(0);
    }, this.settings.intervalMs);
    this.timer.unref();
    this.kick();
  }

  /** Stops the job and waits for the sending under way. */
  async stop(): Promise<void> {
    await this.queued();
    clearInterval(this.timer);
    clearTimeout(this.soon);
    this.timer = undefined;
    this.soon = undefined;
    await this.running;
  }

  /** Runs a tick soon (only while started): new alarms are sent without waiting for the interval. */
  private kick(delayMs = 0): void {
    if (!this.timer) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.soon);
    this.soon = setTimeout(() => {
      this.soon = undefined;
      this.running = this.tick()
        .then(() => undefined, this.onError)
        .finally(() => {
          this.running = undefined;
          if (this.again) {
            this.again = false;
            this.kick();
          }
        });
    }, delayMs);
    this.soon.unref();
  }

  /** Sends what is due at `now` (tests call it with the time they choose); the number of rows handled. */
  async tick(now = Date.now()): Promise<number> {
    await this.repository.releaseStale(now - STALE_MS, now);
    let handled = 0;
    for (;;) {
      const due = await this.repository.due(now, 100);
      const claimed: DeliveryRow[] = [];
      for (const row of due) if (await this.repository.claim(row, now)) claimed.push(row);
      for (let i = 0; i < claimed.length; i += PARALLEL) {
        await Promise.all(claimed.slice(i, i + PARALLEL).map((row) => this.deliver(row, now)));
      }
      handled += claimed.length;
      if (due.length < 100) return handled;
    }
  }

  private async deliver(row: DeliveryRow, now: number): Promise<void> {
    let kind = 'none';
    try {
      const alarm = await this.repository.alarm(row.warn_id);
      const rule = row.rule_id === null ? undefined : await this.repository.rule(row.group_id, row.rule_id);
      const channel = row.channel_id === null ? undefined : await this.repository.channel(row.group_id, row.channel_id);
      kind = channel?.kind ?? kind;
      const cancelled = !alarm
        ? 'The alarm was deleted'
        : alarm.state === 1
          ? 'The alarm was handled'
          : rule?.enabled !== 1
            ? 'The rule was deleted or turned off'
            : channel?.enabled !== 1
              ? 'The channel was deleted or turned off'
              : undefined;
      if (cancelled || !alarm || !channel) {
        await this.repository.finish(row.id, 'cancelled', now, cancelled);
        this.count(kind, 'cancelled');
        return;
      }
      if (row.urgent !== 1) {
        const until = quietUntil(await this.repository.quietHours(row.group_id), now, this.settings.offsetMinutes);
        if (until !== undefined) {
          await this.repository.hold(row.id, until, now);
          return;
        }
      }
      const notice = await this.notice(row, alarm);
      await this.adapters[channel.kind as ChannelKind].send(this.channelSettings(channel), row.recipient, notice);
      await this.repository.finish(row.id, 'sent', now);
      this.count(kind, 'sent');
    } catch (error) {
      this.count(kind, 'failed');
      await this.failed(row, now, reasonOf(error));
    }
  }

  private count(kind: string, outcome: 'sent' | 'failed' | 'cancelled'): void {
    const key = `${kind}\u0000${outcome}`;
    this.outcomes.set(key, (this.outcomes.get(key) ?? 0) + 1);
  }

  /** Records the failure and queues the next attempt after the back-off, while attempts remain. */
  private async failed(row: DeliveryRow, now: number, reason: string): Promise<void> {
    await this.repository.finish(row.id, 'failed', now, reason);
    if (row.attempt >= this.settings.maxAttempts) return;
    await this.queueAttempt(row, row.attempt + 1, now + this.settings.retryBaseMs * 2 ** (row.attempt - 1), now);
  }

  private async queueAttempt(row: DeliveryRow, attempt: number, dueAt: number, now: number): Promise<void> {
    await this.repository.insertDeliveries([
      {
        group_id: row.group_id,
        warn_id: row.warn_id,
        rule_id: row.rule_id,
        rule_name: row.rule_name,
        channel_id: row.channel_id,
        channel_name: row.channel_name,
        kind: row.kind,
        level: row.level,
        urgent: row.urgent,
        recipient: row.recipient,
        recipient_name: row.recipient_name,
        user_id: row.user_id,
        device_sn: row.device_sn,
        code: row.code,
        description: row.description,
        attempt,
        status: 'pending',
        error: '',
        done_at: null,
        due_at: dueAt,
        created_at: now,
        updated_at: now,
      },
    ]);
  }

  private async notice(row: DeliveryRow, alarm: AlarmFacts): Promise<AlarmNotice> {
    const facts: AlarmNotice['alarm'] = {
      id: alarm.id,
      code: alarm.code,
      description: alarm.description,
      typeName: alarm.type_name ?? '',
      deviceSn: alarm.device_sn,
      deviceName: alarm.device_name ?? '',
      projectName: alarm.project_name ?? '',
      openedAt: alarm.dt,
      active: alarm.active === 1,
      source: alarm.source,
    };
    const language = await this.languageOf(row);
    return {
      deliveryId: row.id,
      attempt: row.attempt,
      level: row.level,
      groupId: row.group_id,
      ruleId: row.rule_id,
      ruleName: row.rule_name,
      alarm: facts,
      ...noticeText(facts, row.level, language, this.settings.offsetMinutes),
    };
  }

  /** The recipient's language (their settings), else the default. */
  private async languageOf(row: DeliveryRow): Promise<Language> {
    if (row.user_id === null) return DEFAULT_LANGUAGE;
    const [person] = await this.repository.people(row.group_id, [row.user_id]);
    try {
      const config: unknown = JSON.parse(person?.config ?? '{}');
      const wanted = config && typeof config === 'object' ? (config as { Language?: unknown }).Language : undefined;
      return typeof wanted === 'string' ? pickLanguage(wanted) : DEFAULT_LANGUAGE;
    } catch {
      return DEFAULT_LANGUAGE;
    }
  }

  private channelSettings(channel: ChannelRow): ChannelSettings {
    return {
      kind: channel.kind as ChannelKind,
      url: channel.url,
      smtpHost: channel.smtp_host,
      smtpPort: channel.smtp_port,
      smtpSecure: channel.smtp_secure === 1,
      userName: channel.user_name,
      secret: channel.secret ? this.secrets.open(channel.secret) : '',
      sender: channel.sender,
      template: channel.template,
    };
  }
}

/** Whether a rule covers an alarm of the warn type, on a device in the project chain (its station and those above it). */
export function covers(rule: RuleRow, warnTypeId: number | null, projectChain: number[]): boolean {
  const types = splitIds(rule.type_ids);
  if (types.length > 0 && (warnTypeId === null || !types.includes(warnTypeId))) return false;
  const projects = splitIds(rule.project_ids);
  return projects.length === 0 || projects.some((p) => projectChain.includes(p));
}
