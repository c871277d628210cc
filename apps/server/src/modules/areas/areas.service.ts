/**
 * China's administrative divisions from the china-area-data package (official GB/T 2260 codes):
 * read once, on first use, and kept in memory as parent → children maps.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { z } from 'zod';
import type { AreaDto } from '@sluice/shared/area.schema';

export const COUNTRY_CODE = '86';

interface AreaData {
  /** parent code → its children's codes, in the package's order */
  children: Map<string, string[]>;
  names: Map<string, string>;
  parents: Map<string, string>;
}

const dataFile = z.record(z.string(), z.record(z.string(), z.string()));

let loading: Promise<AreaData> | undefined;
let tree: AreaDto[] | undefined;

async function load(): Promise<AreaData> {
  const file = createRequire(import.meta.url).resolve('china-area-data/data.json');
  const raw = dataFile.parse(JSON.parse(await readFile(file, 'utf8')));
  const children = new Map<string, string[]>();
  const names = new Map<string, string>();
  const parents = new Map<string, string>();
  for (const [parent, entries] of Object.entries(raw)) {
    const codes = Object.keys(entries).sort();
    children.set(parent, codes);
    for (const code of codes) {
      names.set(code, entries[code] ?? code);
      parents.set(code, parent);
    }
  }
  return { children, names, parents };
}

function data(): Promise<AreaData> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

function levelOf(d: AreaData, code: string): number {
  let level = 0;
  for (let at: string | undefined = code; at !== undefined && at !== COUNTRY_CODE; at = d.parents.get(at)) level++;
  return level;
}

function dto(d: AreaData, code: string, level: number): AreaDto {
  return { AreaCode: code, AreaName: d.names.get(code) ?? code, ParentCode: d.parents.get(code) ?? COUNTRY_CODE, Level: level };
}

/** The children of an area (the provinces for the country), or undefined when the code is unknown. */
export async function childAreas(code: string = COUNTRY_CODE): Promise<AreaDto[] | undefined> {
  const d = await data();
  if (code !== COUNTRY_CODE && !d.names.has(code)) return undefined;
  const level = code === COUNTRY_CODE ? 1 : levelOf(d, code) + 1;
  return (d.children.get(code) ?? []).map((child) => dto(d, child, level));
}

/** Province → city → county, built once. */
export async function areaTree(): Promise<AreaDto[]> {
  if (tree) return tree;
  const d = await data();
  const build = (code: string, level: number): AreaDto => {
    const node = dto(d, code, level);
    const below = level < 3 ? d.children.get(code) : undefined;
    return below?.length ? { ...node, Children: below.map((c) => build(c, level + 1)) } : node;
  };
  tree = (d.children.get(COUNTRY_CODE) ?? []).map((code) => build(code, 1));
  return tree;
}

/** The area and its ancestors, province first, or undefined when the code is unknown. */
export async function areaChain(code: string): Promise<AreaDto[] | undefined> {
  const d = await data();
  if (!d.names.has(code)) return undefined;
  const codes: string[] = [];
  for (let at: string | undefined = code; at !== undefined && at !== COUNTRY_CODE; at = d.parents.get(at)) codes.unshift(at);
  return codes.map((c, i) => dto(d, c, i + 1));
}

export async function areaExists(code: string): Promise<boolean> {
  return (await data()).names.has(code);
}
