/**
 * Where an operator sees what a device sent that the server could not use: a row in the
 * device's log (GET {kind}/{deviceSn}/DeviceLog, State 3, with the reason and the start of the
 * message) and a warning in the server's log. Both are rate-limited per device — a few at once,
 * then one every few minutes — so that a device sending nothing but bad messages cannot flood
 * either; the next entry recorded says how many were left out in between. Recording never
 * fails a message: it is acknowledged whatever happens here.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { TopicKind } from '@sluice/shared/device-protocol';
import { DEVICE_LOG_STATE } from '@sluice/shared/telemetry.schema';
import type { DeviceLogsRepository } from '../commands/device-logs.repository.ts';
import { printable } from './payload.ts';

export interface Refusal {
  deviceSn: string;
  /** The device's group; without it (no such device) only the server's log hears of it. */
  groupId?: number | undefined;
  kind: TopicKind;
  reason: string;
  payload?: Buffer | undefined;
}

export interface RefusalLimits {
  /** Entries a device may have recorded at once. */
  burst: number;
  /** Then one more per this many milliseconds. */
  everyMs: number;
}

export const REFUSAL_LIMITS: RefusalLimits = { burst: 5, everyMs: 10 * 60_000 };

/** Characters of the payload kept with the entry. */
const EXCERPT = 200;
/** Devices whose allowance is remembered; beyond that, those with a full allowance are forgotten. */
const MAX_TRACKED = 50_000;

interface Allowance {
  tokens: number;
  at: number;
  /** Refusals left out since the last entry. */
  skipped: number;
}

export class RefusalLog {
  private readonly allowances = new Map<string, Allowance>();
  private readonly deps: { logs: DeviceLogsRepository; log: FastifyBaseLogger; limits?: RefusalLimits };

  constructor(deps: RefusalLog['deps']) {
    this.deps = deps;
  }

  async record(refusal: Refusal, now: number): Promise<void> {
    const skipped = this.take(refusal.deviceSn, now);
    if (skipped === undefined) return;
    const reason = skipped > 0 ? `${refusal.reason} (and ${String(skipped)} more refused before, not recorded)` : refusal.reason;
    this.deps.log.warn({ deviceSn: refusal.deviceSn, kind: refusal.kind, reason }, 'device message refused');
    if (refusal.groupId === undefined) return;
    try {
      await this.deps.logs.insert({
        group_id: refusal.groupId,
        device_sn: refusal.deviceSn,
        command_id: randomBytes(16).toString('hex'),
        data_key: refusal.kind,
        new_value: refusal.payload ? printable(refusal.payload.subarray(0, EXCERPT * 4).toString('utf8'), EXCERPT) : '',
        send_time: now,
        ack_time: now,
        state: DEVICE_LOG_STATE.messageRefused,
        message: printable(reason, 500),
        user_id: null,
      });
    } catch (error) {
      this.deps.log.error({ err: error, deviceSn: refusal.deviceSn }, 'recording a refused device message failed');
    }
  }

  /** Undefined when the device's allowance is spent (the refusal is only counted); else how many were left out before. */
  private take(deviceSn: string, now: number): number | undefined {
    const { burst, everyMs } = this.deps.limits ?? REFUSAL_LIMITS;
    const current = this.allowances.get(deviceSn) ?? { tokens: burst, at: now, skipped: 0 };
    current.tokens = Math.min(burst, current.tokens + Math.max(0, now - current.at) / everyMs);
    current.at = now;
    if (!this.allowances.has(deviceSn)) {
      if (this.allowances.size >= MAX_TRACKED) this.forgetRested(now);
      this.allowances.set(deviceSn, current);
    }
    if (current.tokens < 1) {
      current.skipped += 1;
      return undefined;
    }
    current.tokens -= 1;
    const skipped = current.skipped;
    current.skipped = 0;
    return skipped;
  }

  private forgetRested(now: number): void {
    const { burst, everyMs } = this.deps.limits ?? REFUSAL_LIMITS;
    for (const [sn, a] of this.allowances) {
      if (a.skipped === 0 && a.tokens + (now - a.at) / everyMs >= burst) this.allowances.delete(sn);
    }
  }
}
