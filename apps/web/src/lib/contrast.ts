/**
 * Colour contrast as WCAG 2 measures it (relative luminance, ratio 1–21), and colours derived
 * from the brand's to reach a ratio: the theme's text and tag colours come from here.
 */

type Rgba = [number, number, number, number];

/** #rgb, #rrggbb, #rrggbbaa or rgb()/rgba(), as 0–255 channels and an alpha of 0–1. */
export function parseColor(color: string): Rgba {
  const text = color.trim();
  const fn = /^rgba?\(([^)]+)\)$/i.exec(text);
  if (fn?.[1]) {
    const [r = 0, g = 0, b = 0, a = 1] = fn[1]
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number);
    return [r, g, b, a];
  }
  let hex = text.replace(/^#/, '');
  if (hex.length === 3 || hex.length === 4) hex = hex.replace(/./g, (c) => c + c);
  if (!/^[0-9a-f]{6}([0-9a-f]{2})?$/i.test(hex)) throw new Error(`Not a colour: ${color}`);
  const channel = (i: number) => parseInt(hex.slice(i, i + 2), 16);
  return [channel(0), channel(2), channel(4), hex.length === 8 ? channel(6) / 255 : 1];
}

const toHex = ([r, g, b]: Rgba) => `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/** The colour as seen over an opaque background (a translucent text colour over its page). */
export function over(color: string, background: string): string {
  const [r, g, b, a] = parseColor(color);
  const [br, bg, bb] = parseColor(background);
  return toHex([r * a + br * (1 - a), g * a + bg * (1 - a), b * a + bb * (1 - a), 1]);
}

function luminance(color: string): number {
  const [r, g, b] = parseColor(color).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

/** The contrast ratio of a (possibly translucent) text colour over an opaque background. */
export function contrastRatio(text: string, background: string): number {
  const a = luminance(over(text, background));
  const b = luminance(background);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** `color` mixed with `toward` by `amount` (0: the colour, 1: `toward`). */
export function mix(color: string, toward: string, amount: number): string {
  const a = parseColor(color);
  const b = parseColor(toward);
  return toHex([0, 1, 2, 3].map((i) => (a[i] ?? 0) * (1 - amount) + (b[i] ?? 0) * amount) as Rgba);
}

/** AA for normal text (WCAG 2, 1.4.3). */
export const AA_TEXT = 4.5;

/**
 * The colour nearest to `color`, mixed toward black (on light backgrounds) or white (on dark
 * ones) in small steps, that reads at `ratio` or more on every background given.
 */
export function readableOn(color: string, backgrounds: string[], toward: '#000000' | '#ffffff', ratio = AA_TEXT): string {
  for (let step = 0; step <= 100; step++) {
    const candidate = mix(color, toward, step / 100);
    if (backgrounds.every((bg) => contrastRatio(candidate, bg) >= ratio)) return candidate;
  }
  return toward;
}
