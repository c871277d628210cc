/**
 * Online and offline: a device is online from its connection (or any message) and offline on
 * its last will, a clean disconnect, an `Online: 0` status, or when nothing is heard of it for
 * DEVICE_TIMEOUT seconds (the heartbeat time-out). Each change is recorded as an online period
 * and published to consoles; a device with an active alarm is 'online with warning' (state 2).
 */
import type { LiveEvents } from '../../mqtt/live-events.ts';
import { BatchLoader } from '../telemetry/batch-loader.ts';
import type { OfflineTransition, OnlineRepository, OnlineTransition } from './online.repository.ts';

export interface OnlineOptions {
  timeoutMs: number;
  /** How often last_seen is written and silent devices are looked for. */
  sweepMs: number;
  /** Whether the device has an active alarm (for the state in events). */
  hasActiveWarn: (deviceSn: string) => Promise<boolean>;
  /** A device is heard of for the first time since it went offline (or since start): its offline alarm clears. */
  onHeard?: (groupId: number, deviceSn: string, at: number) => Promise<void>;
  /** After each sweep, with the time before which a device counts as silent: offline alarms open. */
  onSwept?: (cutoff: number, now: number) => Promise<void>;
  /**
   * Whether this instance is the job leader (db/job-leader.ts): only the leader takes silent
   * devices offline and opens their alarms; every instance writes the last_seen of the devices it
   * hears, which is what the leader's time-out reads.
   */
  leads?: () => boolean;
  /** A device went offline here (its will, a clean goodbye, the time-out): other instances forget they saw it. */
  wentOffline?: (deviceSn: string) => void;
  onError: (error: unknown) => void;
}

interface Seen {
  groupId: number;
  at: number;
  saved: number;
}

/** Whether each transition changed its device, from the ones that did. */
async function changedOf<T>(transitions: T[], changing: Promise<T[]>): Promise<Map<T, boolean>> {
  const changed = new Set(await changing);
  return new Map(transitions.map((t) => [t, changed.has(t)]));
}

export class OnlineService {
  private readonly repository: OnlineRepository;
  private readonly events: LiveEvents;
  private readonly options: OnlineOptions;
  /** Devices this instance knows online, with when they were last heard of. */
  private readonly seen = new Map<string, Seen>();
  /** Transitions of one device run one after the other. */
  private readonly chains = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  /** The periodic sweep under way, which `stop()` waits for. */
  private sweeping: Promise<void> | undefined;
  /** Whether the device holds a live connection to the embedded broker (then it never times out). */
  private connected: (deviceSn: string) => boolean = () => false;
  /** Transitions asked for in one turn of the event loop, written together: whether each device changed. */
  private readonly onlines: BatchLoader<OnlineTransition, boolean>;
  private readonly offlines: BatchLoader<OfflineTransition, boolean>;

  constructor(repository: OnlineRepository, events: LiveEvents, options: OnlineOptions) {
    this.repository = repository;
    this.events = events;
    this.options = options;
    this.onlines = new BatchLoader((transitions) => changedOf(transitions, repository.markOnline(transitions)), false, Infinity);
    this.offlines = new BatchLoader(
      (transitions) => changedOf(transitions, repository.markOffline(transitions)),
      false,
      Infinity,
    );
  }

  /** The embedded broker knows connections; an external broker's devices only time out. */
  watchConnections(connected: (deviceSn: string) => boolean): void {
    this.connected = connected;
  }

  /**
   * Sweeps once at once, then every `sweepMs`: devices silent past the time-out before the server
   * started are offline (with their alarms) from the start, not from the first interval on.
   */
  start(): void {
    if (this.timer) return;
    const tick = (): void => {
      this.sweeping ??= this.sweep()
        .catch(this.options.onError)
        .finally(() => (this.sweeping = undefined));
    };
    tick();
    this.timer = setInterval(tick, this.options.sweepMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.sweeping;
    await Promise.allSettled([...this.chains.values()]);
    await this.saveLastSeen();
  }

  /** The device was heard of (a connection, a message, a ping). */
  touch(groupId: number, deviceSn: string, at = Date.now()): Promise<void> {
    const known = this.seen.get(deviceSn);
    if (known) {
      if (at > known.at) known.at = at;
      return Promise.resolve();
    }
    this.seen.set(deviceSn, { groupId, at, saved: 0 });
    return this.serial(deviceSn, async () => {
      // Together, so that the transitions of a turn's devices share a write; announced after both.
      const [, came] = await Promise.all([
        this.options.onHeard?.(groupId, deviceSn, at),
        this.onlines.get({ groupId, deviceSn, at }),
      ]);
      if (came) await this.announce(groupId, deviceSn, 1, at);
    });
  }

  /** The device said it went away, or its connection closed. */
  offline(groupId: number, deviceSn: string, reason: string, at = Date.now()): Promise<void> {
    this.seen.delete(deviceSn);
    return this.serial(deviceSn, async () => {
      if (await this.offlines.get({ groupId, deviceSn, endedAt: at, reason })) await this.wentOffline(groupId, deviceSn, at);
    });
  }

  /**
   * Another instance took the device offline: the next time it is heard of here, it comes online
   * again (behind a shared subscription its messages reach any instance).
   */
  forget(deviceSn: string): void {
    this.seen.delete(deviceSn);
  }

  /** Re-announces a device's state (its alarms changed). */
  async announceState(groupId: number, deviceSn: string, at = Date.now()): Promise<void> {
    if (this.seen.has(deviceSn)) await this.announce(groupId, deviceSn, 1, at);
  }

  /** Writes last_seen, and takes offline the devices silent for longer than the time-out. */
  async sweep(now = Date.now()): Promise<void> {
    await this.saveLastSeen();
    const cutoff = now - this.options.timeoutMs;
    for (const [sn, s] of this.seen) {
      if (this.connected(sn)) s.at = Math.max(s.at, now);
      else if (s.at < cutoff) this.seen.delete(sn);
    }
    if (this.options.leads && !this.options.leads()) return;
    const silent = (await this.repository.silentSince(cutoff)).filter(
      (d) => !this.seen.has(d.deviceSn) && !this.connected(d.deviceSn),
    );
    await Promise.all(
      silent.map(({ groupId, deviceSn, lastSeen }) =>
        this.serial(deviceSn, async () => {
          if (await this.offlines.get({ groupId, deviceSn, endedAt: lastSeen, reason: 'timeout' }))
            await this.wentOffline(groupId, deviceSn, now);
        }),
      ),
    );
    await this.options.onSwept?.(cutoff, now);
  }

  private async saveLastSeen(): Promise<void> {
    const due = [...this.seen.entries()].filter(([, s]) => s.at > s.saved);
    if (due.length === 0) return;
    await this.repository.saveLastSeen(due.map(([deviceSn, s]) => ({ groupId: s.groupId, deviceSn, at: s.at })));
    for (const [, s] of due) s.saved = s.at;
  }

  private async wentOffline(groupId: number, deviceSn: string, at: number): Promise<void> {
    this.options.wentOffline?.(deviceSn);
    await this.announce(groupId, deviceSn, 0, at);
  }

  private async announce(groupId: number, deviceSn: string, online: 0 | 1, at: number): Promise<void> {
    const state = online === 0 ? 0 : (await this.options.hasActiveWarn(deviceSn)) ? 2 : 1;
    this.events.emit(groupId, { Type: 'online', DeviceSn: deviceSn, Online: online, State: state, Time: at });
  }

  private serial(deviceSn: string, work: () => Promise<void>): Promise<void> {
    const previous = this.chains.get(deviceSn) ?? Promise.resolve();
    const next = previous.then(work).catch(this.options.onError);
    this.chains.set(deviceSn, next);
    void next.finally(() => {
      if (this.chains.get(deviceSn) === next) this.chains.delete(deviceSn);
    });
    return next;
  }
}
