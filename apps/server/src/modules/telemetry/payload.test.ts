import { describe, expect, it } from 'vitest';
import { parseAck, parseData, parseError, parseStatus } from './payload.ts';
import { checkValue } from './data-validation.ts';
import { minMax, mergeBuckets } from './downsample.ts';
import { dayOf, hourOf } from './rollup.ts';

const NOW = Date.UTC(2026, 10, 22, 2, 0);
const buf = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v));

describe('device payloads', () => {
  it('reads data points with Time, and a gateway’s buffered array', () => {
    const one = parseData(buf({ Time: NOW - 1000, Inflow: 8.5, Run: true, Note: 'ok' }), 480, NOW);
    expect(one).toEqual({ ok: true, value: [{ ts: NOW - 1000, values: { Inflow: 8.5, Run: true, Note: 'ok' }, refused: [] }] });
    const many = parseData(buf([{ Time: NOW - 2000, A: 1 }, { A: 2 }]), 480, NOW);
    expect(many.ok && many.value.map((r) => r.ts)).toEqual([NOW - 2000, NOW]);
  });

  it('refuses what is not data, and values that are not values', () => {
    expect(parseData(buf('not json'), 480, NOW)).toMatchObject({ ok: false, reason: 'payload is not JSON' });
    expect(parseData(buf([1, 2]), 480, NOW)).toMatchObject({ ok: false });
    expect(parseData(buf({ Time: NOW + 2 * 86_400_000, A: 1 }), 480, NOW)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('future') as unknown,
    });
    expect(parseData(buf({}), 480, NOW)).toMatchObject({ ok: false });
    const mixed = parseData(buf({ A: null, 'b c': 1, C: { x: 1 }, D: 2 }), 480, NOW);
    expect(mixed.ok && mixed.value[0]?.refused.map((r) => r.key)).toEqual(['A', 'b c', 'C']);
  });

  it('refuses times outside [2000-01-01, a day ahead] without throwing, whatever the clock sent', () => {
    const reason = (time: unknown) => {
      const parsed = parseData(buf({ Time: time, A: 1 }), 480, NOW);
      return parsed.ok ? 'taken' : parsed.reason;
    };
    // A nanosecond clock, and times past what a Date can hold.
    expect(reason(1.7e18)).toBe('Time 1700000000000000000 is more than a day in the future');
    expect(reason(8.64e15 + 1)).toBe('Time 8640000000000001 is more than a day in the future');
    expect(reason(1e300)).toMatch(/^Time 1e\+300 is more than a day in the future$/);
    expect(reason(NOW + 86_400_000 + 1)).toMatch(/more than a day in the future$/);
    expect(reason(NOW + 86_400_000)).toBe('taken');
    // A clock that was never set.
    expect(reason('1970-01-01 08:00:00')).toBe('Time "1970-01-01 08:00:00" is before 2000-01-01');
    expect(reason(Date.UTC(1999, 11, 31, 23, 59, 59) / 1000)).toMatch(/before 2000-01-01$/);
    expect(reason(Date.UTC(2000, 0, 1))).toBe('taken');
    expect(reason('x'.repeat(100))).toBe(`Time "${'x'.repeat(39)}… is not a time`);
    // Error and status messages read their Time the same way.
    expect(parseError(buf({ Time: 1.7e18, Codes: [] }), 480, NOW)).toMatchObject({ ok: false });
    expect(parseStatus(buf({ Time: 1.7e18, Online: 1 }), 480, NOW)).toMatchObject({ ok: true, value: { ts: NOW } });
  });

  it('refuses text a database cannot hold, and keeps control characters out of acknowledgements', () => {
    const parsed = parseData(buf({ Note: 'a\u0000b', Level: 1 }), 480, NOW);
    expect(parsed.ok && parsed.value[0]).toMatchObject({ values: { Level: 1 }, refused: [{ key: 'Note' }] });
    expect(parseAck(buf({ Id: 'a\u0000b' }))).toMatchObject({ ok: false });
    expect(parseAck(buf({ Id: 'abc', Message: 'no\u0000\npe', Value: 'x\u0000' }))).toMatchObject({
      ok: true,
      value: { Message: 'no  pe', Value: 'x ' },
    });
  });

  it('reads error codes, status and acknowledgements', () => {
    expect(parseError(buf({ Codes: ['E101', 205] }), 480, NOW)).toEqual({ ok: true, value: { ts: NOW, codes: ['E101', '205'] } });
    expect(parseError(buf({ Code: 'E1', Active: 0 }), 480, NOW)).toEqual({
      ok: true,
      value: { ts: NOW, change: { code: 'E1', active: false } },
    });
    expect(parseError(buf({ Codes: ['bad code!'] }), 480, NOW)).toMatchObject({ ok: false });
    expect(parseStatus(buf({ Online: 0 }), 480, NOW)).toMatchObject({ ok: true, value: { online: false } });
    expect(parseStatus(buf('online'), 480, NOW)).toMatchObject({ ok: true, value: { online: true } });
    expect(parseStatus(buf({ Online: 'maybe' }), 480, NOW)).toMatchObject({ ok: false });
    expect(parseAck(buf({ Id: 'abc', Success: false, Message: 'faulted' }))).toEqual({
      ok: true,
      value: { Id: 'abc', Success: false, Message: 'faulted' },
    });
    expect(parseAck(buf({ Success: true }))).toMatchObject({ ok: false });
  });

  it('checks values against their data types', () => {
    expect(checkValue('12.5', 'monitor')).toEqual({ ok: true, value: { num: 12.5, txt: null } });
    expect(checkValue('high', 'readable')).toMatchObject({ ok: false });
    expect(checkValue(true, 'boolean')).toEqual({ ok: true, value: { num: 1, txt: null } });
    expect(checkValue(2, 'boolean2')).toMatchObject({ ok: false });
    expect(checkValue(1.5, 'enum')).toMatchObject({ ok: false });
    expect(checkValue('9600', 'select')).toEqual({ ok: true, value: { num: 9600, txt: null } });
    expect(checkValue(42, 'string')).toEqual({ ok: true, value: { num: null, txt: '42' } });
    expect(checkValue('08:30', 'time')).toEqual({ ok: true, value: { num: null, txt: '08:30' } });
  });
});

describe('downsampling and buckets', () => {
  it('keeps the lowest and highest point of each bucket, in time order', () => {
    const ts = Array.from({ length: 1000 }, (_, i) => i);
    const values = ts.map((i) => (i === 500 ? 100 : i === 501 ? -100 : Math.sin(i / 10)));
    const points = minMax(ts, values, 0, 1000, 100);
    expect(points.times.length).toBeLessThanOrEqual(100);
    expect(points.values).toHaveLength(points.times.length);
    expect(points.values).toContain(100);
    expect(points.values).toContain(-100);
    expect(points.times).toEqual([...points.times].sort((a, b) => a - b));
    expect(minMax([1, 2], [3, 4], 0, 10, 100)).toEqual({ times: [1, 2], values: [3, 4] });
  });

  it('merges roll-up buckets to at most the points asked for', () => {
    const rows = Array.from({ length: 10 }, (_, i) => i);
    const columns = {
      length: 10,
      bucket: rows,
      cnt: rows.map(() => 2),
      sum: rows.map((i) => 2 * i),
      min: new Float64Array(rows.map((i) => i - 1)),
      max: new Float64Array(rows.map((i) => i + 1)),
    };
    const merged = mergeBuckets(columns, 3);
    expect(merged.times.length).toBeLessThanOrEqual(3);
    // The first point holds buckets 0–3: 8 readings summing to 12.
    expect([merged.times[0], merged.values[0], merged.mins[0], merged.maxs[0]]).toEqual([0, 1.5, -1, 4]);
    expect(merged.count).toBe(20);
    expect(mergeBuckets(columns, 100).values).toEqual(rows);
  });

  it('cuts hours and days at local boundaries', () => {
    const t = Date.UTC(2026, 10, 21, 17, 30); // 01:30 on 22 November in UTC+8
    expect(dayOf(t, 480)).toBe(Date.UTC(2026, 10, 21, 16));
    expect(hourOf(t, 480)).toBe(Date.UTC(2026, 10, 21, 17));
    expect(hourOf(t, -330)).toBe(Date.UTC(2026, 10, 21, 17, 30));
  });
});
