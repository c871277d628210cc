import { describe, expect, it } from 'vitest';
import { checkDataDefinition, checkValue, displayValue, normalizeFormat, optionsOf } from './data-types.ts';
import { FILE_VERSION_PATTERN, parseMessageRef } from './rules.ts';
import { isValidFormula, parseFormula } from './formula.ts';
import { applyRangeFilter, dailyValueCounts, meetsStandard, parseRangeFilter, parseStandard } from './statistics.ts';
import { compareVersions } from './app-version.schema.ts';

const key = (ref: string | null | undefined) => (ref ? parseMessageRef(ref).key : null);

describe('data type defaults and formats (§9)', () => {
  it('gives boolean, enum and select their default formats', () => {
    expect(normalizeFormat('boolean', '')).toEqual({ format: '{"0":"0","1":"1"}' });
    expect(optionsOf('enum', '')).toEqual([
      { value: '0', label: 'low' },
      { value: '1', label: 'mid' },
      { value: '2', label: 'high' },
    ]);
    expect(optionsOf('select', '').map((o) => o.value)).toEqual(['1200', '9600']);
  });

  it('accepts select options as an array and keeps labels', () => {
    expect(normalizeFormat('select', '[1200, 2400, 9600]')).toEqual({ format: '{"1200":"1200","2400":"2400","9600":"9600"}' });
    expect(normalizeFormat('boolean', '{"0":"Stop","1":"Run"}')).toEqual({ format: '{"0":"Stop","1":"Run"}' });
  });

  it('refuses formats that do not fit the type', () => {
    expect('issue' in normalizeFormat('boolean', '{"0":"off","2":"on"}')).toBe(true);
    expect('issue' in normalizeFormat('enum', '{"a":"x"}')).toBe(true);
    expect('issue' in normalizeFormat('select', 'not json')).toBe(true);
    expect('issue' in normalizeFormat('textbox', '{"Min":5,"Max":1}')).toBe(true);
    expect('issue' in normalizeFormat('string', 'x')).toBe(true);
    expect(normalizeFormat('textbox', '2')).toEqual({ format: '2' });
    expect(normalizeFormat('time', 'HH:mm')).toEqual({ format: 'HH:mm' });
  });

  it('checks values against the type and its format', () => {
    expect(checkValue('boolean', '', '1')).toBeNull();
    expect(key(checkValue('boolean', '', '2'))).toBe('rule.valueOption');
    expect(checkValue('enum', '', '2')).toBeNull();
    expect(checkValue('select', '', '9600')).toBeNull();
    expect(key(checkValue('select', '', '4800'))).toBe('rule.valueOption');
    expect(key(checkValue('textbox', '', 'abc'))).toBe('rule.number');
    expect(key(checkValue('textbox', '{"Min":0,"Max":50}', '51'))).toBe('rule.valueMax');
    expect(key(checkValue('textbox', '', String(2 ** 31 + 1)))).toBe('rule.valueMax');
    expect(checkValue('time', '', '08:30')).toBeNull();
    expect(key(checkValue('time', '', '25:00'))).toBe('rule.valueTime');
    expect(checkValue('date', '', '2024-02-29')).toBeNull();
    expect(key(checkValue('date', '', '2023-02-29'))).toBe('rule.valueDate');
    expect(checkValue('datetime', '', '2024-05-01 12:00:00')).toBeNull();
    expect(checkValue('string', '', '')).toBeNull();
  });

  it('names the field of each issue', () => {
    expect(checkDataDefinition({ DataType: 'enum', DefaultValue: '7' }).issues.map((i) => i.field)).toEqual(['DefaultValue']);
    expect(checkDataDefinition({ DataType: 'select', Format: '[]' }).issues.map((i) => i.field)).toEqual(['Format']);
    expect(checkDataDefinition({ DataType: 'nope' }).issues.map((i) => i.field)).toEqual(['DataType']);
    expect(checkDataDefinition({ DataType: 'boolean', DefaultValue: '0' })).toEqual({ format: '{"0":"0","1":"1"}', issues: [] });
  });
});

describe('control formulas', () => {
  it('reads JSON with SettingValue and CurrentValue, or text separated by ||', () => {
    expect(parseFormula('{"SettingValue":"DOSet","CurrentValue":"DO"}')).toEqual({ SettingValue: 'DOSet', CurrentValue: 'DO' });
    expect(parseFormula('BlowerOnTime || Blower1Run')).toEqual({ SettingValue: 'BlowerOnTime', CurrentValue: 'Blower1Run' });
    expect(isValidFormula('')).toBe(true);
  });

  it('refuses anything else', () => {
    expect(parseFormula('{"SettingValue":"a"}')).toBeUndefined();
    expect(parseFormula('{"SettingValue":1,"CurrentValue":"b"}')).toBeUndefined();
    expect(parseFormula('a||')).toBeUndefined();
    expect(parseFormula('a||b||c')).toBeUndefined();
    expect(parseFormula('{broken')).toBeUndefined();
    expect(isValidFormula('just text')).toBe(false);
  });
});

describe('file versions', () => {
  it('follows V or v then major.minor.patch, numbers or x', () => {
    for (const good of ['V1.1.2', 'v1.1.x', 'V10.0.x', 'vx.x.x']) expect(FILE_VERSION_PATTERN.test(good), good).toBe(true);
    for (const bad of ['1.1.2', 'V1.1', 'V1.1.2.3', 'V1.a.2', 'v1.1.2-beta'])
      expect(FILE_VERSION_PATTERN.test(bad), bad).toBe(false);
  });

  it('orders versions numerically', () => {
    expect(compareVersions('V1.10.0', 'V1.9.9')).toBeGreaterThan(0);
    expect(compareVersions('v2.0.x', 'V2.0.0')).toBe(0);
    expect(compareVersions('V1.0.1', 'V1.0.2')).toBeLessThan(0);
  });
});

describe('statistics filters and standards (§5)', () => {
  it('reads min,max filters and counts out-of-range values as zero', () => {
    expect(parseRangeFilter('0,500')).toEqual({ min: 0, max: 500 });
    expect(parseRangeFilter('5，1')).toBeUndefined();
    expect(applyRangeFilter(600, 'range', '0,500')).toBe(0);
    expect(applyRangeFilter(300, 'range', '0,500')).toBe(300);
    expect(applyRangeFilter(600, 'none', '0,500')).toBe(600);
  });

  it('reads standards as a maximum or a band', () => {
    expect(parseStandard('50')).toEqual({ max: 50 });
    expect(parseStandard('6,9')).toEqual({ min: 6, max: 9 });
    expect(parseStandard('')).toEqual({});
    expect(parseStandard('abc')).toBeUndefined();
    expect(meetsStandard(5.5, '6,9')).toBe(false);
    expect(meetsStandard(0.4, '0.5')).toBe(true);
    expect(dailyValueCounts(4999, '50')).toBe(true);
    expect(dailyValueCounts(5000, '50')).toBe(false);
    expect(dailyValueCounts(1e9, '')).toBe(true);
  });
});

describe('displayValue', () => {
  it('shows labels of option types, numbers with their decimals, text as it is', () => {
    expect(displayValue('boolean', '{"0":"停止 Stop","1":"运行 Run"}', 1)).toBe('运行 Run');
    expect(displayValue('boolean', '', 0)).toBe('0');
    // Spec §5: an enum value above the largest key is lowered by 1.
    expect(displayValue('enum', '{"0":"手动","1":"自动"}', 2)).toBe('自动');
    expect(displayValue('enum', '{"0":"手动","1":"自动"}', 7)).toBe('6');
    expect(displayValue('enum', '{"0":"低","1":"中","2":"高"}', 1)).toBe('中');
    expect(displayValue('select', '{"0":"手动","1":"自动"}', 2)).toBe('2');
    expect(displayValue('readable', '{"Decimals":2}', 1.2)).toBe('1.20');
    expect(displayValue('readable', '1', 3.14159)).toBe('3.1');
    // Spec §9: 2 decimals when the format names none.
    expect(displayValue('monitor', '', 3.14159)).toBe('3.14');
    expect(displayValue('readable', '', 7)).toBe('7.00');
    expect(displayValue('string', '', 3.14159)).toBe('3.142');
    expect(displayValue('readable', '{"Decimals":2}', 'n/a')).toBe('n/a');
    expect(displayValue('string', '', 'V1.1.2')).toBe('V1.1.2');
  });
});
