/** The statistics rules against examples worked out by hand. */
import { describe, expect, it } from 'vitest';
import {
  bucketPasses,
  compliance,
  counterByDay,
  dailyValueCounts,
  filterRange,
  filteredTotal,
  minAvgMax,
  stateTimes,
  summarise,
  withinStandard,
} from './statistics-math.ts';
import { dayItem, monthItem } from './statistics.service.ts';
import type { StatisticDefinition } from './statistics.repository.ts';

const H = 3_600_000;
const DAY = 24 * H;
/** 2026-01-10 00:00 UTC; the examples use UTC days (offset 0) unless told. */
const D = Date.UTC(2026, 0, 10);

describe('instantaneous statistics and the range filter', () => {
  it('leaves a COD spike of 5000 out of the min, average and max under filter 0,1000', () => {
    const range = filterRange('range', '0,1000');
    // 40 + 45 + 50 = 135 over 3 readings: average 45; the spike is counted as filtered.
    const s = summarise([40, 45, 5000, 50], range);
    expect(minAvgMax(s)).toEqual({ Min: 40, Avg: 45, Max: 50, Count: 3 });
    expect(s.filtered).toBe(1);
    // Without the filter the spike would dominate: (40 + 45 + 5000 + 50) / 4 = 1283.75.
    expect(minAvgMax(summarise([40, 45, 5000, 50], filterRange('none', '0,1000')))?.Avg).toBe(1283.75);
  });

  it('takes a bucket whole only when its min and max are both within the range', () => {
    const range = filterRange('range', '0,1000');
    expect(bucketPasses({ min: 0, max: 1000 }, range)).toBe(true);
    expect(bucketPasses({ min: 20, max: 5000 }, range)).toBe(false);
    expect(bucketPasses({ min: -1, max: 50 }, range)).toBe(false);
    expect(bucketPasses({ min: -1, max: 5000 }, undefined)).toBe(true);
  });

  it('rounds to 3 decimals and has no figures without a counted reading', () => {
    expect(minAvgMax(summarise([1, 1, 2], undefined))?.Avg).toBe(1.333);
    expect(minAvgMax(summarise([5000], filterRange('range', '0,1000')))).toBeNull();
  });
});

describe('cumulative statistics from a counter', () => {
  it('counts a fall as a reset: the new reading is what the counter counted since', () => {
    const readings = [
      { ts: D + 1 * H, value: 100 },
      { ts: D + 2 * H, value: 150 }, // +50
      { ts: D + 3 * H, value: 30 }, // reset: +30
      { ts: D + 4 * H, value: 80 }, // +50
    ];
    expect(counterByDay(readings, D, D + DAY, 0)).toEqual(new Map([[D, 130]]));
  });

  it('shares the rise across a gap among the days of the gap by time', () => {
    // 22:00 on day 1 to 02:00 on day 2: +40 over 4 hours, 2 hours in each day.
    const readings = [
      { ts: D + 20 * H, value: 60 },
      { ts: D + 22 * H, value: 100 }, // +40 on day 1
      { ts: D + DAY + 2 * H, value: 140 },
    ];
    expect(counterByDay(readings, D, D + 2 * DAY, 0)).toEqual(
      new Map([
        [D, 60],
        [D + DAY, 20],
      ]),
    );
    // A three-day outage: +72 over 72 hours is 24 a day, none of it outside the range.
    const outage = [
      { ts: D, value: 0 },
      { ts: D + 3 * DAY, value: 72 },
    ];
    expect(counterByDay(outage, D, D + 2 * DAY, 0)).toEqual(
      new Map([
        [D, 24],
        [D + DAY, 24],
      ]),
    );
  });

  it('counts from the reading before the range only the part of the rise inside it', () => {
    // 23:00 the day before at 90, 01:00 at 100: +10 over 2 hours, 1 of them in range.
    const readings = [
      { ts: D - H, value: 90 },
      { ts: D + H, value: 100 },
      { ts: D + 5 * H, value: 130 },
    ];
    expect(counterByDay(readings, D, D + DAY, 0)).toEqual(new Map([[D, 35]]));
  });

  it('uses local days (UTC+8): 20:00 UTC is 04:00 of the next local day', () => {
    const offset = 480;
    const localDay = D + DAY - 8 * H; // 2026-01-11 00:00 at UTC+8
    const readings = [
      { ts: D + 17 * H, value: 10 }, // 01:00 local on the 11th
      { ts: D + 20 * H, value: 25 },
    ];
    expect(counterByDay(readings, localDay, localDay + DAY, offset)).toEqual(new Map([[localDay, 15]]));
  });

  it('counts a daily total out of the range filter as zero', () => {
    const range = filterRange('range', '0,100000');
    expect(filteredTotal(250, range)).toEqual({ total: 250, filtered: false });
    expect(filteredTotal(4_000_000, range)).toEqual({ total: 0, filtered: true });
  });
});

describe('standards', () => {
  it('counts a daily value only below 100 times the standard', () => {
    expect(dailyValueCounts(4999, '50')).toBe(true);
    expect(dailyValueCounts(5000, '50')).toBe(false);
    expect(dailyValueCounts(1e9, '')).toBe(true);
  });

  it('judges a day against a maximum or a band, and not at all without a standard', () => {
    expect(withinStandard(50, '50')).toBe(true);
    expect(withinStandard(50.001, '50')).toBe(false);
    expect(withinStandard(5.5, '6,9')).toBe(false);
    expect(withinStandard(7, '6,9')).toBe(true);
    expect(withinStandard(7, '')).toBeNull();
  });

  it('rates compliance over the days with a verdict', () => {
    expect(compliance([true, false, null, true])).toEqual({ MeasuredDays: 3, CompliantDays: 2, Rate: 0.667 });
    expect(compliance([null])).toEqual({ MeasuredDays: 0, CompliantDays: 0, Rate: null });
  });
});

describe('time in each state', () => {
  it('holds each reading until the next one', () => {
    const m = 60_000;
    const readings = [
      { ts: D, state: '1' },
      { ts: D + 10 * m, state: '0' },
      { ts: D + 40 * m, state: '1' },
    ];
    // '1': 0–10 and 40–60 = 30 minutes; '0': 10–40 = 30 minutes.
    expect(stateTimes(readings, D, D + 60 * m, H)).toEqual({
      states: [
        { State: '0', Seconds: 1800, Share: 0.5 },
        { State: '1', Seconds: 1800, Share: 0.5 },
      ],
      knownSeconds: 3600,
      unknownSeconds: 0,
    });
  });

  it('holds a reading at most the hold time, and carries the reading before the range into it', () => {
    const readings = [
      { ts: D - 30 * 60_000, state: '2' },
      { ts: D + H, state: '1' },
    ];
    // '2' from the range start to 00:30 (its hour ends); nothing known 00:30–01:00; '1' 01:00–02:00, then unknown.
    const times = stateTimes(readings, D, D + 3 * H, H);
    expect(times.states).toEqual([
      { State: '1', Seconds: 3600, Share: 0.667 },
      { State: '2', Seconds: 1800, Share: 0.333 },
    ]);
    expect(times.unknownSeconds).toBe(5400);
  });
});

describe('a day and a month of one statistic', () => {
  const cod: StatisticDefinition = {
    typeId: 1,
    key: 'COD_Out',
    name: 'Effluent COD',
    staticsType: 'discrete',
    displayType: 'table',
    standard: '50',
    filter: '',
    filterType: 'none',
    showState: true,
    sUnit: 'mg/L',
    unit: 'mg/L',
    format: '',
    dataType: 'readable',
  };
  const day = (values: number[]) => ({ summary: summarise(values, undefined) });

  it('marks a day over the standard, and leaves out a day at 100 × the standard', () => {
    expect(dayItem(cod, day([40, 44])).Compliant).toBe(true);
    expect(dayItem(cod, day([60, 62])).Compliant).toBe(false);
    const wild = dayItem(cod, day([6000]));
    expect(wild).toMatchObject({ Excluded: true, Compliant: null });
  });

  it('builds a month only from the days that count', () => {
    // Days: avg 42 (ok), avg 61 (over), avg 6000 (left out). Month: readings 40, 44, 60, 62.
    const month = monthItem(cod, [day([40, 44]), day([60, 62]), day([6000])]);
    expect(month.Values).toEqual({ Min: 40, Avg: 51.5, Max: 62, Count: 4, Filtered: 0 });
    expect(month).toMatchObject({ MeasuredDays: 2, CompliantDays: 1 });
  });

  it('sums a counter month from its daily totals', () => {
    const flow = { ...cod, key: 'FlowTotal', staticsType: 'cumulative', standard: '' };
    const month = monthItem(flow, [
      { total: 120.5, filtered: false },
      { total: 0, filtered: true },
      { total: 99.25, filtered: false },
    ]);
    expect(month.Values).toEqual({ Total: 219.75, Count: 3, Filtered: 1 });
  });
});
