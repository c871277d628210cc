/**
 * The History chart's option beyond what the tab's tests see: a min/max band is drawn for each
 * line only while the chart has few lines, thinned to an envelope that still holds every bucket's
 * minimum and maximum, and lines are sampled to the axis' pixels.
 */
import { describe, expect, it } from 'vitest';
import { BANDS_UP_TO, envelope, historyOption, type HistoryLine } from './history-option';

const COLORS = { text: '#000', secondaryText: '#666', line: '#ddd', tooltipBackground: '#fff' };
const line = (key: string, n: number): HistoryLine => ({
  key,
  label: key,
  unit: 'm',
  decimals: 2,
  points: Array.from({ length: n }, (_, i) => [i, i % 7]),
  bands: Array.from({ length: n }, (_, i) => [i, (i % 7) - (i === 333 ? 50 : 1), (i % 7) + (i === 777 ? 90 : 1)]),
});
const drawn = (lines: HistoryLine[]) =>
  historyOption(lines, COLORS, String, { from: 0, to: 2000 }).series as { name: string; sampling?: string; data: unknown[] }[];

describe('the History chart option', () => {
  it('thins a band to an envelope that keeps each stretch’s lowest minimum and highest maximum', () => {
    const bands = line('a', 2000).bands ?? [];
    const thin = envelope(bands, 400);
    expect(thin.length).toBeLessThanOrEqual(400);
    expect(Math.min(...thin.map((b) => b[1]))).toBe(Math.min(...bands.map((b) => b[1])));
    expect(Math.max(...thin.map((b) => b[2]))).toBe(Math.max(...bands.map((b) => b[2])));
    expect(envelope(bands.slice(0, 3), 400)).toEqual(bands.slice(0, 3));
  });

  it('draws bands while the chart has few lines, and none beside many', () => {
    const few = drawn(Array.from({ length: BANDS_UP_TO }, (_, i) => line(`k${String(i)}`, 2000)));
    // A line each, then two series per band (its minimum and the spread stacked on it).
    expect(few).toHaveLength(BANDS_UP_TO * 3);
    expect(few.slice(BANDS_UP_TO).every((s) => s.data.length <= 400)).toBe(true);
    const many = drawn(Array.from({ length: BANDS_UP_TO + 1 }, (_, i) => line(`k${String(i)}`, 2000)));
    expect(many).toHaveLength(BANDS_UP_TO + 1);
    expect(many.every((s) => s.sampling === 'lttb' && s.data.length === 2000)).toBe(true);
  });
});
