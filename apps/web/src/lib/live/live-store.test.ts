import { describe, expect, it } from 'vitest';
import { LiveStore } from './live-store';

describe('LiveStore', () => {
  it('merges data, keeps newer values over buffered older ones, and notifies only that device', () => {
    const store = new LiveStore();
    let a = 0;
    let b = 0;
    store.subscribeDevice('A', () => (a += 1));
    store.subscribeDevice('B', () => (b += 1));
    store.receive('data', 'A', { Time: 1_763_800_002_000, Inflow: 5, Run: true, Note: 'x', Bad: { nested: 1 } });
    store.receive('data', 'A', [{ Time: 1_763_800_001_000, Inflow: 1 }]);
    expect(store.device('A')).toMatchObject({ data: { Inflow: 5, Run: 1, Note: 'x' }, time: 1_763_800_002_000 });
    expect(store.device('A').data).not.toHaveProperty('Bad');
    expect(store.device('A').data).not.toHaveProperty('Time');
    expect([a, b]).toEqual([1, 0]);
    store.receive('data', 'A', { Time: '2026-11-22 10:00:00', Inflow: 6 });
    expect(store.device('A').data.Inflow).toBe(6);
  });

  it('follows states from events and live status, ignoring retained status', () => {
    const store = new LiveStore();
    const before = store.stateSnapshot();
    store.receive('status', 'A', { Online: 0 }, true);
    expect(store.device('A').state).toBeUndefined();
    expect(store.stateSnapshot()).toBe(before);
    store.receive('event', 'A', { Type: 'online', Online: 1, State: 1 });
    expect(store.stateSnapshot().get('A')).toBe(1);
    store.receive('event', 'A', { Type: 'warn', Code: 'E101', Active: 1, State: 2 });
    expect(store.device('A')).toMatchObject({ state: 2, codes: ['E101'] });
    store.receive('status', 'A', { Online: 0 });
    expect(store.device('A').state).toBe(0);
    store.receive('status', 'A', { Online: 1 });
    expect(store.device('A').state).toBe(2);
    store.receive('event', 'A', { Type: 'warn', Code: 'E101', Active: 0, State: 1 });
    expect(store.device('A')).toMatchObject({ state: 1, codes: [] });
  });

  it("tells alarm listeners of every device's alarm events, opened, cleared or handled, until they leave", () => {
    const store = new LiveStore();
    const heard: unknown[] = [];
    const leave = store.subscribeAlarms((event) => heard.push(event));
    store.receive('event', 'A', {
      Type: 'warn',
      Id: 7,
      Code: 'E101',
      Description: 'Pump fault',
      Active: 1,
      State: 2,
      Time: 1_763_800_000_000,
    });
    store.receive('event', 'B', { Type: 'warn', Id: 8, Code: 'O001', Active: 0, State: 1, Handled: 1, Time: 1_763_800_001_000 });
    store.receive('event', 'A', { Type: 'online', Online: 1, State: 2 });
    expect(heard).toEqual([
      { deviceSn: 'A', id: 7, code: 'E101', description: 'Pump fault', active: true, handled: false, time: 1_763_800_000_000 },
      { deviceSn: 'B', id: 8, code: 'O001', description: '', active: false, handled: true, time: 1_763_800_001_000 },
    ]);
    leave();
    store.receive('event', 'A', { Type: 'warn', Id: 9, Code: 'E102', Active: 1, State: 2 });
    expect(heard).toHaveLength(2);
  });

  it('takes error codes as a full list or one at a time, and forgets everything on clear', () => {
    const store = new LiveStore();
    store.receive('error', 'A', { Codes: ['E1', 'E2', 3] });
    expect(store.device('A').codes).toEqual(['E1', 'E2']);
    store.receive('error', 'A', { Code: 'E1', Active: 0 });
    store.receive('error', 'A', { Code: 'E9', Active: 1 });
    expect(store.device('A').codes).toEqual(['E2', 'E9']);
    store.receive('error', 'A', 'nonsense');
    expect(store.device('A').codes).toEqual(['E2', 'E9']);
    store.clear();
    expect(store.device('A').codes).toBeUndefined();
  });

  it('forgets, after a reconnect, only what was said before the mark', () => {
    const store = new LiveStore();
    store.receive('event', 'A', { Type: 'online', State: 1 });
    store.receive('event', 'B', { Type: 'online', State: 1 });
    const mark = store.mark();
    store.receive('event', 'B', { Type: 'online', State: 0 });
    let told = 0;
    store.subscribeDevice('A', () => (told += 1));
    store.forgetBefore(mark);
    expect(store.device('A').state).toBeUndefined();
    expect(store.stateSnapshot().has('A')).toBe(false);
    expect(store.device('B').state).toBe(0);
    expect(told).toBe(1);
  });

  it('tells command listeners what became of each command, and keeps the outcome for a sender whose call returns late', () => {
    const store = new LiveStore();
    const heard: unknown[] = [];
    const leave = store.subscribeCommands((event) => heard.push(event));
    store.receive('event', 'A', { Type: 'ack', Id: 'c1', Key: 'PumpRun', Success: true, Value: 1, Time: 1 });
    store.receive('event', 'A', {
      Type: 'ack',
      Id: 'c2',
      Key: 'PumpRun',
      Success: false,
      Value: 0,
      Message: 'auto mode: the station controls itself',
    });
    store.receive('event', 'A', { Type: 'timeout', Id: 'c3', Key: 'DOSet' });
    expect(heard).toEqual([
      { deviceSn: 'A', id: 'c1', key: 'PumpRun', outcome: 'done', value: 1 },
      {
        deviceSn: 'A',
        id: 'c2',
        key: 'PumpRun',
        outcome: 'refused',
        value: 0,
        message: 'auto mode: the station controls itself',
      },
      { deviceSn: 'A', id: 'c3', key: 'DOSet', outcome: 'timeout' },
    ]);
    expect(store.commandOutcome('c2')?.outcome).toBe('refused');
    // An answer after the time-out tells what really happened; a time-out after an answer changes nothing.
    store.receive('event', 'A', { Type: 'ack', Id: 'c3', Key: 'DOSet', Success: true });
    store.receive('event', 'A', { Type: 'timeout', Id: 'c1', Key: 'PumpRun' });
    expect(store.commandOutcome('c3')?.outcome).toBe('done');
    expect(store.commandOutcome('c1')?.outcome).toBe('done');
    expect(heard).toHaveLength(4);
    leave();
    store.receive('event', 'A', { Type: 'ack', Id: 'c4', Key: 'PumpRun', Success: true });
    expect(heard).toHaveLength(4);
  });
});
