import { describe, expect, it } from 'vitest';
import { DEFAULT_DECIMALS, formatLargeNumber, formatNumber, roundValue, unitText } from './number-format.ts';

describe('decimals (§9)', () => {
  it('rounds values to 3 decimals and formats numbers to 2 unless told otherwise', () => {
    expect(roundValue(2.34567)).toBe(2.346);
    expect(roundValue(2.34567, 1)).toBe(2.3);
    expect(DEFAULT_DECIMALS).toBe(2);
    expect(formatNumber(3.14159)).toBe('3.14');
    expect(formatNumber(7)).toBe('7.00');
    expect(formatNumber(3.14159, 0)).toBe('3');
    expect(formatNumber(Number.NaN)).toBe('—');
  });
});

describe('large numbers (§9)', () => {
  it('reads Chinese numbers by 万, 千万 and 亿', () => {
    expect(formatLargeNumber(9999, 'zh-CN')).toBe('9999');
    expect(formatLargeNumber(12_345, 'zh-CN')).toBe('1.23万');
    expect(formatLargeNumber(20_000, 'zh-CN')).toBe('2万');
    expect(formatLargeNumber(23_456_789, 'zh-CN')).toBe('2.35千万');
    expect(formatLargeNumber(345_678_901, 'zh-CN')).toBe('3.46亿');
    expect(formatLargeNumber(-12_345, 'zh-CN')).toBe('-1.23万');
    expect(formatLargeNumber(0.456, 'zh-CN')).toBe('0.46');
  });

  it('groups thousands in English, to the decimals asked', () => {
    expect(formatLargeNumber(12_345.678, 'en-US')).toBe('12,345.68');
    expect(formatLargeNumber(0.4567, 'en-US', 3)).toBe('0.457');
    expect(formatLargeNumber(Number.NaN, 'en-US')).toBe('—');
  });

  it('prints cubic metres with a superscript', () => {
    expect(unitText('m3')).toBe('m³');
    expect(unitText('m3/d')).toBe('m³/d');
    expect(unitText('m3/H')).toBe('m³/h');
    expect(unitText('kW·h')).toBe('kW·h');
  });
});
