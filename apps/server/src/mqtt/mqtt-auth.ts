/**
 * Who may connect to the broker and what they may do there (the embedded broker's hooks and the
 * HTTP hooks an external broker such as EMQX calls):
 * - a device: username its DeviceSn, password its secret; client id its DeviceSn (or
 *   DeviceSn-anything). It publishes data, error, status and ack on its own topics only, and
 *   subscribes to its own cmd topic only.
 * - a console user: any username (the account, say), password a live session token (a browser
 *   console sends none: the embedded broker takes the session cookie of its WebSocket upgrade). It may
 *   subscribe to the data, error, status and event topics of the devices its group and
 *   role-project grants let it see — one device, or `+` for the device, in which case only the
 *   messages of devices it may see are delivered — and may publish nothing.
 * - the server itself on an external broker (MQTT_USERNAME / MQTT_PASSWORD): everything.
 * Every refusal is logged with its reason and counted.
 */
import { timingSafeEqual } from 'node:crypto';
import { CONSOLE_SUBSCRIBES, DEVICE_PUBLISHES, DEVICE_SUBSCRIBES, type TopicCodec } from '@sluice/shared/device-protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.ts';
import type { SessionEnd, SessionsRepository } from '../auth/sessions.repository.ts';
import type { UsersRepository } from '../modules/account/users.repository.ts';
import type { CurrentUser } from '../auth/current-user.ts';
import { secretMatches } from '../modules/devices/device-credentials.ts';
import { projectReachable } from '../modules/sites/site-scope.ts';
import type { DeviceDirectory, KnownDevice } from '../modules/telemetry/device-directory.ts';

export interface Visible {
  sns: Set<string>;
  loadedAt: number;
}

export type MqttIdentity =
  | { kind: 'device'; device: KnownDevice }
  | { kind: 'user'; user: CurrentUser; token: string; visible: Visible }
  | { kind: 'server' };

export type Verdict = { ok: true } | { ok: false; reason: string };

export interface AuthCounters {
  refusedConnections: number;
  refusedSubscriptions: number;
  refusedPublishes: number;
}

const allow: Verdict = { ok: true };

/** How long a console user's visible devices (and session) are trusted before they are read again. */
export const VISIBLE_TTL_MS = 60_000;

export class MqttAuth {
  readonly counters: AuthCounters = { refusedConnections: 0, refusedSubscriptions: 0, refusedPublishes: 0 };
  private readonly aclCache = new Map<string, { identity: MqttIdentity | undefined; at: number }>();
  private readonly deps: {
    db: Db;
    directory: DeviceDirectory;
    sessions: SessionsRepository;
    users: UsersRepository;
    topics: TopicCodec;
    log: FastifyBaseLogger;
    server?: { username: string; password: string } | undefined;
  };

  constructor(deps: MqttAuth['deps']) {
    this.deps = deps;
  }

  get topics(): TopicCodec {
    return this.deps.topics;
  }

  async authenticate(
    clientId: string,
    username: string | undefined,
    password: string | undefined,
  ): Promise<MqttIdentity | { refused: string }> {
    const refuse = (reason: string) => {
      this.counters.refusedConnections += 1;
      this.deps.log.warn({ clientId, username, reason }, 'MQTT connection refused');
      return { refused: reason };
    };
    if (!username || !password) return refuse('no username or password');
    const server = this.deps.server;
    if (server && username === server.username) {
      return same(password, server.password) ? { kind: 'server' } : refuse('wrong server password');
    }
    // The device and its secret's hash come from the directory's cache (forgotten when the device changes).
    const credential = await this.deps.directory.credential(username);
    if (credential) {
      const { device } = credential;
      if (clientId !== device.deviceSn && !clientId.startsWith(`${device.deviceSn}-`))
        return refuse('a device connects with its DeviceSn as client id');
      if (!secretMatches(credential.secretHash, password)) return refuse('wrong device secret');
      return { kind: 'device', device };
    }
    const user = await this.sessionUser(password);
    if (!user) return refuse('no live session for the token');
    // A console may not take a device's client id (it would push the device off).
    const prefix = clientId.split('-')[0] ?? clientId;
    if (await this.deps.directory.device(prefix)) return refuse('a console may not use a device’s client id');
    return { kind: 'user', user, token: password, visible: await this.visibleOf(user) };
  }

  /**
   * Who a username is, for an external broker's ACL hook (which sends no password): the server,
   * a device by its serial number, or a user by account (its session was checked at connect).
   */
  async identityOf(username: string, now = Date.now()): Promise<MqttIdentity | undefined> {
    if (this.deps.server && username === this.deps.server.username) return { kind: 'server' };
    const cached = this.aclCache.get(username);
    if (cached && now - cached.at < VISIBLE_TTL_MS) return cached.identity;
    let identity: MqttIdentity | undefined;
    const device = await this.deps.directory.device(username);
    if (device) identity = { kind: 'device', device };
    else {
      const row = await this.deps.users.findByAccount(username);
      const user = row ? await this.deps.users.current(row.id) : undefined;
      if (user && user.status === 1) identity = { kind: 'user', user, token: '', visible: await this.visibleOf(user, now) };
    }
    this.aclCache.set(username, { identity, at: now });
    if (this.aclCache.size > 10_000) this.aclCache.clear();
    return identity;
  }

  /**
   * Sessions ended: the external broker's ACL hook reads the user afresh (an external broker's
   * open connections cannot be closed from here; its next check refuses a disabled user).
   */
  sessionEnded(end: SessionEnd): void {
    if (!('userId' in end)) return;
    for (const [username, cached] of this.aclCache) {
      if (cached.identity?.kind === 'user' && cached.identity.user.id === end.userId) this.aclCache.delete(username);
    }
  }

  /** Reloads a console user's visible devices when stale; false when the session is over. */
  async refresh(identity: MqttIdentity, now = Date.now()): Promise<boolean> {
    if (identity.kind !== 'user' || now - identity.visible.loadedAt < VISIBLE_TTL_MS) return true;
    const user = await this.sessionUser(identity.token);
    if (!user) return false;
    identity.user = user;
    identity.visible = await this.visibleOf(user, now);
    return true;
  }

  mayPublish(identity: MqttIdentity, topic: string): Verdict {
    const verdict = this.publishVerdict(identity, topic);
    if (!verdict.ok) {
      this.counters.refusedPublishes += 1;
      this.deps.log.warn({ who: describe(identity), topic, reason: verdict.reason }, 'MQTT publish refused');
    }
    return verdict;
  }

  /**
   * `noFilterAtDelivery`: the broker cannot drop messages per subscriber (an external broker), so
   * `+` for the device is allowed only to those who see every device of their group.
   */
  async maySubscribe(identity: MqttIdentity, filter: string, noFilterAtDelivery = false): Promise<Verdict> {
    await this.refresh(identity);
    let verdict = this.subscribeVerdict(identity, filter);
    if (
      verdict.ok &&
      noFilterAtDelivery &&
      identity.kind === 'user' &&
      !identity.user.isAdmin &&
      this.deps.topics.parseFilter(filter)?.deviceSn === '+'
    ) {
      verdict = { ok: false, reason: 'on this broker a user with project grants subscribes device by device' };
    }
    if (!verdict.ok) {
      this.counters.refusedSubscriptions += 1;
      this.deps.log.warn({ who: describe(identity), filter, reason: verdict.reason }, 'MQTT subscription refused');
    }
    return verdict;
  }

  /** Whether a message on `topic` reaches this subscriber (wildcard subscriptions of consoles see only their devices). */
  mayReceive(identity: MqttIdentity, topic: string): boolean {
    if (identity.kind === 'server') return true;
    const address = this.deps.topics.parse(topic);
    if (!address) return false;
    if (identity.kind === 'device') return address.kind === 'cmd' && address.deviceSn === identity.device.deviceSn;
    return (
      CONSOLE_SUBSCRIBES.includes(address.kind) &&
      identity.visible.sns.has(address.deviceSn) &&
      (address.groupId === undefined || address.groupId === identity.user.groupId)
    );
  }

  private publishVerdict(identity: MqttIdentity, topic: string): Verdict {
    if (identity.kind === 'server') return allow;
    if (identity.kind === 'user') return { ok: false, reason: 'console users may not publish' };
    const address = this.deps.topics.parse(topic);
    const own = identity.device;
    if (!address) return { ok: false, reason: 'not a topic of the device protocol' };
    if (address.deviceSn !== own.deviceSn) return { ok: false, reason: `not the device's own topic (${address.deviceSn})` };
    if (address.groupId !== undefined && address.groupId !== own.groupId)
      return { ok: false, reason: `the device is not in group ${String(address.groupId)}` };
    if (!DEVICE_PUBLISHES.includes(address.kind))
      return { ok: false, reason: `devices do not publish on ${address.kind} topics` };
    return allow;
  }

  private subscribeVerdict(identity: MqttIdentity, filter: string): Verdict {
    if (identity.kind === 'server') return allow;
    const address = this.deps.topics.parseFilter(filter);
    if (!address) return { ok: false, reason: 'not a topic of the device protocol (and # is never allowed)' };
    if (identity.kind === 'device') {
      const own = identity.device;
      if (
        address.deviceSn !== own.deviceSn ||
        (address.groupId !== undefined && address.groupId !== own.groupId) ||
        !DEVICE_SUBSCRIBES.includes(address.kind)
      ) {
        return { ok: false, reason: 'a device subscribes to its own cmd topic only' };
      }
      return allow;
    }
    if (!CONSOLE_SUBSCRIBES.includes(address.kind))
      return { ok: false, reason: `consoles do not subscribe to ${address.kind} topics` };
    if (address.groupId !== undefined && address.groupId !== identity.user.groupId)
      return { ok: false, reason: 'another group’s topics' };
    if (address.deviceSn !== '+' && !identity.visible.sns.has(address.deviceSn))
      return { ok: false, reason: `device ${address.deviceSn} is not visible to the user` };
    return allow;
  }

  private async sessionUser(token: string): Promise<CurrentUser | undefined> {
    const session = await this.deps.sessions.find(token);
    if (!session) return undefined;
    const user = await this.deps.users.current(session.userId);
    return user && user.status === 1 ? user : undefined;
  }

  private async visibleOf(user: CurrentUser, now = Date.now()): Promise<Visible> {
    const rows = await this.deps.db
      .selectFrom('devices')
      .select('device_sn')
      .where('group_id', '=', user.groupId)
      .where('deleted_at', 'is', null)
      .where(projectReachable(user, 'devices.project_id'))
      .execute();
    return { sns: new Set(rows.map((r) => r.device_sn)), loadedAt: now };
  }
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function describe(identity: MqttIdentity): string {
  if (identity.kind === 'device') return `device ${identity.device.deviceSn}`;
  if (identity.kind === 'user') return `user ${identity.user.account}`;
  return 'server';
}
