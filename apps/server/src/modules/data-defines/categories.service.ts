/** Categories of the library: a data point's Category holds category names joined by commas. */
import { splitList } from '@sluice/shared/schema-fields';
import { AppError } from '../../http/errors.ts';
import type { DataDefinesRepository } from './data-defines.repository.ts';

/** The stored spelling of each named category; unknown names are refused (or created, for an import). */
export async function resolveCategories(
  repository: DataDefinesRepository,
  groupId: number,
  joined: string,
  createMissing = false,
): Promise<string> {
  const names = splitList(joined);
  if (names.length === 0) return '';
  const byLower = new Map((await repository.categoryNames(groupId)).map((name) => [name.toLowerCase(), name]));
  const missing = names.filter((n) => !byLower.has(n.toLowerCase()));
  if (missing.length > 0 && !createMissing)
    throw new AppError(400, 'category.unknown', { names: missing.join(', ') }, 'Category');
  for (const name of missing) {
    await repository.addCategory(groupId, name);
    byLower.set(name.toLowerCase(), name);
  }
  return [...new Set(names.map((n) => byLower.get(n.toLowerCase()) ?? n))].join(',');
}

/** Renames a category inside every data point that carries it. */
export async function renameCategory(
  repository: DataDefinesRepository,
  groupId: number,
  from: string,
  to: string,
): Promise<void> {
  if (from === to) return;
  for (const row of await repository.inCategory(groupId, from)) {
    const next = splitList(row.category).map((n) => (n.toLowerCase() === from.toLowerCase() ? to : n));
    await repository.setCategory(row.id, [...new Set(next)].join(','));
  }
}
