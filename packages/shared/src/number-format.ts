/**
 * Numbers as people read them (spec §9), in one place: values are rounded to 3 decimals
 * (`roundValue`, what the server computes and answers), and a number is formatted to 2 decimals
 * unless its data point's format names others (`DEFAULT_DECIMALS`, `formatNumber`). Large numbers
 * in Chinese by 万 (10⁴), 千万 (10⁷) and 亿 (10⁸), in English with thousands separators. Units
 * printed with superscripts (m3 → m³), the symbols themselves staying those of the unit families.
 */

/** Spec §9: the decimals of a formatted number when nothing says otherwise. */
export const DEFAULT_DECIMALS = 2;
/** Spec §9: the decimals values are rounded to. */
export const VALUE_DECIMALS = 3;

/** `value` rounded to `decimals` (3 by default) decimals, as a number. */
export function roundValue(value: number, decimals = VALUE_DECIMALS): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}

/** `value` with exactly `decimals` (2 by default) decimals; '—' for no number. */
export function formatNumber(value: number, decimals = DEFAULT_DECIMALS): string {
  return Number.isFinite(value) ? value.toFixed(decimals) : '—';
}

const STEPS_ZH: readonly [number, string][] = [
  [1e8, '亿'],
  [1e7, '千万'],
  [1e4, '万'],
];

const trim = (text: string) => (text.includes('.') ? text.replace(/\.?0+$/, '') : text);

/** `value` to at most `decimals` decimals; in zh-CN scaled to 万 / 千万 / 亿 from 10,000 up. */
export function formatLargeNumber(value: number, language: string, decimals = DEFAULT_DECIMALS): string {
  if (!Number.isFinite(value)) return '—';
  if (language.startsWith('zh')) {
    const abs = Math.abs(value);
    for (const [size, word] of STEPS_ZH) {
      if (abs >= size) return `${trim((value / size).toFixed(decimals))}${word}`;
    }
    return trim(value.toFixed(decimals));
  }
  return new Intl.NumberFormat('en-US', { maximumFractionDigits: decimals }).format(value);
}

/** A unit symbol as printed: m3 → m³ (m3/d → m³/d, m3/H → m³/h). */
export function unitText(symbol: string): string {
  return symbol.replace(/^m3\/H$/, 'm³/h').replace(/m3/g, 'm³');
}
