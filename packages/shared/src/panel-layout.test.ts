import { describe, expect, it } from 'vitest';
import { defaultLayout, mergeLayout, panelLayout, stackOrder, type GridPanel } from './panel-layout.ts';

const panels: GridPanel[] = [
  { key: 'alarms', code: 'deviceError' },
  { key: 'p1', code: 'deviceDataDefine' },
  { key: 'p2', code: 'deviceControlData' },
  { key: 'map', code: 'deviceMap' },
];

describe('the device page grid', () => {
  it('places panels at their type’s size, left to right, a new row when the 12 columns are full', () => {
    expect(defaultLayout(panels)).toEqual([
      { i: 'alarms', x: 0, y: 0, w: 6, h: 5 },
      { i: 'p1', x: 6, y: 0, w: 6, h: 9 },
      { i: 'p2', x: 0, y: 9, w: 12, h: 9 },
      { i: 'map', x: 0, y: 18, w: 6, h: 8 },
    ]);
  });

  it('keeps a saved layout, adds new panels below it and leaves out panels that are gone', () => {
    const saved = [
      { i: 'p1', x: 0, y: 0, w: 12, h: 4, hidden: true },
      { i: 'gone', x: 0, y: 4, w: 6, h: 4 },
      { i: 'alarms', x: 0, y: 4, w: 4, h: 3 },
    ];
    expect(mergeLayout(panels, saved)).toEqual([
      { i: 'p1', x: 0, y: 0, w: 12, h: 4, hidden: true },
      { i: 'alarms', x: 0, y: 4, w: 4, h: 3 },
      { i: 'p2', x: 0, y: 7, w: 12, h: 9 },
      { i: 'map', x: 0, y: 16, w: 6, h: 8 },
    ]);
    expect(mergeLayout(panels, null)).toEqual(defaultLayout(panels));
  });

  it('stacks on a phone by kind first (faults, values, control, …, map), then as arranged', () => {
    const layout = [
      { i: 'map', x: 0, y: 0, w: 6, h: 8 },
      { i: 'p1', x: 6, y: 0, w: 6, h: 9 },
    ];
    const more: GridPanel[] = [...panels, { key: 'p0', code: 'deviceDataDefine' }];
    expect(stackOrder(more, layout).map((p) => p.key)).toEqual(['alarms', 'p1', 'p0', 'p2', 'map']);
  });

  it('refuses a layout off the grid or naming a panel twice', () => {
    expect(panelLayout.safeParse([{ i: 'a', x: 8, y: 0, w: 6, h: 2 }]).success).toBe(false);
    expect(
      panelLayout.safeParse([
        { i: 'a', x: 0, y: 0, w: 6, h: 2 },
        { i: 'a', x: 6, y: 0, w: 6, h: 2 },
      ]).success,
    ).toBe(false);
    expect(panelLayout.safeParse([{ i: 'a', x: 6, y: 0, w: 6, h: 2 }]).success).toBe(true);
  });
});
