/**
 * What a command may set a data point to (spec §5 control inputs, §9 limits). One rule for the
 * server, which checks every command before it reaches a device, and for the console's control
 * screen, which shows the same limits and messages before sending:
 *
 * - read-only types (readable, boolean2, monitor, datetime, date) take no command;
 * - boolean: 0 or 1; enum and select: one of the format's options;
 * - numbers (textbox): a number within the format's Min and Max (default ±2^31), on its Step
 *   (counted from Min), with at most its Decimals when it has no Step;
 * - a unit's family may bound it further: a duration (time family) above 10 s (§5 "seconds
 *   must exceed 10", §9 "more than 10 s": 10 s itself is refused), a frequency at most 50 HZ,
 *   each bound written in the unit that defines it (units.ts);
 * - time: HH:mm[:ss]; string: at most 200 characters.
 *
 * Messages are references (rules.ts) translated by the caller.
 */
import {
  DATA_TYPES,
  DEFAULT_NUMBER_MAX,
  checkValue,
  isDataType,
  isReadOnly,
  optionsOf,
  parseNumberFormat,
  type DataType,
  type NumberFormat,
} from './data-types.ts';
import { messageRef } from './rules.ts';
import { UNIT_FAMILIES, canonicalUnit, type UnitFamily } from './units.ts';

/** The definition a control value is checked against (a device's data point, or its type's control). */
export interface ControlDefinition {
  dataType: string;
  format: string;
  unit: string;
  /**
   * How the type's control shows the point ('time' for a duration): it tells a minute 'm' from
   * a metre 'm'. Without it 'm' is a metre.
   */
  showType?: string | undefined;
}

/** The smallest value a numeric control accepts when its format says nothing (the negative of §9's default max). */
export const DEFAULT_NUMBER_MIN = -DEFAULT_NUMBER_MAX;

/** A bound a unit family puts on every control in one of its units (§9: HZ at most 50, time more than 10 s). */
export interface FamilyBound {
  value: number;
  /** The unit the bound is written in (the message names it there). */
  unit: string;
  /** The bound in the control's own unit. */
  inUnit: number;
}

export interface NumberLimits {
  min: number;
  max: number;
  /** Values go in these steps from `min` (the format's Min, else 0). */
  step: number | undefined;
  stepBase: number;
  /** Decimals allowed when there is no step. */
  decimals: number | undefined;
  unit: string;
  /** The unit family's lower bound when it is the binding one (a duration's 10 s, which the value must exceed: `min` is then exclusive). */
  familyMin: FamilyBound | undefined;
  /** The unit family's upper bound when it is the binding one (a frequency's 50 HZ). */
  familyMax: FamilyBound | undefined;
}

export type ControlCheck = { ok: true; value: number | string } | { ok: false; message: string };

const NUMBER = /^-?\d+(\.\d+)?$/;
const MAX_TEXT = 200;

/** The unit family a control's unit belongs to: 'm' is a minute only on a control shown as a time. */
function familyOf(unit: string, showType: string | undefined): UnitFamily | undefined {
  const families = UNIT_FAMILIES.filter((f) => f.units.some((u) => u.symbol === unit));
  if (families.length <= 1) return families[0];
  const wanted = showType === 'time' ? 'time' : 'length';
  return families.find((f) => f.id === wanted) ?? families[0];
}

function familyBound(family: UnitFamily | undefined, unit: string, which: 'min' | 'max'): FamilyBound | undefined {
  const own = family?.units.find((u) => u.symbol === unit);
  const bounding = family?.units.find((u) => u[which] !== undefined);
  const value = bounding?.[which];
  if (!own?.factor || !bounding?.factor || value === undefined) return undefined;
  return { value, unit: bounding.symbol, inUnit: (value * bounding.factor) / own.factor };
}

/**
 * The limits of a numeric control (textbox), for checking and for the console's input; a
 * string is the message of an unreadable format.
 */
export function controlLimits(definition: ControlDefinition): NumberLimits | string {
  const parsed = parseNumberFormat(definition.format);
  if (typeof parsed === 'string') return parsed;
  const format: NumberFormat = parsed;
  const unit = canonicalUnit(definition.unit) ?? definition.unit.trim();
  const family = familyOf(unit, definition.showType);
  const lower = familyBound(family, unit, 'min');
  const upper = familyBound(family, unit, 'max');
  const formatMin = format.Min ?? DEFAULT_NUMBER_MIN;
  const formatMax = format.Max ?? DEFAULT_NUMBER_MAX;
  const familyMin = lower && lower.inUnit >= formatMin ? lower : undefined;
  const familyMax = upper && upper.inUnit <= formatMax ? upper : undefined;
  return {
    min: familyMin ? familyMin.inUnit : formatMin,
    max: familyMax ? familyMax.inUnit : formatMax,
    step: format.Step,
    stepBase: format.Min ?? 0,
    decimals: format.Step === undefined ? format.Decimals : undefined,
    unit,
    familyMin,
    familyMax,
  };
}

/** §9: a timed control's countdown ticks once a second. */
export const COUNTDOWN_TICK_MS = 1000;

/**
 * How many seconds one unit of a duration control is (1 for s, 60 for a minute…); undefined when
 * the control is not a duration. A timed control's countdown moves 1 / this per second.
 */
export function secondsPerUnit(definition: ControlDefinition): number | undefined {
  const unit = canonicalUnit(definition.unit) ?? definition.unit.trim();
  const family = familyOf(unit, definition.showType);
  return family?.id === 'time' ? family.units.find((u) => u.symbol === unit)?.factor : undefined;
}

const withUnit = (value: number, unit: string) => (unit ? `${String(value)} ${unit}` : String(value));

/** Whether `n` is a whole number of `step`s from `base`, allowing for binary fractions (0.1 steps). */
function onStep(n: number, base: number, step: number): boolean {
  const steps = (n - base) / step;
  return Math.abs(steps - Math.round(steps)) <= 1e-9 * Math.max(1, Math.abs(steps));
}

function hasDecimals(n: number, decimals: number): boolean {
  const scaled = n * 10 ** decimals;
  return Math.abs(scaled - Math.round(scaled)) <= 1e-9 * Math.max(1, Math.abs(scaled));
}

function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && NUMBER.test(value.trim())) {
    const n = Number(value.trim());
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

function checkNumber(definition: ControlDefinition, value: unknown): ControlCheck {
  const n = asNumber(value);
  if (n === undefined) return { ok: false, message: messageRef('rule.number') };
  const limits = controlLimits(definition);
  if (typeof limits === 'string') return { ok: false, message: limits };
  if (n > limits.max) {
    const max = limits.familyMax ? withUnit(limits.familyMax.value, limits.familyMax.unit) : withUnit(limits.max, limits.unit);
    return { ok: false, message: messageRef('rule.valueMax', { max }) };
  }
  if (n < limits.min || (limits.familyMin !== undefined && n <= limits.min)) {
    if (limits.familyMin?.unit === 's')
      return { ok: false, message: messageRef('rule.valueSeconds', { seconds: limits.familyMin.value }) };
    const min = limits.familyMin ? withUnit(limits.familyMin.value, limits.familyMin.unit) : withUnit(limits.min, limits.unit);
    return { ok: false, message: messageRef('rule.valueMin', { min }) };
  }
  if (limits.step !== undefined && !onStep(n, limits.stepBase, limits.step)) {
    return { ok: false, message: messageRef('rule.valueStep', { step: limits.step, base: limits.stepBase }) };
  }
  if (limits.decimals !== undefined && !hasDecimals(n, limits.decimals)) {
    return { ok: false, message: messageRef('rule.valueDecimals', { decimals: limits.decimals }) };
  }
  return { ok: true, value: n };
}

function checkOption(type: DataType, format: string, value: unknown): ControlCheck {
  const options = optionsOf(type, format).map((o) => o.value);
  const text =
    typeof value === 'boolean' && type === 'boolean'
      ? value
        ? '1'
        : '0'
      : typeof value === 'number' && Number.isFinite(value)
        ? String(value)
        : typeof value === 'string'
          ? value.trim()
          : undefined;
  if (text === undefined || !options.includes(text)) {
    const shown = options.length > 20 ? [...options.slice(0, 20), '…'] : options;
    return { ok: false, message: messageRef('rule.valueOption', { options: shown.join(', ') }) };
  }
  // Numeric options travel as numbers (a switch's 1, a mode's 0, a baud rate's 9600).
  return { ok: true, value: String(Number(text)) === text ? Number(text) : text };
}

/**
 * Checks a value a command would set on a data point: the value to send (numbers as numbers,
 * option keys as numbers where they are numbers), or the message reference of the refusal.
 */
export function checkControlValue(definition: ControlDefinition, value: unknown): ControlCheck {
  const type = definition.dataType;
  if (!isDataType(type)) return { ok: false, message: messageRef('rule.dataType', { types: DATA_TYPES.join(', ') }) };
  if (isReadOnly(type)) return { ok: false, message: messageRef('rule.readOnly') };
  switch (type) {
    case 'textbox':
      return checkNumber(definition, value);
    case 'boolean':
    case 'enum':
    case 'select':
      return checkOption(type, definition.format, value);
    case 'time': {
      if (typeof value !== 'string') return { ok: false, message: messageRef('rule.valueTime') };
      const text = value.trim();
      const problem = text === '' ? messageRef('rule.valueTime') : checkValue('time', definition.format, text);
      return problem ? { ok: false, message: problem } : { ok: true, value: text };
    }
    case 'string': {
      if (typeof value !== 'string' && typeof value !== 'number') {
        return { ok: false, message: messageRef('rule.length', { min: 0, max: MAX_TEXT }) };
      }
      const text = String(value);
      return text.length <= MAX_TEXT
        ? { ok: true, value: text }
        : { ok: false, message: messageRef('rule.length', { min: 0, max: MAX_TEXT }) };
    }
    default:
      return { ok: false, message: messageRef('rule.readOnly') };
  }
}
