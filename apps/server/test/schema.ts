/**
 * The schema twice: as db/tables.ts declares it to the query builder, and as a migrated database
 * has it (SQLite or PostgreSQL), in one comparable form, for the drift and upgrade tests.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';
import ts from 'typescript';
import type { DialectName } from '../src/db/migrations.ts';

export type ValueKind = 'number' | 'string';

export interface Column {
  kind: ValueKind;
  nullable: boolean;
  /** Optional on insert: the database fills it (a default or an auto-increment). */
  generated: boolean;
}

/** Table → column → what it holds. */
export type Schema = Record<string, Record<string, Column>>;

const TABLES_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/db/tables.ts');

/** The schema db/tables.ts declares: the Database interface's tables, each an interface of columns. */
export function declaredSchema(): Schema {
  const file = ts.createSourceFile(TABLES_FILE, readFileSync(TABLES_FILE, 'utf8'), ts.ScriptTarget.Latest, true);
  const interfaces = new Map(file.statements.filter(ts.isInterfaceDeclaration).map((i) => [i.name.text, i]));
  const members = (name: string): { name: string; type: ts.TypeNode | undefined }[] => {
    const declaration = interfaces.get(name);
    if (!declaration) return [];
    return declaration.members
      .filter(ts.isPropertySignature)
      .map((member) => ({ name: member.name.getText(file), type: member.type }));
  };
  const schema: Schema = {};
  for (const table of members('Database')) {
    const row = table.type && ts.isTypeReferenceNode(table.type) ? table.type.typeName.getText(file) : '';
    if (!interfaces.has(row))
      throw new Error(`tables.ts: the row type of ${table.name} (${row}) is not an interface of the file`);
    schema[table.name] = Object.fromEntries(members(row).map((column) => [column.name, columnOf(column.type, file)]));
  }
  return schema;
}

function columnOf(type: ts.TypeNode | undefined, file: ts.SourceFile): Column {
  let node = type;
  let generated = false;
  if (node && ts.isTypeReferenceNode(node) && node.typeName.getText(file) === 'Generated') {
    generated = true;
    node = node.typeArguments?.[0];
  }
  const parts = node && ts.isUnionTypeNode(node) ? [...node.types] : node ? [node] : [];
  const nullable = parts.some((p) => ts.isLiteralTypeNode(p) && p.literal.kind === ts.SyntaxKind.NullKeyword);
  const kinds = parts.filter((p) => !(ts.isLiteralTypeNode(p) && p.literal.kind === ts.SyntaxKind.NullKeyword));
  const kind = kinds.length === 1 ? kinds[0]?.kind : undefined;
  if (kind === ts.SyntaxKind.NumberKeyword) return { kind: 'number', nullable, generated };
  if (kind === ts.SyntaxKind.StringKeyword) return { kind: 'string', nullable, generated };
  throw new Error(`tables.ts: a column type this test does not know: ${type?.getText(file) ?? '(none)'}`);
}

const NUMBER_TYPES = /^(integer|int|int2|int4|int8|smallint|bigint|real|float4|float8|double precision|numeric|serial)$/i;
const STRING_TYPES = /^(text|varchar|character varying|char|character)$/i;

function kindOf(type: string): ValueKind | undefined {
  if (NUMBER_TYPES.test(type)) return 'number';
  if (STRING_TYPES.test(type)) return 'string';
  return undefined;
}

interface DatabaseColumn {
  table: string;
  column: string;
  type: string;
  notnull: boolean;
  hasDefault: boolean;
  autoIncrement: boolean;
}

/** The columns of the database's own tables: not the migrator's, not PostgreSQL's partitions of a table. */
async function databaseColumns(db: Kysely<unknown>, dialect: DialectName): Promise<DatabaseColumn[]> {
  if (dialect === 'postgres') {
    const { rows } = await sql<{
      table: string;
      column: string;
      type: string;
      nullable: string;
      default: string | null;
    }>`select c.table_name as "table", c.column_name as "column", c.data_type as "type",
          c.is_nullable as "nullable", c.column_default as "default"
        from information_schema.columns c
        join pg_class t on t.relname = c.table_name and t.relkind in ('r', 'p')
        join pg_namespace n on n.oid = t.relnamespace and n.nspname = c.table_schema
        where c.table_schema = current_schema() and not t.relispartition and c.table_name not like 'kysely\\_%'`.execute(db);
    return rows.map((row) => ({
      table: row.table,
      column: row.column,
      type: row.type,
      notnull: row.nullable === 'NO',
      hasDefault: row.default !== null,
      autoIncrement: row.default?.startsWith('nextval(') ?? false,
    }));
  }
  const { rows: tables } = await sql<{ name: string }>`select name from sqlite_master
    where type = 'table' and name not like 'sqlite\\_%' escape '\\' and name not like 'kysely\\_%' escape '\\'`.execute(db);
  const columns: DatabaseColumn[] = [];
  for (const { name } of tables) {
    const { rows } = await sql<{
      name: string;
      type: string;
      notnull: number;
      dflt_value: string | null;
      pk: number;
    }>`select name, type, "notnull", dflt_value, pk from pragma_table_info(${name})`.execute(db);
    const keyColumns = rows.filter((row) => row.pk > 0).length;
    for (const row of rows) {
      // An INTEGER PRIMARY KEY is the row id: never null, numbered by SQLite.
      const rowId = row.pk > 0 && keyColumns === 1 && row.type.toLowerCase() === 'integer';
      columns.push({
        table: name,
        column: row.name,
        type: row.type,
        // A primary key's columns are not null in PostgreSQL; SQLite says so only for the row id,
        // and the schema is written for both.
        notnull: row.notnull === 1 || row.pk > 0,
        hasDefault: row.dflt_value !== null,
        autoIncrement: rowId,
      });
    }
  }
  return columns;
}

/** The schema of a migrated database, in the form declaredSchema() gives. Unknown column types throw. */
export async function databaseSchema(db: Kysely<unknown>, dialect: DialectName): Promise<Schema> {
  const schema: Schema = {};
  for (const column of await databaseColumns(db, dialect)) {
    const kind = kindOf(column.type);
    if (!kind) throw new Error(`${column.table}.${column.column}: a column type this test does not know: ${column.type}`);
    (schema[column.table] ??= {})[column.column] = {
      kind,
      nullable: !column.notnull,
      generated: column.hasDefault || column.autoIncrement,
    };
  }
  return schema;
}

/**
 * Where the declared schema and the database's differ: tables or columns on one side only, another
 * kind of value, another nullability, and columns declared Generated that the database does not
 * fill. (A column the database fills may be declared without Generated: the code then always
 * gives it.)
 */
export function schemaDrift(declared: Schema, actual: Schema): string[] {
  const problems: string[] = [];
  for (const table of Object.keys(declared)) if (!actual[table]) problems.push(`${table}: declared, not in the database`);
  for (const [table, columns] of Object.entries(actual)) {
    const mine = declared[table];
    if (!mine) {
      problems.push(`${table}: in the database, not declared`);
      continue;
    }
    for (const name of Object.keys(mine)) if (!columns[name]) problems.push(`${table}.${name}: declared, not in the database`);
    for (const [name, column] of Object.entries(columns)) {
      const declaredColumn = mine[name];
      if (!declaredColumn) {
        problems.push(`${table}.${name}: in the database, not declared`);
        continue;
      }
      if (declaredColumn.kind !== column.kind)
        problems.push(`${table}.${name}: declared ${declaredColumn.kind}, the database holds ${column.kind}`);
      if (declaredColumn.nullable !== column.nullable)
        problems.push(
          `${table}.${name}: declared ${declaredColumn.nullable ? 'nullable' : 'not null'}, the database's is the other`,
        );
      if (declaredColumn.generated && !column.generated)
        problems.push(`${table}.${name}: declared Generated, but the database has no default for it`);
    }
  }
  return problems;
}
