import { describe, expect, it } from 'vitest';
import { consoleEnUS } from './console.en-US';
import { enUS as startEnUS } from './en-US';
import { deviceTypesEnUS, deviceTypesRulesEnUS } from './device-types.en-US';
import { deviceTypesRulesZhCN, deviceTypesZhCN } from './device-types.zh-CN';

type Tree = { readonly [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : leaves(value, `${prefix}${key}.`),
  );
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

const enUS = { ...startEnUS, ...consoleEnUS };
const en: Tree = { ...deviceTypesEnUS, rule: deviceTypesRulesEnUS };
const zh: Tree = { ...deviceTypesZhCN, rule: deviceTypesRulesZhCN };

describe('the device-types catalogs (loaded with their screens)', () => {
  it('have the same keys in both languages, none empty, with the same placeholders', () => {
    const enLeaves = new Map(leaves(en));
    const zhLeaves = new Map(leaves(zh));
    expect([...enLeaves.keys()].filter((key) => !zhLeaves.has(key))).toEqual([]);
    expect([...zhLeaves.keys()].filter((key) => !enLeaves.has(key))).toEqual([]);
    expect([...enLeaves, ...zhLeaves].filter(([, value]) => value.trim() === '').map(([key]) => key)).toEqual([]);
    expect(
      [...enLeaves]
        .filter(([key, value]) => placeholders(value).join() !== placeholders(zhLeaves.get(key) ?? '').join())
        .map(([key]) => key),
    ).toEqual([]);
  });

  it('add keys without replacing any of the start-up catalog', () => {
    const base = new Set(leaves(enUS).map(([key]) => key));
    expect(
      leaves(en)
        .map(([key]) => key)
        .filter((key) => base.has(key)),
    ).toEqual([]);
    // Top-level sections of their own, apart from the shared `rule`.
    expect(Object.keys(deviceTypesEnUS).filter((key) => key in enUS)).toEqual([]);
  });
});
