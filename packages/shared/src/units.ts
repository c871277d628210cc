/**
 * Unit families of spec §9: each unit's factor to its family's base, so values convert within a
 * family. A unit symbol may sit in two families ('m' is a minute and a metre); conversion
 * picks the family that holds both units.
 */
export interface UnitDefinition {
  symbol: string;
  /** How many base units one of this unit is; absent where the family does not convert. */
  factor?: number;
  /** The largest value a control in this unit's family accepts, in this unit (HZ: 50, §9). */
  max?: number;
  /** The smallest value a control in this unit's family accepts, in this unit (s: 10, §5 and §9). */
  min?: number;
}

export interface UnitFamily {
  id: string;
  name: { 'en-US': string; 'zh-CN': string };
  base: string;
  units: UnitDefinition[];
}

export const UNIT_FAMILIES: readonly UnitFamily[] = [
  {
    id: 'time',
    name: { 'en-US': 'Time', 'zh-CN': '时间' },
    base: 's',
    units: [
      { symbol: 's', factor: 1, min: 10 },
      { symbol: 'm', factor: 60 },
      { symbol: 'h', factor: 3600 },
      { symbol: 'd', factor: 86400 },
      { symbol: 'M', factor: 2592000 },
      { symbol: 'y', factor: 31536000 },
    ],
  },
  { id: 'energy', name: { 'en-US': 'Energy', 'zh-CN': '电能' }, base: 'kW·h', units: [{ symbol: 'kW·h', factor: 1 }] },
  {
    id: 'flow',
    name: { 'en-US': 'Flow', 'zh-CN': '流量' },
    base: 'm3',
    // A volume and two rates: only the rates convert into each other (1 m3/H = 24 m3/d).
    units: [{ symbol: 'm3' }, { symbol: 'm3/d', factor: 1 }, { symbol: 'm3/H', factor: 24 }],
  },
  {
    id: 'concentration',
    name: { 'en-US': 'Concentration', 'zh-CN': '浓度' },
    base: 'mg/L',
    units: [{ symbol: 'mg/L', factor: 1 }, { symbol: 'g/L', factor: 1000 }, { symbol: 'ppm' }],
  },
  {
    id: 'pressure',
    name: { 'en-US': 'Pressure', 'zh-CN': '压力' },
    base: 'KPa',
    units: [
      { symbol: 'Pa', factor: 0.001 },
      { symbol: 'KPa', factor: 1 },
      { symbol: 'MPa', factor: 1000 },
    ],
  },
  {
    id: 'voltage',
    name: { 'en-US': 'Voltage', 'zh-CN': '电压' },
    base: 'mV',
    units: [
      { symbol: 'mV', factor: 1 },
      { symbol: 'V', factor: 1000 },
    ],
  },
  {
    id: 'speed',
    name: { 'en-US': 'Speed', 'zh-CN': '转速' },
    base: 'RPM',
    units: [
      { symbol: 'RPM', factor: 1 },
      { symbol: 'RPS', factor: 60 },
    ],
  },
  {
    id: 'length',
    name: { 'en-US': 'Length', 'zh-CN': '长度' },
    base: 'mm',
    units: [
      { symbol: 'mm', factor: 1 },
      { symbol: 'cm', factor: 10 },
      { symbol: 'dm', factor: 100 },
      { symbol: 'm', factor: 1000 },
      { symbol: 'km', factor: 1_000_000 },
    ],
  },
  {
    id: 'current',
    name: { 'en-US': 'Current', 'zh-CN': '电流' },
    base: 'mA',
    units: [
      { symbol: 'mA', factor: 1 },
      { symbol: 'A', factor: 1000 },
    ],
  },
  {
    id: 'frequency',
    name: { 'en-US': 'Frequency', 'zh-CN': '频率' },
    base: 'HZ',
    units: [
      { symbol: 'HZ', factor: 1, max: 50 },
      { symbol: 'KHZ', factor: 1000 },
      { symbol: 'MHZ', factor: 1_000_000 },
    ],
  },
  {
    id: 'power',
    name: { 'en-US': 'Power', 'zh-CN': '功率' },
    base: 'W',
    units: [
      { symbol: 'W', factor: 1 },
      { symbol: 'KW', factor: 1000 },
      { symbol: 'MW', factor: 1_000_000 },
    ],
  },
  { id: 'temperature', name: { 'en-US': 'Temperature', 'zh-CN': '温度' }, base: '℃', units: [{ symbol: '℃', factor: 1 }] },
  { id: 'humidity', name: { 'en-US': 'Humidity', 'zh-CN': '湿度' }, base: '%', units: [{ symbol: '%', factor: 1 }] },
];

/** Other spellings people type, mapped to the symbol of §9. */
const ALIASES: Record<string, string> = {
  kwh: 'kW·h',
  'kw.h': 'kW·h',
  'kw*h': 'kW·h',
  'kw·h': 'kW·h',
  '°c': '℃',
  'm³': 'm3',
  'm³/h': 'm3/H',
  'm³/d': 'm3/d',
  hz: 'HZ',
  khz: 'KHZ',
  mhz: 'MHZ',
  kpa: 'KPa',
};

export const UNIT_SYMBOLS: readonly string[] = [...new Set(UNIT_FAMILIES.flatMap((f) => f.units.map((u) => u.symbol)))];

/**
 * The symbol of §9 that a typed unit means: exact symbols first (so 'M' stays a month and 'm'
 * a minute or metre), then known spellings and a case-insensitive match when that is unique.
 * '' is no unit. Undefined when the unit is not in any family.
 */
export function canonicalUnit(unit: string): string | undefined {
  const text = unit.trim();
  if (text === '') return '';
  if (UNIT_SYMBOLS.includes(text)) return text;
  const lower = text.toLowerCase();
  const alias = ALIASES[lower];
  if (alias) return alias;
  const matches = UNIT_SYMBOLS.filter((s) => s.toLowerCase() === lower);
  return matches.length === 1 ? matches[0] : undefined;
}

/** The families a unit symbol belongs to. */
export function familiesOf(symbol: string): UnitFamily[] {
  return UNIT_FAMILIES.filter((f) => f.units.some((u) => u.symbol === symbol));
}

export function unitDefinition(symbol: string): UnitDefinition | undefined {
  for (const family of UNIT_FAMILIES) {
    const found = family.units.find((u) => u.symbol === symbol);
    if (found) return found;
  }
  return undefined;
}

/** Converts a value between two units of one family; undefined when they do not convert. */
export function convertUnit(value: number, from: string, to: string): number | undefined {
  if (from === to) return value;
  for (const family of UNIT_FAMILIES) {
    const a = family.units.find((u) => u.symbol === from);
    const b = family.units.find((u) => u.symbol === to);
    if (a?.factor !== undefined && b?.factor !== undefined) return (value * a.factor) / b.factor;
  }
  return undefined;
}
