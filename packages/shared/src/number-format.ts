/**
 * Large numbers as people read them (spec §9): in Chinese by 万 (10⁴), 千万 (10⁷) and 亿 (10⁸),
 * in English with thousands separators; 2 decimals by default. Units printed with superscripts
 * (m3 → m³), the symbols themselves staying those of the unit families.
 */
const STEPS_ZH: readonly [number, string][] = [
  [1e8, '亿'],
  [1e7, '千万'],
  [1e4, '万'],
];

const trim = (text: string) => (text.includes('.') ? text.replace(/\.?0+$/, '') : text);

/** `value` to at most `decimals` decimals; in zh-CN scaled to 万 / 千万 / 亿 from 10,000 up. */
export function formatLargeNumber(value: number, language: string, decimals = 2): string {
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
