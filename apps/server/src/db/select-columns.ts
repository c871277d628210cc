/**
 * A select's result as columns instead of row objects, for the long reads of charts (a year of
 * ten series' hourly roll-ups is 87,600 rows): on SQLite's reader thread the columns come as the
 * thread sends them (numbers as transferred Float64Arrays) and no row object is made; on any
 * other connection (PostgreSQL) the rows are read as usual and turned into columns.
 */
import type { Compilable } from 'kysely';

/** Each selected column as an array of its values, `length` rows long. */
export type Columns<O> = { readonly [K in keyof O]: ArrayLike<O[K]> } & { readonly length: number };

export interface ColumnReply {
  names: string[];
  columns: ArrayLike<unknown>[];
  length: number;
}

/** Databases whose selects can answer columns directly (the SQLite reader thread registers itself). */
const columnReaders = new WeakMap<object, (query: ReturnType<Compilable['compile']>) => Promise<ColumnReply>>();

export function registerColumnReader(db: object, read: (query: ReturnType<Compilable['compile']>) => Promise<ColumnReply>): void {
  columnReaders.set(db, read);
}

export async function selectColumns<O extends object>(
  db: object,
  query: Compilable<O> & { execute(): Promise<O[]> },
): Promise<Columns<O>> {
  const read = columnReaders.get(db);
  if (read) {
    const reply = await read(query.compile());
    const out: Record<string, unknown> = { length: reply.length };
    reply.names.forEach((name, i) => (out[name] = reply.columns[i]));
    return out as Columns<O>;
  }
  const rows = await query.execute();
  const out: Record<string, unknown[] | number> = { length: rows.length };
  const first = rows[0];
  if (first) for (const name of Object.keys(first)) out[name] = rows.map((r) => (r as Record<string, unknown>)[name]);
  return out as unknown as Columns<O>;
}
