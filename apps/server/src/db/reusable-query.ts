/**
 * A query built and compiled once per database, then run with other values in the same places:
 * for the reads every audited write makes, where building and compiling a Kysely query costs
 * more than running it. `build` gets a stand-in for each value (`slots`) and uses them where the
 * values go; any other value it uses stays as compiled.
 *
 *   const byId = reusableQuery((db, id: number) => db.selectFrom('users').selectAll().where('id', '=', id));
 *   const rows = await byId(ctx.db, 7);
 */
import type { CompiledQuery, Compilable } from 'kysely';
import type { Db } from './database.ts';

class Slot {
  readonly index: number;
  constructor(index: number) {
    this.index = index;
  }
}

export function reusableQuery<A extends unknown[], R>(
  build: (db: Db, ...slots: A) => Compilable<R>,
): (db: Db, ...values: A) => Promise<R[]> {
  const compiled = new WeakMap<Db, { query: CompiledQuery<R>; slots: (number | undefined)[] }>();
  return async (db, ...values) => {
    let entry = compiled.get(db);
    if (!entry) {
      const query = build(db, ...(values.map((_, i) => new Slot(i)) as A)).compile();
      entry = { query, slots: query.parameters.map((p) => (p instanceof Slot ? p.index : undefined)) };
      compiled.set(db, entry);
    }
    const { query, slots } = entry;
    const parameters = query.parameters.map((p, i) => {
      const slot = slots[i];
      return slot === undefined ? p : values[slot];
    });
    return (await db.executeQuery<R>({ ...query, parameters })).rows;
  };
}
