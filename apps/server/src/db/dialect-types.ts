/** The few places where SQLite and PostgreSQL schemas differ. */
import type { CreateTableBuilder } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

export function dialectTypes(dialect: DialectName) {
  return {
    /** An auto-increment integer primary key. */
    id: <T extends string>(table: CreateTableBuilder<T>) =>
      dialect === 'postgres'
        ? table.addColumn('id', 'serial', (c) => c.primaryKey())
        : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
    /** Epoch milliseconds and other values past 2^31. */
    bigint: dialect === 'postgres' ? ('bigint' as const) : ('integer' as const),
  };
}
