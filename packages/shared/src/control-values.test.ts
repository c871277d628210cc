import { describe, expect, it } from 'vitest';
import { checkControlValue, controlLimits, secondsPerUnit, type ControlCheck, type ControlDefinition } from './control-values.ts';
import { parseMessageRef } from './rules.ts';

/** The refusal's message reference as key and parameters, or the accepted value. */
function outcome(check: ControlCheck): { value: number | string } | { key: string; params: Record<string, string> } {
  return check.ok ? { value: check.value } : parseMessageRef(check.message);
}
const refusal = (key: string, params: Record<string, string> = {}) => ({ key, params });

const doSetPoint: ControlDefinition = {
  dataType: 'textbox',
  format: '{"Min":0,"Max":8,"Step":0.1,"Decimals":1}',
  unit: 'mg/L',
};
const blowerOnTime: ControlDefinition = {
  dataType: 'textbox',
  format: '{"Min":10,"Max":86400,"Step":1,"Decimals":0}',
  unit: 's',
  showType: 'time',
};
const controlMode: ControlDefinition = {
  dataType: 'enum',
  format: '{"0":"Manual","1":"Auto","2":"Self-check"}',
  unit: '',
};

describe('control values against their data point (§5, §9)', () => {
  it('keeps numbers within the format’s Min and Max, naming the limit with its unit', () => {
    expect(outcome(checkControlValue(doSetPoint, 99999999999))).toEqual(refusal('rule.valueMax', { max: '8 mg/L' }));
    expect(outcome(checkControlValue(doSetPoint, 8.1))).toEqual(refusal('rule.valueMax', { max: '8 mg/L' }));
    expect(outcome(checkControlValue(doSetPoint, -0.1))).toEqual(refusal('rule.valueMin', { min: '0 mg/L' }));
    expect(outcome(checkControlValue(doSetPoint, 8))).toEqual({ value: 8 });
    expect(outcome(checkControlValue(doSetPoint, 0))).toEqual({ value: 0 });
    expect(outcome(checkControlValue(doSetPoint, '3.3'))).toEqual({ value: 3.3 });
  });

  it('keeps numbers on the format’s Step, counted from Min, and to its Decimals when there is no Step', () => {
    expect(outcome(checkControlValue(doSetPoint, 2.55))).toEqual(refusal('rule.valueStep', { step: '0.1', base: '0' }));
    expect(outcome(checkControlValue(doSetPoint, 0.7))).toEqual({ value: 0.7 });
    const odd = { dataType: 'textbox', format: '{"Min":1,"Max":9,"Step":2}', unit: '' };
    expect(outcome(checkControlValue(odd, 4))).toEqual(refusal('rule.valueStep', { step: '2', base: '1' }));
    expect(outcome(checkControlValue(odd, 5))).toEqual({ value: 5 });
    const oneDecimal = { dataType: 'textbox', format: '1', unit: 'm3/H' };
    expect(outcome(checkControlValue(oneDecimal, 2.55))).toEqual(refusal('rule.valueDecimals', { decimals: '1' }));
    expect(outcome(checkControlValue(oneDecimal, 2.5))).toEqual({ value: 2.5 });
  });

  it('bounds numbers without a format by ±2^31 (§9’s default max)', () => {
    const plain = { dataType: 'textbox', format: '', unit: '' };
    expect(outcome(checkControlValue(plain, 2 ** 31))).toEqual({ value: 2 ** 31 });
    expect(outcome(checkControlValue(plain, 2 ** 31 + 1))).toEqual(refusal('rule.valueMax', { max: '2147483648' }));
    expect(outcome(checkControlValue(plain, -(2 ** 31) - 1))).toEqual(refusal('rule.valueMin', { min: '-2147483648' }));
  });

  it('refuses what is not a number for a number', () => {
    for (const value of ['abc', '', '1e3', true, null, undefined, Number.NaN, Number.POSITIVE_INFINITY, { v: 1 }, [1]]) {
      expect(outcome(checkControlValue(doSetPoint, value)), JSON.stringify(value)).toEqual(refusal('rule.number'));
    }
  });

  it('keeps durations above 10 seconds (10 s itself refused), in whatever time unit they are set', () => {
    expect(outcome(checkControlValue(blowerOnTime, 5))).toEqual(refusal('rule.valueSeconds', { seconds: '10' }));
    // §5 "seconds must exceed 10", §9 "more than 10 s": the format's Min 10 does not let 10 s through.
    expect(outcome(checkControlValue(blowerOnTime, 10))).toEqual(refusal('rule.valueSeconds', { seconds: '10' }));
    expect(outcome(checkControlValue(blowerOnTime, 11))).toEqual({ value: 11 });
    const seconds = { dataType: 'textbox', format: '', unit: 's' };
    expect(outcome(checkControlValue(seconds, 9))).toEqual(refusal('rule.valueSeconds', { seconds: '10' }));
    expect(outcome(checkControlValue(seconds, 10))).toEqual(refusal('rule.valueSeconds', { seconds: '10' }));
    expect(outcome(checkControlValue(seconds, 10.5))).toEqual({ value: 10.5 });
    const hours = { dataType: 'textbox', format: '{"Decimals":3}', unit: 'h' };
    expect(outcome(checkControlValue(hours, 0.002))).toEqual(refusal('rule.valueSeconds', { seconds: '10' }));
    expect(outcome(checkControlValue(hours, 0.003))).toEqual({ value: 0.003 });
    // 'm' is a minute on a control shown as a time, else a metre (a level set-point of 0.1 m).
    const minutes = { dataType: 'textbox', format: '{"Decimals":2}', unit: 'm', showType: 'time' };
    expect(outcome(checkControlValue(minutes, 0.1))).toEqual(refusal('rule.valueSeconds', { seconds: '10' }));
    expect(outcome(checkControlValue(minutes, 0.5))).toEqual({ value: 0.5 });
    expect(outcome(checkControlValue({ ...minutes, format: '' }, 10 / 60))).toEqual(
      refusal('rule.valueSeconds', { seconds: '10' }),
    );
    const metres = { dataType: 'textbox', format: '{"Min":0,"Max":5,"Step":0.1}', unit: 'm', showType: 'input' };
    expect(outcome(checkControlValue(metres, 0.1))).toEqual({ value: 0.1 });
  });

  it('keeps frequencies at 50 HZ or less, in whatever frequency unit, and below a lower Max', () => {
    const hz = { dataType: 'textbox', format: '', unit: 'HZ' };
    expect(outcome(checkControlValue(hz, 51))).toEqual(refusal('rule.valueMax', { max: '50 HZ' }));
    expect(outcome(checkControlValue(hz, 50))).toEqual({ value: 50 });
    expect(outcome(checkControlValue({ ...hz, unit: 'hz' }, 60))).toEqual(refusal('rule.valueMax', { max: '50 HZ' }));
    const khz = { dataType: 'textbox', format: '{"Decimals":3}', unit: 'KHZ' };
    expect(outcome(checkControlValue(khz, 0.06))).toEqual(refusal('rule.valueMax', { max: '50 HZ' }));
    expect(outcome(checkControlValue(khz, 0.05))).toEqual({ value: 0.05 });
    const wideFormat = { dataType: 'textbox', format: '{"Min":0,"Max":60}', unit: 'HZ' };
    expect(outcome(checkControlValue(wideFormat, 55))).toEqual(refusal('rule.valueMax', { max: '50 HZ' }));
    const narrowFormat = { dataType: 'textbox', format: '{"Min":0,"Max":30}', unit: 'HZ' };
    expect(outcome(checkControlValue(narrowFormat, 40))).toEqual(refusal('rule.valueMax', { max: '30 HZ' }));
  });

  it('takes only the options of a switch, an enumeration or a select, sending numbers as numbers', () => {
    expect(outcome(checkControlValue(controlMode, 7))).toEqual(refusal('rule.valueOption', { options: '0, 1, 2' }));
    expect(outcome(checkControlValue(controlMode, 1.5))).toEqual(refusal('rule.valueOption', { options: '0, 1, 2' }));
    expect(outcome(checkControlValue(controlMode, '2'))).toEqual({ value: 2 });
    expect(outcome(checkControlValue(controlMode, 0))).toEqual({ value: 0 });
    expect(outcome(checkControlValue(controlMode, true))).toEqual(refusal('rule.valueOption', { options: '0, 1, 2' }));

    const pump = { dataType: 'boolean', format: '{"0":"Stop","1":"Run"}', unit: '' };
    for (const [value, sent] of [
      [1, 1],
      ['0', 0],
      [true, 1],
      [false, 0],
    ] as const) {
      expect(outcome(checkControlValue(pump, value))).toEqual({ value: sent });
    }
    for (const value of [2, -1, 'on', '', null]) {
      expect(outcome(checkControlValue(pump, value)), JSON.stringify(value)).toEqual(
        refusal('rule.valueOption', { options: '0, 1' }),
      );
    }

    const baud = { dataType: 'select', format: '', unit: '' };
    expect(outcome(checkControlValue(baud, 9600))).toEqual({ value: 9600 });
    expect(outcome(checkControlValue(baud, 4800))).toEqual(refusal('rule.valueOption', { options: '1200, 9600' }));
    const named = { dataType: 'select', format: '{"eco":"Eco","01":"Leading zero"}', unit: '' };
    expect(outcome(checkControlValue(named, 'eco'))).toEqual({ value: 'eco' });
    expect(outcome(checkControlValue(named, '01'))).toEqual({ value: '01' });
    expect(outcome(checkControlValue(named, 1))).toMatchObject({ key: 'rule.valueOption' });
  });

  it('refuses every read-only type and an unknown one', () => {
    for (const dataType of ['readable', 'boolean2', 'monitor', 'datetime', 'date']) {
      expect(outcome(checkControlValue({ dataType, format: '', unit: '' }, 1)), dataType).toEqual(refusal('rule.readOnly'));
    }
    expect(outcome(checkControlValue({ dataType: 'blob', format: '', unit: '' }, 1))).toMatchObject({ key: 'rule.dataType' });
  });

  it('takes times as HH:mm[:ss] and text up to 200 characters', () => {
    const time = { dataType: 'time', format: 'HH:mm', unit: '' };
    expect(outcome(checkControlValue(time, '08:30'))).toEqual({ value: '08:30' });
    for (const value of ['25:00', '8.30', '', 830]) {
      expect(outcome(checkControlValue(time, value)), JSON.stringify(value)).toEqual(refusal('rule.valueTime'));
    }
    const text = { dataType: 'string', format: '', unit: '' };
    expect(outcome(checkControlValue(text, 'V1.2'))).toEqual({ value: 'V1.2' });
    expect(outcome(checkControlValue(text, 'x'.repeat(201)))).toEqual(refusal('rule.length', { min: '0', max: '200' }));
    expect(outcome(checkControlValue(text, true))).toMatchObject({ key: 'rule.length' });
  });

  it('gives the console the same limits it checks', () => {
    expect(controlLimits(doSetPoint)).toMatchObject({ min: 0, max: 8, step: 0.1, unit: 'mg/L' });
    expect(controlLimits({ dataType: 'textbox', format: '', unit: 's' })).toMatchObject({
      min: 10,
      max: 2 ** 31,
      familyMin: { value: 10, unit: 's', inUnit: 10 },
    });
    expect(controlLimits({ dataType: 'textbox', format: '', unit: 'KHZ' })).toMatchObject({ max: 0.05 });
    expect(controlLimits({ dataType: 'textbox', format: '{"Min":', unit: '' })).toBe('rule.formatNumber');
  });
});

describe('secondsPerUnit', () => {
  it('tells a duration control by its unit, a minute from a metre by how the control shows', () => {
    expect(secondsPerUnit({ dataType: 'textbox', format: '', unit: 's' })).toBe(1);
    expect(secondsPerUnit({ dataType: 'textbox', format: '', unit: 'm', showType: 'time' })).toBe(60);
    expect(secondsPerUnit({ dataType: 'textbox', format: '', unit: 'm' })).toBeUndefined();
    expect(secondsPerUnit({ dataType: 'textbox', format: '', unit: 'mg/L' })).toBeUndefined();
  });
});
