/**
 * The keyboard's way to arrange the grid (a pointer drags and resizes): a panel moved or sized
 * by one cell, kept inside the 12 columns; the grid packs the panels upwards afterwards.
 */
import { GRID_COLUMNS, type LayoutItem } from '@sluice/shared/panel-layout';

export const LAYOUT_MOVES = ['moveLeft', 'moveRight', 'moveUp', 'moveDown', 'wider', 'narrower', 'taller', 'shorter'] as const;
export type LayoutMove = (typeof LAYOUT_MOVES)[number];

function moved(item: LayoutItem, move: LayoutMove): LayoutItem {
  switch (move) {
    case 'moveLeft':
      return { ...item, x: Math.max(0, item.x - 1) };
    case 'moveRight':
      return { ...item, x: Math.min(GRID_COLUMNS - item.w, item.x + 1) };
    case 'moveUp':
      return { ...item, y: Math.max(0, item.y - 1) };
    case 'moveDown':
      return { ...item, y: item.y + 1 };
    case 'wider':
      return item.x + item.w < GRID_COLUMNS
        ? { ...item, w: item.w + 1 }
        : { ...item, x: Math.max(0, item.x - 1), w: Math.min(GRID_COLUMNS, item.w + 1) };
    case 'narrower':
      return { ...item, w: Math.max(1, item.w - 1) };
    case 'taller':
      return { ...item, h: Math.min(60, item.h + 1) };
    case 'shorter':
      return { ...item, h: Math.max(1, item.h - 1) };
  }
}

/** The layout with one panel moved or sized; the others where they were. */
export function applyMove(layout: readonly LayoutItem[], key: string, move: LayoutMove): LayoutItem[] {
  return layout.map((item) => (item.i === key ? moved(item, move) : item));
}

/** The layout with one panel hidden or shown again. */
export function setHidden(layout: readonly LayoutItem[], key: string, hidden: boolean): LayoutItem[] {
  return layout.map((item) => {
    if (item.i !== key) return item;
    const rest = { i: item.i, x: item.x, y: item.y, w: item.w, h: item.h };
    return hidden ? { ...rest, hidden: true } : rest;
  });
}

/** Places from the grid (after a drag, a resize or its packing) taken into the full layout, hidden panels kept. */
export function withPlaces(
  layout: readonly LayoutItem[],
  places: readonly { i: string; x: number; y: number; w: number; h: number }[],
): LayoutItem[] {
  const at = new Map(places.map((p) => [p.i, p]));
  return layout.map((item) => {
    const place = at.get(item.i);
    return place ? { ...item, x: place.x, y: place.y, w: place.w, h: place.h } : item;
  });
}

/** Whether two layouts place every panel alike. */
export function sameLayout(a: readonly LayoutItem[], b: readonly LayoutItem[]): boolean {
  if (a.length !== b.length) return false;
  const at = new Map(b.map((item) => [item.i, item]));
  return a.every((item) => {
    const other = at.get(item.i);
    return (
      other !== undefined &&
      other.x === item.x &&
      other.y === item.y &&
      other.w === item.w &&
      other.h === item.h &&
      Boolean(other.hidden) === Boolean(item.hidden)
    );
  });
}
