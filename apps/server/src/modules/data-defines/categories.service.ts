/** Categories of the library: a data point's Category holds category names joined by commas. */
import { sql, type SqlBool } from 'kysely';
import { splitList } from '@sluice/shared/schema-fields';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/errors.ts';

/** The stored spelling of each named category; unknown names are refused (or created, for an import). */
export async function resolveCategories(db: Db, groupId: number, joined: string, createMissing = false): Promise<string> {
  const names = splitList(joined);
  if (names.length === 0) return '';
  const rows = await db.selectFrom('data_categories').select('name').where('group_id', '=', groupId).execute();
  const byLower = new Map(rows.map((r) => [r.name.toLowerCase(), r.name]));
  const missing = names.filter((n) => !byLower.has(n.toLowerCase()));
  if (missing.length > 0 && !createMissing)
    throw new AppError(400, 'category.unknown', { names: missing.join(', ') }, 'Category');
  for (const name of missing) {
    await db.insertInto('data_categories').values({ group_id: groupId, name }).execute();
    byLower.set(name.toLowerCase(), name);
  }
  return [...new Set(names.map((n) => byLower.get(n.toLowerCase()) ?? n))].join(',');
}

const listHas = (name: string) =>
  sql<SqlBool>`(',' || lower(category) || ',') like ${`%,${name.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)},%`} escape '\\'`;

/** The library's data points that carry a category. */
export async function dataDefinesInCategory(db: Db, groupId: number, name: string) {
  return db.selectFrom('data_defines').select(['id', 'category']).where('group_id', '=', groupId).where(listHas(name)).execute();
}

/** Renames a category inside every data point that carries it. */
export async function renameCategory(db: Db, groupId: number, from: string, to: string): Promise<void> {
  if (from === to) return;
  for (const row of await dataDefinesInCategory(db, groupId, from)) {
    const next = splitList(row.category).map((n) => (n.toLowerCase() === from.toLowerCase() ? to : n));
    await db
      .updateTable('data_defines')
      .set({ category: [...new Set(next)].join(',') })
      .where('id', '=', row.id)
      .execute();
  }
}
