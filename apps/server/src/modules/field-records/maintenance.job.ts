/**
 * Maintenance by run hours (issue 16): a device type states service intervals (type_maintenance:
 * a run switch and the hours between services); this job counts each device's time with the
 * switch on from its history (as DeviceDiscreteStatistics times states: a reading holds until
 * the next, at most STATE_HOLD_MS) and, when the hours since the last service reach the
 * interval, opens one repair for the device, which the console lists with the others. When that
 * repair is done (or verified, or deleted) the run time so far becomes the next starting point.
 * Every step is conditional on what it read, so the job may run more than once, or on two
 * servers at a time, and still counts and opens once; it runs on the job leader.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { HistoryRepository } from '../telemetry/history.repository.ts';
import { STATE_HOLD_MS } from '../statistics/statistics.service.ts';
import { stateTimes } from '../statistics/statistics-math.ts';
import type { MaintenancePlan, MaintenanceRepository } from './maintenance.repository.ts';

const HOUR_S = 3600;
/** A new counter counts the run time in the history of at most this long before it. */
export const FIRST_COUNT_MS = 400 * 86_400_000;
/** Raw rows of one switch read at most in one run (a later run counts on from where it stopped). */
const ROWS_PER_RUN = 200_000;

export interface MaintenanceReport {
  counted: number;
  opened: number[];
  closed: number;
}

export class MaintenanceJob {
  private readonly repository: MaintenanceRepository;
  private readonly history: HistoryRepository;
  private readonly log: FastifyBaseLogger;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(deps: { repository: MaintenanceRepository; history: HistoryRepository; log: FastifyBaseLogger }) {
    this.repository = deps.repository;
    this.history = deps.history;
    this.log = deps.log;
  }

  /** Runs every `intervalMs` (first after 30 s) while this instance `leads`. */
  start(leads: () => boolean = () => true, intervalMs = 10 * 60_000): void {
    const tick = () => {
      if (!leads()) return;
      this.running ??= this.run()
        .catch((error: unknown) => {
          this.log.error({ err: error }, 'maintenance by run hours failed');
        })
        .finally(() => {
          this.running = undefined;
        });
    };
    setTimeout(tick, 30_000).unref();
    this.timer = setInterval(tick, intervalMs);
    this.timer.unref();
  }

  /** Stops the timer; resolves when a run under way has ended. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  async run(now = Date.now()): Promise<MaintenanceReport> {
    const report: MaintenanceReport = { counted: 0, opened: [], closed: 0 };
    const plans = await this.repository.plans();
    const series = new Map<string, number>();
    for (const groupId of new Set(plans.map((p) => p.groupId))) {
      const sns = [...new Set(plans.filter((p) => p.groupId === groupId).map((p) => p.deviceSn))];
      for (const s of await this.history.seriesOf(groupId, sns)) series.set(`${s.deviceSn}\u0000${s.key}`, s.id);
    }
    for (const plan of plans) {
      const runSeconds = await this.count(plan, series.get(`${plan.deviceSn}\u0000${plan.runKey}`), now);
      if (runSeconds === undefined) continue;
      report.counted += 1;
      const counter = plan.counter;
      const open = counter?.openRepairId ?? null;
      if (open !== null) {
        if (plan.openRepairState === '' || plan.openRepairState === 'done' || plan.openRepairState === 'verified') {
          await this.repository.closeRepair(plan, open);
          report.closed += 1;
        }
        continue;
      }
      const since = runSeconds - (counter?.serviceSeconds ?? 0);
      if (since < plan.intervalHours * HOUR_S) continue;
      const id = await this.repository.openRepair(plan, {
        group_id: plan.groupId,
        project_id: plan.projectId,
        device_sn: plan.deviceSn,
        repair_title: plan.name.slice(0, 100),
        repair_content: `${String(Math.floor(since / HOUR_S))} h / ${String(plan.intervalHours)} h`,
        state: 'reported',
        maintenance_id: plan.maintenanceId,
        warn_id: null,
        reported_by: null,
        created_at: now,
        updated_at: now,
      });
      if (id !== undefined) report.opened.push(id);
    }
    return report;
  }

  /** Counts the switch's time on since the counter's last run; the run seconds after it, or undefined when another run counted. */
  private async count(plan: MaintenancePlan, seriesId: number | undefined, now: number): Promise<number | undefined> {
    if (!plan.counter) {
      await this.repository.startCounter(plan, now - FIRST_COUNT_MS);
      // Read back as another run may have started it meanwhile.
      plan.counter = (await this.repository.plans()).find(
        (p) => p.deviceSn === plan.deviceSn && p.maintenanceId === plan.maintenanceId,
      )?.counter;
      if (!plan.counter) return undefined;
    }
    const from = plan.counter.countedTo;
    if (seriesId === undefined || from >= now) return plan.counter.runSeconds;
    const prior = await this.history.rawBefore(seriesId, from);
    const raw = await this.history.raw(seriesId, from, now, ROWS_PER_RUN);
    // A full read stops short: count up to its last row and go on from there next time.
    const to = raw.length === ROWS_PER_RUN ? (raw.ts[raw.length - 1] ?? now) : now;
    const readings: { ts: number; state: string }[] = [];
    if (prior?.num !== null && prior?.num !== undefined) readings.push({ ts: prior.ts, state: String(prior.num) });
    for (let i = 0; i < raw.length; i++) {
      const ts = raw.ts[i] ?? to;
      const value = raw.num[i];
      if (ts < to && value !== null && value !== undefined) readings.push({ ts, state: String(value) });
    }
    const on = stateTimes(readings, from, to, STATE_HOLD_MS).states.find((s) => s.State === '1')?.Seconds ?? 0;
    if (!(await this.repository.addRun(plan, from, on, to))) return undefined;
    return plan.counter.runSeconds + on;
  }
}
