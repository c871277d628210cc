import { describe, expect, it } from 'vitest';
import { CONTROL_MODE, STATION_KEYS as K } from '@sluice/shared/station-keys';
import { StationModel, dailyShape } from './station-model.ts';

/** Steps a station through `hours` of simulated time, one minute at a time, calling `each` every step. */
function run(model: StationModel, start: number, hours: number, each?: (t: number) => void): number {
  let t = start;
  for (let i = 0; i < hours * 60; i++) {
    t += 60_000;
    model.step(t);
    each?.(t);
  }
  return t;
}

// Midnight, 1 June 2026 in China (UTC+8).
const START = Date.UTC(2026, 5, 1) - 8 * 3_600_000;

describe('the station model', () => {
  it('has a daily flow pattern with morning and evening peaks', () => {
    expect(dailyShape(8)).toBeGreaterThan(dailyShape(3) * 2);
    expect(dailyShape(19.5)).toBeGreaterThan(dailyShape(3) * 2);
    const mean = Array.from({ length: 240 }, (_, i) => dailyShape(i / 10)).reduce((a, b) => a + b, 0) / 240;
    expect(mean).toBeGreaterThan(0.8);
    expect(mean).toBeLessThan(1.2);
  });

  it('keeps values in plausible ranges over two days, cycling the pumps on the tank level', () => {
    const model = new StationModel({ seed: 7, capacity: 120, faultRate: 0 });
    model.step(START);
    let pumpStarts = 0;
    let wasRunning = false;
    const levels: number[] = [];
    const t = run(model, START, 48, () => {
      const running = model.v[K.liftPump1Run] === 1 || model.v[K.liftPump2Run] === 1;
      if (running && !wasRunning) pumpStarts += 1;
      wasRunning = running;
      levels.push(model.v[K.tankLevel] ?? 0);
      expect(model.v[K.codIn]).toBeGreaterThan(60);
      expect(model.v[K.codIn]).toBeLessThan(450);
      expect(model.v[K.phIn]).toBeGreaterThanOrEqual(6.5);
      expect(model.v[K.phIn]).toBeLessThanOrEqual(8.5);
    });
    expect(pumpStarts).toBeGreaterThan(4);
    expect(Math.max(...levels)).toBeLessThan(3.2);
    // A healthy station meets class 1A comfortably.
    expect(model.v[K.codOut]).toBeLessThan(50);
    expect(model.v[K.nh3nOut]).toBeLessThan(5);
    expect(model.v[K.tpOut]).toBeLessThan(1);
    // Energy per treated cubic metre in the usual range.
    const before = { energy: model.v[K.energy] ?? 0, flow: model.v[K.flowTotal] ?? 0 };
    run(model, t, 24);
    const kwhPerM3 = ((model.v[K.energy] ?? 0) - before.energy) / ((model.v[K.flowTotal] ?? 0) - before.flow);
    expect(kwhPerM3).toBeGreaterThan(0.2);
    expect(kwhPerM3).toBeLessThan(2);
  });

  it('lets effluent ammonia rise when the blowers fail', () => {
    const model = new StationModel({ seed: 3, capacity: 100, faultRate: 0, rain: false });
    model.step(START);
    const t = run(model, START, 12);
    const healthy = model.v[K.nh3nOut] ?? 0;
    model.v[K.blower1Fault] = 1;
    model.v[K.blower2Fault] = 1;
    run(model, t, 8);
    expect(model.v[K.dissolvedOxygen]).toBeLessThan(0.6);
    expect(model.v[K.nh3nOut]).toBeGreaterThan(healthy * 2);
    expect(model.activeCodes()).toEqual(expect.arrayContaining(['E201', 'E202']));
  });

  it('obeys the control mode, one-key stop and alarm reset', () => {
    const model = new StationModel({ seed: 1, faultRate: 0 });
    model.step(START);
    expect(model.command(K.liftPump1Run, 1)).toMatchObject({ ok: false });
    expect(model.command(K.controlMode, CONTROL_MODE.manual)).toEqual({ ok: true });
    expect(model.command(K.liftPump1Run, 1)).toEqual({ ok: true });
    model.step(START + 60_000);
    expect(model.v[K.liftPump1Run]).toBe(1);
    expect(model.command(K.blowerOnTime, 1200)).toEqual({ ok: true });
    expect(model.v[K.blowerOnTime]).toBe(1200);
    expect(model.command(K.oneKeyStop, 1)).toEqual({ ok: true });
    model.step(START + 120_000);
    expect(model.v[K.liftPump1Run]).toBe(0);
    expect(model.command(K.liftPump1Run, 1)).toMatchObject({ ok: false });
    model.v[K.dosingPumpFault] = 1;
    expect(model.command(K.alarmReset, 1)).toEqual({ ok: true });
    expect(model.v[K.dosingPumpFault]).toBe(0);
    expect(model.command(K.controlMode, 2)).toEqual({ ok: true });
    model.command(K.oneKeyStop, 0);
    model.step(START + 180_000);
    expect(model.v[K.blower2Run]).toBe(1);
    // Self-check ends by itself after a minute, back in auto.
    model.step(START + 300_000);
    expect(model.v[K.controlMode]).toBe(CONTROL_MODE.auto);
  });

  it('answers manual commands like a station: a started lift pump lowers the level, a stopped one lets it rise', () => {
    const model = new StationModel({ seed: 11, capacity: 100, faultRate: 0 });
    model.step(START);
    // In auto mode the station refuses, and says why.
    const refused = model.command(K.liftPump1Run, 1);
    expect(refused.ok).toBe(false);
    expect(refused.message).toMatch(/auto mode/);
    expect(model.command(K.controlMode, CONTROL_MODE.manual)).toEqual({ ok: true });
    model.v[K.tankLevel] = 2;
    expect(model.command(K.liftPump1Run, 1)).toEqual({ ok: true });
    const t = run(model, START, 0.5);
    const pumped = model.v[K.tankLevel] ?? NaN;
    expect(pumped).toBeLessThan(2);
    expect(model.command(K.liftPump1Run, 0)).toEqual({ ok: true });
    run(model, t, 0.5);
    expect(model.v[K.tankLevel]).toBeGreaterThan(pumped);
    // Manual mode keeps its hands off: the pump stays as the operator left it.
    expect(model.v[K.liftPump1Run]).toBe(0);
  });

  describe('with a run model (duty/standby lift pumps)', () => {
    const pumps = (runTime: number, restTime = 0) => ({
      Systems: [
        {
          Id: 5,
          Name: 'Lift pumps',
          RestTime: restTime,
          Steps: [
            { Accessory: '1#', Key: K.liftPump1Run, RunTime: runTime, ElapsedKey: K.liftPump1Elapsed },
            { Accessory: '2#', Key: K.liftPump2Run, RunTime: runTime, ElapsedKey: K.liftPump2Elapsed },
          ],
        },
      ],
    });

    it('hands the running pump over to the standby one on a rotation, in manual mode too, and says why it cannot', () => {
      const model = new StationModel({ seed: 21, capacity: 100, faultRate: 0 });
      model.step(START);
      expect(model.rotate(5).message).toMatch(/send the run model first/);
      expect(
        model.configure({ Systems: [{ Id: 1, Name: 'x', RestTime: 0, Steps: [{ Accessory: 'a', Key: 'Nope', RunTime: 60 }] }] })
          .ok,
      ).toBe(false);
      expect(model.configure(pumps(3600))).toEqual({ ok: true });
      expect(model.command(K.controlMode, CONTROL_MODE.manual)).toEqual({ ok: true });
      expect(model.command(K.liftPump1Run, 1)).toEqual({ ok: true });
      expect(model.rotate(5)).toEqual({ ok: true });
      expect([model.v[K.liftPump1Run], model.v[K.liftPump2Run]]).toEqual([0, 1]);
      expect(model.rotate(5)).toEqual({ ok: true });
      expect([model.v[K.liftPump1Run], model.v[K.liftPump2Run]]).toEqual([1, 0]);
      model.v[K.liftPump2Fault] = 1;
      expect(model.rotate(5).message).toMatch(/faulted/);
      expect(model.v[K.liftPump1Run]).toBe(1);
    });

    it('rotates by run time in auto mode, reporting the running pump’s seconds, and rests between pumps', () => {
      const model = new StationModel({ seed: 22, capacity: 100, faultRate: 0, rain: false });
      model.step(START);
      expect(model.configure(pumps(600, 120))).toEqual({ ok: true });
      // Keep the tank full so the level floats never stop the pumps.
      const full = () => {
        model.v[K.tankLevel] = 3;
      };
      full();
      let t = START;
      const seen: string[] = [];
      for (let i = 0; i < 60; i++) {
        t += 30_000;
        model.step(t);
        full();
        seen.push(`${String(model.v[K.liftPump1Run])}${String(model.v[K.liftPump2Run])}`);
        if (i === 10) expect(model.v.LiftPump1Elapsed).toBeGreaterThan(0);
      }
      // Pump 1 runs its 10 minutes, both rest 2 minutes, then pump 2 runs.
      const runs = seen.filter((s, i) => s !== seen[i - 1]);
      expect(runs.slice(0, 5)).toEqual(['10', '00', '01', '00', '10']);
      // Pump 1's second turn, 6 minutes in; the resting pump reports 0.
      expect([model.v.LiftPump1Elapsed, model.v.LiftPump2Elapsed]).toEqual([360, 0]);
    });
  });

  it('holds dissolved oxygen near its set-point while a blower runs', () => {
    const model = new StationModel({ seed: 12, faultRate: 0 });
    model.step(START);
    model.command(K.controlMode, CONTROL_MODE.manual);
    model.command(K.blower2Run, 0);
    expect(model.command(K.blower1Run, 1)).toEqual({ ok: true });
    expect(model.command(K.dissolvedOxygenSet, 4)).toEqual({ ok: true });
    let t = run(model, START, 2);
    expect(model.v[K.dissolvedOxygen]).toBeGreaterThan(3.6);
    expect(model.v[K.dissolvedOxygen]).toBeLessThan(4.4);
    model.command(K.dissolvedOxygenSet, 1.5);
    t = run(model, t, 2);
    expect(model.v[K.dissolvedOxygen]).toBeGreaterThan(1.1);
    expect(model.v[K.dissolvedOxygen]).toBeLessThan(1.9);
    model.command(K.blower1Run, 0);
    run(model, t, 2);
    expect(model.v[K.dissolvedOxygen]).toBeLessThan(0.6);
  });

  it('reports how far the aeration cycle is into its on and off phases (auto mode)', () => {
    const model = new StationModel({ seed: 13, faultRate: 0 });
    model.step(START);
    model.v[K.blowerOnTime] = 600;
    model.v[K.blowerOffTime] = 300;
    model.step(START + 120_000);
    expect(model.v[K.blower1Run]).toBe(1);
    expect(model.v[K.blowerOnElapsed]).toBe(120);
    expect(model.v[K.blowerOffElapsed]).toBe(0);
    model.step(START + 700_000);
    expect(model.v[K.blower1Run]).toBe(0);
    expect(model.v[K.blowerOnElapsed]).toBe(0);
    expect(model.v[K.blowerOffElapsed]).toBe(100);
    model.command(K.controlMode, CONTROL_MODE.manual);
    model.step(START + 710_000);
    expect(model.v[K.blowerOffElapsed]).toBe(0);
  });

  it('resets the day counter at local midnight and the month counter at a new month', () => {
    const model = new StationModel({ seed: 5, faultRate: 0 });
    const end = Date.UTC(2026, 5, 30, 22) - 8 * 3_600_000;
    model.step(end);
    run(model, end, 1.5);
    expect(model.v[K.runTimeDay]).toBeGreaterThan(0);
    run(model, end + 1.5 * 3_600_000, 1);
    expect(model.v[K.runTimeDay]).toBeLessThanOrEqual(1);
    expect(model.v[K.runTimeMonth]).toBeLessThanOrEqual(1);
  });

  it('raises faults at random and clears them on alarm reset', () => {
    const model = new StationModel({ seed: 11, faultRate: 0.5 });
    model.step(START);
    run(model, START, 24);
    expect(model.activeCodes().length).toBeGreaterThan(0);
    model.command(K.alarmReset, 1);
    expect(model.activeCodes().filter((c) => c.startsWith('E'))).toEqual([]);
  });
});
