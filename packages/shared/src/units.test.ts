import { describe, expect, it } from 'vitest';
import { canonicalUnit, convertUnit, familiesOf, unitDefinition } from './units.ts';

describe('unit families of §9', () => {
  it('converts within a family by the steps of §9', () => {
    expect(convertUnit(2, 'h', 's')).toBe(7200);
    expect(convertUnit(1, 'M', 'd')).toBe(30);
    expect(convertUnit(1, 'y', 's')).toBe(31536000);
    expect(convertUnit(1500, 'mg/L', 'g/L')).toBe(1.5);
    expect(convertUnit(1, 'MPa', 'KPa')).toBe(1000);
    expect(convertUnit(500, 'Pa', 'KPa')).toBe(0.5);
    expect(convertUnit(3, 'V', 'mV')).toBe(3000);
    expect(convertUnit(2, 'A', 'mA')).toBe(2000);
    expect(convertUnit(1, 'MHZ', 'KHZ')).toBe(1000);
    expect(convertUnit(2.5, 'KW', 'W')).toBe(2500);
    expect(convertUnit(1, 'm3/H', 'm3/d')).toBe(24);
    expect(convertUnit(1.2, 'm', 'cm')).toBeCloseTo(120);
  });

  it('knows m as a minute and a metre, and converts by the family holding both units', () => {
    expect(
      familiesOf('m')
        .map((f) => f.id)
        .sort(),
    ).toEqual(['length', 'time']);
    expect(convertUnit(3, 'm', 's')).toBe(180);
    expect(convertUnit(3, 'm', 'mm')).toBe(3000);
  });

  it('refuses conversions across families or without a step', () => {
    expect(convertUnit(1, 'm3', 'm3/d')).toBeUndefined();
    expect(convertUnit(1, 'mg/L', 'ppm')).toBeUndefined();
    expect(convertUnit(1, 'V', 'A')).toBeUndefined();
  });

  it('reads the spellings people type', () => {
    expect(canonicalUnit('m3/h')).toBe('m3/H');
    expect(canonicalUnit('kWh')).toBe('kW·h');
    expect(canonicalUnit('M')).toBe('M');
    expect(canonicalUnit('hz')).toBe('HZ');
    expect(canonicalUnit('')).toBe('');
    expect(canonicalUnit('furlong')).toBeUndefined();
  });

  it('caps HZ at 50', () => {
    expect(unitDefinition('HZ')?.max).toBe(50);
  });
});
