/**
 * The device page as a dashboard (spec §2 Home panels): its panels on a 12-column grid, each
 * panel type with a default size, arranged per account (spec §3: the device panel layout is kept
 * per account; here on the server, so it follows the account to another browser).
 */
import { z } from 'zod';
import { deviceSnField } from './device-data.schema.ts';

export const GRID_COLUMNS = 12;
/** Height of one grid row and the gap between panels, in px. */
export const GRID_ROW_HEIGHT = 30;
export const GRID_MARGIN = 10;
export const LAYOUT_ITEMS_MAX = 60;

export type PanelCode =
  | 'deviceMap'
  | 'deviceDataDefine'
  | 'deviceBaseInfo'
  | 'deviceBaseData'
  | 'image'
  | 'video'
  | 'deviceControlData'
  | 'deviceError'
  | 'deviceConfig';

/**
 * Default width and height (in columns and rows) per panel type, and its place when the panels
 * stack on a phone (lower first): what is wrong, then the values, then what to do about them,
 * then what the device is and where.
 * The control module is at least 346 px high (9 rows of 30 px with 10 px gaps: 350 px).
 */
export const PANEL_DEFAULTS: Record<PanelCode, { w: number; h: number; stack: number }> = {
  deviceError: { w: 6, h: 5, stack: 0 },
  deviceDataDefine: { w: 6, h: 9, stack: 1 },
  deviceBaseData: { w: 6, h: 9, stack: 2 },
  deviceControlData: { w: 12, h: 9, stack: 3 },
  deviceBaseInfo: { w: 6, h: 6, stack: 4 },
  image: { w: 6, h: 8, stack: 5 },
  video: { w: 8, h: 9, stack: 6 },
  deviceMap: { w: 6, h: 8, stack: 7 },
  deviceConfig: { w: 6, h: 6, stack: 8 },
};

const layoutKey = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,40}$/, { message: 'rule.layoutKey' });

export const layoutItem = z
  .object({
    i: layoutKey,
    x: z.coerce
      .number()
      .int()
      .min(0)
      .max(GRID_COLUMNS - 1),
    y: z.coerce.number().int().min(0).max(10_000),
    w: z.coerce.number().int().min(1).max(GRID_COLUMNS),
    h: z.coerce.number().int().min(1).max(60),
    hidden: z.boolean().optional(),
  })
  .refine((item) => item.x + item.w <= GRID_COLUMNS, { message: 'rule.layoutWidth', path: ['w'] });
export type LayoutItem = z.infer<typeof layoutItem>;

export const panelLayout = z
  .array(layoutItem)
  .max(LAYOUT_ITEMS_MAX)
  .refine((items) => new Set(items.map((item) => item.i)).size === items.length, { message: 'rule.layoutUnique' });

/** PUT DevicePanelLayout: an account's arrangement of one device's page; an empty list forgets it. */
export const savePanelLayoutRequest = z.object({ deviceSn: deviceSnField, Layout: panelLayout });

export const panelLayoutDto = z.object({ deviceSn: z.string(), Layout: z.array(layoutItem).nullable() });
export type PanelLayoutDto = z.infer<typeof panelLayoutDto>;

export interface GridPanel {
  /** The grid key: stable for the device's panel (its id), or a built-in panel's name. */
  key: string;
  code: PanelCode;
}

/**
 * Places the panels in order, left to right and top to bottom, each at its type's default size:
 * a row takes panels while they fit in 12 columns; the next starts below the tallest.
 */
export function defaultLayout(panels: readonly GridPanel[]): LayoutItem[] {
  const items: LayoutItem[] = [];
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  for (const panel of panels) {
    const { w, h } = PANEL_DEFAULTS[panel.code];
    if (x + w > GRID_COLUMNS) {
      x = 0;
      y += rowHeight;
      rowHeight = 0;
    }
    items.push({ i: panel.key, x, y, w, h });
    x += w;
    rowHeight = Math.max(rowHeight, h);
  }
  return items;
}

/**
 * The layout shown: the saved one for the panels it knows (a saved panel's size and place, and
 * whether it is hidden), new panels at their default size below, panels gone left out.
 */
export function mergeLayout(panels: readonly GridPanel[], saved: readonly LayoutItem[] | null | undefined): LayoutItem[] {
  if (!saved || saved.length === 0) return defaultLayout(panels);
  const keys = new Set(panels.map((p) => p.key));
  const kept = saved.filter((item) => keys.has(item.i));
  const placed = new Set(kept.map((item) => item.i));
  const bottom = kept.reduce((most, item) => Math.max(most, item.y + item.h), 0);
  const added = defaultLayout(panels.filter((p) => !placed.has(p.key))).map((item) => ({ ...item, y: item.y + bottom }));
  return [...kept.map((item) => ({ ...item })), ...added];
}

/** The order the panels stack in on a phone: by type (faults, values, control, facts, media, map, settings), then as arranged. */
export function stackOrder<P extends GridPanel>(panels: readonly P[], layout: readonly LayoutItem[]): P[] {
  const at = new Map(layout.map((item) => [item.i, item]));
  const place = (p: GridPanel) => {
    const item = at.get(p.key);
    return item ? item.y * GRID_COLUMNS + item.x : Number.MAX_SAFE_INTEGER;
  };
  return [...panels].sort((a, b) => PANEL_DEFAULTS[a.code].stack - PANEL_DEFAULTS[b.code].stack || place(a) - place(b));
}
