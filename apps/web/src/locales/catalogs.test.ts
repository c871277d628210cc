import { describe, expect, it } from 'vitest';
import { consoleEnUS } from './console.en-US';
import { consoleZhCN } from './console.zh-CN';
import { enUS as startEnUS } from './en-US';
import { zhCN as startZhCN } from './zh-CN';
import { deviceTypesRulesEnUS } from './device-types.en-US';
import { serverCatalogs } from '@sluice/shared/i18n';

type Tree = { readonly [key: string]: string | Tree };

/** Every leaf of a catalog as [dotted key, value]. */
function leaves(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : leaves(value, `${prefix}${key}.`),
  );
}

/** Every key, leaves and branches, so a branch in one catalog and a leaf in the other is caught. */
function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : [`${prefix}${key}.`, ...keys(value, `${prefix}${key}.`)],
  );
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

// The start-up catalogs with the signed-in screens' (loaded with the shell).
const enUS = { ...startEnUS, ...consoleEnUS };
const zhCN = { ...startZhCN, ...consoleZhCN };
const catalogs: Record<string, Tree> = { 'en-US': enUS, 'zh-CN': zhCN };

describe('translation catalogs', () => {
  it('have exactly the same keys (deep)', () => {
    const en = new Set(keys(enUS));
    const zh = new Set(keys(zhCN));
    expect(
      [...en].filter((key) => !zh.has(key)),
      'keys missing from zh-CN',
    ).toEqual([]);
    expect(
      [...zh].filter((key) => !en.has(key)),
      'keys missing from en-US',
    ).toEqual([]);
  });

  it.each(Object.keys(catalogs))('%s has no empty values', (lang) => {
    const empty = leaves(catalogs[lang] ?? {}).filter(([, value]) => value.trim() === '');
    expect(empty.map(([key]) => key)).toEqual([]);
  });

  it('use the same interpolation placeholders in both languages', () => {
    const zh = new Map(leaves(zhCN));
    const mismatched = leaves(enUS).filter(([key, value]) => {
      const other = zh.get(key);
      return other !== undefined && placeholders(value).join() !== placeholders(other).join();
    });
    expect(mismatched.map(([key]) => key)).toEqual([]);
  });

  it('load the signed-in screens’ texts apart from the start-up ones, replacing none of them', () => {
    expect(Object.keys(consoleEnUS).filter((key) => key in startEnUS)).toEqual([]);
    expect(Object.keys(consoleZhCN).filter((key) => key in startZhCN)).toEqual([]);
  });

  it('spell the not-found title as the spec asks', () => {
    expect(enUS.notFound.title).toBe('Sorry, this page does not exist');
    expect(zhCN.notFound.title).toContain('页面出错');
  });

  it('translate every rule of the shared schemas the forms check (server-only ones aside)', () => {
    // Rules only the server meets: list sorting, NUL in any text (its request validation), and the
    // dashboard layout's (the console builds layouts itself, no form sends one).
    const serverOnly = new Set(['sortable', 'noNul', 'layoutKey', 'layoutWidth', 'layoutUnique']);
    const shared = Object.keys(serverCatalogs['en-US'])
      .filter((k) => k.startsWith('rule.'))
      .map((k) => k.slice('rule.'.length))
      .filter((k) => !serverOnly.has(k));
    const web = new Set([...Object.keys(startEnUS.rule), ...Object.keys(deviceTypesRulesEnUS)]);
    expect(shared.filter((k) => !web.has(k))).toEqual([]);
  });
});
