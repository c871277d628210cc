/**
 * A village wastewater station (A/O process, 10–500 m³/day), stepped in simulated seconds:
 * inflow with a morning and evening peak and rain events that raise flow and dilute the
 * sewage; a regulating tank whose level starts and stops duty/standby lift pumps; blowers on a
 * timer cycle driving dissolved oxygen toward its set-point; PAC dosing while pumping; effluent quality that follows
 * aeration and dosing (a failed blower lets NH3-N rise within hours); energy, treated volume and
 * run-time counters (day, month, year). It obeys commands (control mode auto 1 / manual 0 /
 * self-check 2, one-key stop, switches, set-points, alarm reset) and raises and clears faults.
 * A run model from the console (docs/device-protocol.md, run model) rotates its systems' steps:
 * in auto mode each step's switch runs for its run time, then, after the system's rest time,
 * the next step's takes over (the level floats start the lift pump whose step is current); a
 * rotation command hands over at once in any mode.
 * Typical values: docs of the domain (COD 150–400 mg/L in, NH3-N 20–40, TN 30–50, TP 2–5,
 * SS 100–250, pH 6.5–8.5; 0.3–0.8 kWh/m³).
 */
import { CONTROL_MODE, STATION_KEYS as K } from '@sluice/shared/station-keys';
import type { RunModelConfig } from '@sluice/shared/device-protocol';

export type Values = Record<string, number>;

/** A seeded pseudo-random source (mulberry32), so that a station's behaviour is repeatable. */
export function randomSource(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The daily shape of domestic sewage flow (mean about 1): low at night, peaks near 8:00 and 19:30. */
export function dailyShape(hour: number): number {
  return rawShape(hour) / SHAPE_MEAN;
}

function rawShape(hour: number): number {
  const peak = (center: number, width: number) => Math.exp(-(((hour - center) / width) ** 2));
  return 0.45 + 1.0 * peak(8, 1.6) + 0.85 * peak(19.5, 2.2) + 0.25 * peak(12.5, 1.5);
}

const SHAPE_MEAN = Array.from({ length: 1440 }, (_, i) => rawShape(i / 60)).reduce((a, b) => a + b, 0) / 1440;

const FAULTS = [K.liftPump1Fault, K.liftPump2Fault, K.blower1Fault, K.blower2Fault, K.dosingPumpFault, K.analyserFault] as const;
/** Error codes of faults on the error topic (the demo's warn codes). */
export const FAULT_CODES: Record<string, string> = {
  [K.liftPump1Fault]: 'E101',
  [K.liftPump2Fault]: 'E102',
  [K.blower1Fault]: 'E201',
  [K.blower2Fault]: 'E202',
  [K.dosingPumpFault]: 'E301',
  [K.analyserFault]: 'E401',
  [K.levelHighAlarm]: 'A101',
};

export interface StationOptions {
  seed: number;
  /** Design capacity, m³/day. */
  capacity?: number;
  /** Faults per equipment per simulated hour (0 for none). */
  faultRate?: number;
  /** Minutes east of UTC of the station's clock (day, month and year counters). */
  offsetMinutes?: number;
  /** Rain events (on by default; a test that needs dry-weather flow turns them off). */
  rain?: boolean;
}

export interface CommandResult {
  ok: boolean;
  message?: string;
}

/** A run system as the station keeps it: its steps, the current one and how long it has run. */
interface RunSystem {
  id: number;
  restTime: number;
  steps: { key: string; runTime: number; elapsedKey?: string | undefined }[];
  index: number;
  /** Seconds the current step's switch has been on in this turn. */
  ranFor: number;
  /** While resting between steps: when the next one starts (ms), else 0. */
  restUntil: number;
}

export class StationModel {
  readonly capacity: number;
  private readonly random: () => number;
  private readonly faultRate: number;
  private readonly offsetMinutes: number;
  private readonly rains: boolean;
  private readonly area: number;
  private readonly pumpCapacity: number;
  private rain = { until: 0, factor: 1 };
  private cycleStart = 0;
  private selfCheckUntil = 0;
  private dutyPump: 1 | 2 = 1;
  private systems: RunSystem[] = [];
  private lastTime = 0;
  private lastDay = '';
  /** The station's state: every value it reports. */
  readonly v: Values;

  constructor(options: StationOptions) {
    this.random = randomSource(options.seed);
    this.capacity = options.capacity ?? Math.round(40 + this.random() * 260);
    this.faultRate = options.faultRate ?? 0.002;
    this.offsetMinutes = options.offsetMinutes ?? 480;
    this.rains = options.rain ?? true;
    // A regulating tank holding about 4 hours of average flow over 2.5 m of working depth.
    this.area = ((this.capacity / 24) * 4) / 2.5;
    // Lift pumps sized for three times the average flow, above the morning peak.
    this.pumpCapacity = (this.capacity / 24) * 3;
    const r = this.random;
    this.v = {
      [K.inflow]: this.capacity / 24,
      [K.flowTotal]: Math.round(r() * 50_000),
      [K.tankLevel]: 1 + r(),
      [K.levelHighSet]: 2.6,
      [K.levelLowSet]: 0.8,
      [K.levelHighAlarm]: 0,
      [K.liftPump1Run]: 0,
      [K.liftPump1Fault]: 0,
      [K.liftPump1Auto]: 1,
      [K.liftPump2Run]: 0,
      [K.liftPump2Fault]: 0,
      [K.liftPump2Auto]: 1,
      [K.blower1Run]: 1,
      [K.blower1Fault]: 0,
      [K.blower2Run]: 0,
      [K.blower2Fault]: 0,
      [K.blowerOnTime]: 2700,
      [K.blowerOffTime]: 900,
      [K.blowerOnElapsed]: 0,
      [K.blowerOffElapsed]: 0,
      [K.dissolvedOxygen]: 2,
      [K.dissolvedOxygenSet]: 2,
      [K.dosingPumpRun]: 0,
      [K.dosingPumpFault]: 0,
      [K.dosingRate]: 0,
      [K.codIn]: 250,
      [K.codOut]: 30,
      [K.nh3nIn]: 30,
      [K.nh3nOut]: 2,
      [K.tnIn]: 40,
      [K.tnOut]: 11,
      [K.tpIn]: 3.5,
      [K.tpOut]: 0.3,
      [K.ssIn]: 180,
      [K.ssOut]: 6,
      [K.phIn]: 7.3,
      [K.phOut]: 7.1,
      [K.analyserFault]: 0,
      [K.energy]: Math.round(r() * 20_000),
      [K.runTimeYear]: Math.round(r() * 2000),
      [K.runTimeMonth]: Math.round(r() * 200),
      [K.runTimeDay]: 0,
      [K.controlMode]: CONTROL_MODE.auto,
      [K.oneKeyStop]: 0,
      [K.alarmReset]: 0,
    };
  }

  /** The fault and alarm codes active now. */
  activeCodes(): string[] {
    return Object.entries(FAULT_CODES)
      .filter(([key]) => (this.v[key] ?? 0) !== 0)
      .map(([, code]) => code);
  }

  /** Advances the station to `now` (ms). */
  step(now: number): void {
    if (this.lastTime === 0) {
      this.lastTime = now;
      this.cycleStart = now;
      this.rollCounters(now);
      return;
    }
    const dt = Math.min(3600, Math.max(0, (now - this.lastTime) / 1000));
    this.lastTime = now;
    if (dt === 0) return;
    const v = this.v;
    const r = this.random;
    const hours = dt / 3600;
    const local = new Date(now + this.offsetMinutes * 60_000);
    const hour = local.getUTCHours() + local.getUTCMinutes() / 60;
    this.rollCounters(now);

    // Rain: about one event every two days, 2–8 hours long, 1.5–3 times the flow.
    if (this.rains && now > this.rain.until && r() < hours / 48)
      this.rain = { until: now + (2 + r() * 6) * 3_600_000, factor: 1.5 + r() * 1.5 };
    const rain = now < this.rain.until ? this.rain.factor : 1;
    const inflow = (this.capacity / 24) * dailyShape(hour) * rain * (0.92 + r() * 0.16);
    v[K.inflow] = round(inflow, 2);

    // Influent: stronger in the morning, diluted by rain.
    const dilution = rain ** -0.7;
    const strength = (0.9 + 0.2 * Math.sin(((hour - 4) / 24) * 2 * Math.PI)) * dilution;
    const drift = (key: string, target: number, spread: number) => {
      v[key] = round((v[key] ?? target) + (target * (1 + (r() - 0.5) * spread) - (v[key] ?? target)) * Math.min(1, dt / 900), 2);
    };
    drift(K.codIn, 260 * strength, 0.3);
    drift(K.nh3nIn, 30 * strength, 0.25);
    drift(K.tnIn, 40 * strength, 0.2);
    drift(K.tpIn, 3.5 * strength, 0.3);
    drift(K.ssIn, 175 * strength, 0.35);
    v[K.phIn] = round(clamp(7.3 + (r() - 0.5) * 0.4 + (rain > 1 ? -0.3 : 0), 6.5, 8.5), 2);

    const stopped = v[K.oneKeyStop] === 1;
    const mode = v[K.controlMode];
    const selfCheck = mode === CONTROL_MODE.selfCheck;
    if (selfCheck && this.selfCheckUntil === 0) this.selfCheckUntil = now + 60_000;
    if (selfCheck && now > this.selfCheckUntil) {
      v[K.controlMode] = CONTROL_MODE.auto;
      this.selfCheckUntil = 0;
    }
    const auto = v[K.controlMode] === CONTROL_MODE.auto;

    // Lift pumps: duty/standby on the level floats (auto); a faulted pump hands over to the other.
    if (auto && !stopped) {
      const level = v[K.tankLevel] ?? 0;
      const running = v[K.liftPump1Run] === 1 || v[K.liftPump2Run] === 1;
      if (!running && level >= (v[K.levelHighSet] ?? 2.6)) {
        // The run model's current step names the duty pump; without one, the pumps take turns.
        this.dutyPump = this.dutyByRunModel() ?? (this.dutyPump === 1 ? 2 : 1);
        this.startPump(this.dutyPump);
      } else if (running && level <= (v[K.levelLowSet] ?? 0.8)) {
        v[K.liftPump1Run] = 0;
        v[K.liftPump2Run] = 0;
      }
    }
    if (v[K.liftPump1Fault] === 1 && v[K.liftPump1Run] === 1) {
      v[K.liftPump1Run] = 0;
      if (auto && !stopped) this.startPump(2);
    }
    if (v[K.liftPump2Fault] === 1 && v[K.liftPump2Run] === 1) {
      v[K.liftPump2Run] = 0;
      if (auto && !stopped) this.startPump(1);
    }
    if (auto && !stopped) this.rotateByTime(now, dt);
    this.reportElapsed();
    // Blowers: on for BlowerOnTime, off for BlowerOffTime (auto); blower 2 stands in for a faulted blower 1.
    if (auto && !stopped) {
      const on = v[K.blowerOnTime] ?? 2700;
      const off = v[K.blowerOffTime] ?? 900;
      const phase = ((now - this.cycleStart) / 1000) % Math.max(1, on + off);
      const want = phase < on ? 1 : 0;
      v[K.blower1Run] = v[K.blower1Fault] === 1 ? 0 : want;
      v[K.blower2Run] = v[K.blower1Fault] === 1 && v[K.blower2Fault] !== 1 ? want : 0;
      v[K.blowerOnElapsed] = want === 1 ? Math.floor(phase) : 0;
      v[K.blowerOffElapsed] = want === 1 ? 0 : Math.floor(phase - on);
    } else {
      // No cycle outside auto mode: the operator runs the blowers.
      v[K.blowerOnElapsed] = 0;
      v[K.blowerOffElapsed] = 0;
    }
    if (selfCheck && !stopped) {
      for (const key of [K.liftPump1Run, K.liftPump2Run, K.blower1Run, K.blower2Run, K.dosingPumpRun]) v[key] = 1;
    }
    if (stopped) for (const key of [K.liftPump1Run, K.liftPump2Run, K.blower1Run, K.blower2Run, K.dosingPumpRun]) v[key] = 0;
    for (const [run, fault] of [
      [K.blower1Run, K.blower1Fault],
      [K.blower2Run, K.blower2Fault],
      [K.dosingPumpRun, K.dosingPumpFault],
    ] as const) {
      if (v[fault] === 1) v[run] = 0;
    }

    const pumping = (v[K.liftPump1Run] ?? 0) + (v[K.liftPump2Run] ?? 0) > 0;
    const pumped = pumping ? this.pumpCapacity : 0;
    v[K.tankLevel] = round(clamp((v[K.tankLevel] ?? 0) + ((inflow - pumped) * hours) / this.area, 0, 3.5), 3);
    v[K.levelHighAlarm] = (v[K.tankLevel] ?? 0) > 3.1 ? 1 : 0;
    if (auto && !stopped && v[K.dosingPumpFault] !== 1) v[K.dosingPumpRun] = pumping ? 1 : 0;
    v[K.dosingRate] = v[K.dosingPumpRun] === 1 ? round(this.pumpCapacity * 0.04 * (0.95 + r() * 0.1), 2) : 0;
    v[K.flowTotal] = round((v[K.flowTotal] ?? 0) + pumped * hours, 2);

    // Dissolved oxygen: the blowers' air valve holds it near the DO set-point while a blower runs
    // (two blowers push it up to 1 mg/L higher); it falls toward 0.3 mg/L when none does.
    const blowers = (v[K.blower1Run] ?? 0) + (v[K.blower2Run] ?? 0);
    const aerating = blowers > 0;
    const doTarget = aerating ? (v[K.dissolvedOxygenSet] ?? 2) + (blowers - 1) * 0.5 + (r() - 0.5) * 0.3 : 0.3;
    v[K.dissolvedOxygen] = round(
      (v[K.dissolvedOxygen] ?? 0) + (doTarget - (v[K.dissolvedOxygen] ?? 0)) * Math.min(1, dt / 600),
      2,
    );

    // Effluent follows the process with a lag of about two hours.
    const oxygen = clamp((v[K.dissolvedOxygen] ?? 0) / 2, 0, 1);
    const dosing = v[K.dosingPumpRun] === 1 || !pumping ? 1 : 0.4;
    const lag = (key: string, target: number) => {
      v[key] = round(
        (v[key] ?? target) + (target - (v[key] ?? target)) * Math.min(1, dt / 7200) + (r() - 0.5) * target * 0.02,
        3,
      );
    };
    lag(K.codOut, (v[K.codIn] ?? 250) * (0.06 + 0.1 * (1 - oxygen)));
    lag(K.nh3nOut, (v[K.nh3nIn] ?? 30) * (0.04 + 0.5 * (1 - oxygen) ** 2));
    lag(K.tnOut, (v[K.tnIn] ?? 40) * (0.25 + 0.2 * (1 - oxygen)));
    lag(K.tpOut, (v[K.tpIn] ?? 3.5) * (0.05 + 0.3 * (1 - dosing)));
    lag(K.ssOut, (v[K.ssIn] ?? 175) * 0.035);
    v[K.phOut] = round(clamp((v[K.phIn] ?? 7.3) - 0.2 + (r() - 0.5) * 0.1, 6, 9), 2);

    // Energy: 2.2 kW per lift pump, 3 kW per blower, 0.37 kW dosing, 0.3 kW base load.
    const kw =
      2.2 * ((v[K.liftPump1Run] ?? 0) + (v[K.liftPump2Run] ?? 0)) +
      3 * ((v[K.blower1Run] ?? 0) + (v[K.blower2Run] ?? 0)) +
      0.37 * (v[K.dosingPumpRun] ?? 0) +
      0.3;
    v[K.energy] = round((v[K.energy] ?? 0) + kw * hours, 3);
    // Run time (hours) of the station's main equipment: the duty lift pump or a blower running.
    if (pumping || aerating) {
      for (const key of [K.runTimeDay, K.runTimeMonth, K.runTimeYear]) v[key] = round((v[key] ?? 0) + hours, 3);
    }

    // Faults come at random and stay until an alarm reset; the analyser's clears by itself.
    for (const fault of FAULTS) {
      if (v[fault] === 0 && r() < this.faultRate * hours) v[fault] = 1;
    }
    if (v[K.analyserFault] === 1 && r() < hours / 2) v[K.analyserFault] = 0;
  }

  /** A command from the server; in auto mode only the mode itself and one-key stop may change. */
  command(key: string, value: number | string | boolean): CommandResult {
    const v = this.v;
    const n = typeof value === 'boolean' ? (value ? 1 : 0) : Number(value);
    if (!Number.isFinite(n)) return { ok: false, message: `${String(value)} is not a number` };
    if (!(key in v)) return { ok: false, message: `no data point ${key}` };
    const auto = v[K.controlMode] === CONTROL_MODE.auto;
    switch (key) {
      case K.controlMode:
        if (![CONTROL_MODE.auto, CONTROL_MODE.manual, CONTROL_MODE.selfCheck].includes(n as 0 | 1 | 2))
          return { ok: false, message: 'the control mode is 0, 1 or 2' };
        v[key] = n;
        this.selfCheckUntil = 0;
        return { ok: true };
      case K.oneKeyStop:
        v[key] = n === 0 ? 0 : 1;
        return { ok: true };
      case K.alarmReset:
        for (const fault of FAULTS) v[fault] = 0;
        v[K.alarmReset] = 0;
        return { ok: true };
      default:
        if (auto) return { ok: false, message: 'auto mode: the station controls itself' };
        if (key.endsWith('Fault') || key.endsWith('_In') || key.endsWith('_Out') || key === K.tankLevel || key === K.inflow)
          return { ok: false, message: `${key} is read-only` };
        if (key.endsWith('Run')) {
          if (n === 1 && v[key.replace('Run', 'Fault')] === 1) return { ok: false, message: 'the equipment is faulted' };
          if (n === 1 && v[K.oneKeyStop] === 1) return { ok: false, message: 'one-key stop is on' };
          v[key] = n === 0 ? 0 : 1;
          return { ok: true };
        }
        v[key] = n;
        return { ok: true };
    }
  }

  /**
   * Takes a run model (replacing the one before): each system's steps in order; the current step
   * is the one whose switch is on, else the first. Refused when a step names a switch the station
   * does not have.
   */
  configure(config: RunModelConfig): CommandResult {
    if (!Array.isArray(config.Systems)) return { ok: false, message: 'a run model needs Systems' };
    for (const system of config.Systems) {
      for (const step of system.Steps) {
        if (!(step.Key in this.v) || !step.Key.endsWith('Run')) return { ok: false, message: `no switch ${step.Key}` };
        if (!(step.RunTime > 10)) return { ok: false, message: `${step.Key}: a run time above 10 s` };
      }
    }
    this.systems = config.Systems.filter((s) => s.Steps.length > 0).map((s) => {
      const running = s.Steps.findIndex((step) => this.v[step.Key] === 1);
      return {
        id: s.Id,
        restTime: s.RestTime,
        steps: s.Steps.map((step) => ({ key: step.Key, runTime: step.RunTime, elapsedKey: step.ElapsedKey })),
        index: Math.max(0, running),
        ranFor: 0,
        restUntil: 0,
      };
    });
    this.reportElapsed();
    return { ok: true };
  }

  /** Hands a system's current step over to the next now, in any mode (an operator's "switch to standby"). */
  rotate(systemId: number): CommandResult {
    const system = this.systems.find((s) => s.id === systemId);
    if (!system) return { ok: false, message: `no run system ${String(systemId)}: send the run model first` };
    if (this.v[K.oneKeyStop] === 1) return { ok: false, message: 'one-key stop is on' };
    const next = system.steps[(system.index + 1) % system.steps.length];
    if (next && this.v[next.key.replace('Run', 'Fault')] === 1) return { ok: false, message: 'the standby equipment is faulted' };
    this.handOver(system, 0);
    this.reportElapsed();
    return { ok: true };
  }

  /** The lift pump (1 or 2) whose step is current in a run system of the pumps. */
  private dutyByRunModel(): 1 | 2 | undefined {
    for (const system of this.systems) {
      const key = system.steps[system.index]?.key;
      if (key === K.liftPump1Run) return 1;
      if (key === K.liftPump2Run) return 2;
    }
    return undefined;
  }

  /** Auto mode: a step that has run its time hands over, after the system's rest. */
  private rotateByTime(now: number, dt: number): void {
    for (const system of this.systems) {
      if (system.restUntil !== 0) {
        if (now < system.restUntil) continue;
        system.restUntil = 0;
        this.switchOn(system.steps[system.index]?.key);
        continue;
      }
      const step = system.steps[system.index];
      if (!step || this.v[step.key] !== 1) continue;
      system.ranFor += dt;
      if (system.ranFor >= step.runTime) this.handOver(system, system.restTime * 1000, now);
    }
  }

  /** The current step stops and the next becomes current; it starts at once or after `restMs` when the current was running. */
  private handOver(system: RunSystem, restMs: number, now = this.lastTime): void {
    const current = system.steps[system.index];
    const wasRunning = current !== undefined && this.v[current.key] === 1;
    if (current) this.v[current.key] = 0;
    system.index = (system.index + 1) % system.steps.length;
    system.ranFor = 0;
    if (!wasRunning) return;
    if (restMs > 0) system.restUntil = now + restMs;
    else this.switchOn(system.steps[system.index]?.key);
  }

  private switchOn(key: string | undefined): void {
    if (key !== undefined && this.v[key.replace('Run', 'Fault')] !== 1) this.v[key] = 1;
  }

  /** Each step's elapsed point: the seconds its turn has run while it is current and on, else 0. */
  private reportElapsed(): void {
    for (const system of this.systems) {
      for (const [i, step] of system.steps.entries()) {
        if (step.elapsedKey === undefined) continue;
        this.v[step.elapsedKey] = i === system.index && this.v[step.key] === 1 ? Math.floor(system.ranFor) : 0;
      }
    }
  }

  private startPump(which: 1 | 2): void {
    const [run, fault] = which === 1 ? [K.liftPump1Run, K.liftPump1Fault] : [K.liftPump2Run, K.liftPump2Fault];
    const [otherRun, otherFault] = which === 1 ? [K.liftPump2Run, K.liftPump2Fault] : [K.liftPump1Run, K.liftPump1Fault];
    if (this.v[fault] !== 1) this.v[run] = 1;
    else if (this.v[otherFault] !== 1) this.v[otherRun] = 1;
  }

  private rollCounters(now: number): void {
    const day = new Date(now + this.offsetMinutes * 60_000).toISOString().slice(0, 10);
    if (this.lastDay && day !== this.lastDay) {
      this.v[K.runTimeDay] = 0;
      if (day.slice(0, 7) !== this.lastDay.slice(0, 7)) this.v[K.runTimeMonth] = 0;
      if (day.slice(0, 4) !== this.lastDay.slice(0, 4)) this.v[K.runTimeYear] = 0;
    }
    this.lastDay = day;
  }
}

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));
const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
