/**
 * Library import and export as CSV or an Excel workbook (one row per data point, the columns of
 * LIBRARY_COLUMNS). Either format is read into the same rows and goes through one import: it adds
 * new keys and updates existing ones in one transaction; rows that fail a rule are left out and
 * reported with their row number and the fields at fault.
 */
import { addDataDefineRequest, LIBRARY_COLUMNS, type ImportReportDto } from '@sluice/shared/data-define.schema';
import type { Language } from '@sluice/shared/i18n';
import { translate } from '@sluice/shared/i18n';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/errors.ts';
import { RequestValidationError, fieldErrors } from '../../http/validation.ts';
import { resolveCategories } from './categories.service.ts';
import { DataDefinesRepository } from './data-defines.repository.ts';
import { csvLine, parseCsv } from './csv.ts';
import { writeXlsx, type SheetRow } from './xlsx.ts';

const REQUIRED = ['DataKey', 'DataName', 'DataType'];
type Column = (typeof LIBRARY_COLUMNS)[number];

export type LibraryFormat = 'csv' | 'xlsx';

/** The library's rows (or one category's), in the columns of LIBRARY_COLUMNS. */
async function libraryRows(db: Db, groupId: number, category?: string): Promise<string[][]> {
  const rows = await new DataDefinesRepository(db).all(groupId);
  return rows
    .filter((r) => !category || r.category.split(',').some((c) => c.toLowerCase() === category.toLowerCase()))
    .map((r) => [r.data_key, r.data_name, r.unit, r.data_type, r.default_value, r.format, r.model, r.category]);
}

export async function exportLibrary(db: Db, groupId: number, format: LibraryFormat, category?: string): Promise<Buffer> {
  const rows = await libraryRows(db, groupId, category);
  if (format === 'xlsx') return writeXlsx('DataDefineLibrary', LIBRARY_COLUMNS, rows);
  const lines = [csvLine([...LIBRARY_COLUMNS]), ...rows.map(csvLine)];
  // A BOM, so that spreadsheet programs read the Chinese names as UTF-8.
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`);
}

/** A CSV file's records as numbered rows (the number counting records), blank ones left out. */
export function csvRows(csv: string): SheetRow[] {
  return parseCsv(csv)
    .map((fields, i) => ({ row: i + 1, fields }))
    .filter((r) => r.fields.some((f) => f.trim() !== ''));
}

/** Imports rows read from either format, the first being the header that names the columns. */
export async function importLibrary(
  db: Db,
  groupId: number,
  table: SheetRow[],
  options: { mode: 'update' | 'skip'; lang: Language },
): Promise<ImportReportDto> {
  const header = (table[0]?.fields ?? []).map((h) => h.trim().toLowerCase());
  const index = new Map<Column, number>();
  for (const column of LIBRARY_COLUMNS) {
    const at = header.indexOf(column.toLowerCase());
    if (at >= 0) index.set(column, at);
  }
  if (!REQUIRED.every((c) => index.has(c as Column))) {
    throw new AppError(400, 'import.badFile', { columns: REQUIRED.join(', ') }, 'file');
  }
  const report: ImportReportDto = { Added: 0, Updated: 0, Unchanged: 0, Rejected: [] };
  await db.transaction().execute(async (trx) => {
    const library = new DataDefinesRepository(trx);
    const existing = new Map((await library.all(groupId)).map((r) => [r.data_key.toLowerCase(), r]));
    const seen = new Set<string>();
    for (const { row: line, fields } of table.slice(1)) {
      const input: Record<string, string> = {};
      for (const [column, at] of index) input[column] = fields[at]?.trim() ?? '';
      const dataKey = input.DataKey ?? '';
      const parsed = addDataDefineRequest.safeParse(input);
      if (!parsed.success) {
        report.Rejected.push({
          Row: line,
          DataKey: dataKey,
          Errors: fieldErrors(new RequestValidationError(parsed.error.issues, 'row'), options.lang),
        });
        continue;
      }
      const value = parsed.data;
      const lower = value.DataKey.toLowerCase();
      if (seen.has(lower)) {
        report.Rejected.push({
          Row: line,
          DataKey: dataKey,
          Errors: [{ field: 'DataKey', message: translate(options.lang, 'dataDefine.exists', { name: value.DataKey }) }],
        });
        continue;
      }
      seen.add(lower);
      const row = {
        data_key: value.DataKey,
        data_name: value.DataName,
        unit: value.Unit ?? '',
        data_type: value.DataType,
        default_value: value.DefaultValue ?? '',
        format: value.Format,
        model: value.Model ?? '',
        category: await resolveCategories(library, groupId, value.Category ?? '', true),
      };
      const before = existing.get(lower);
      if (!before) {
        await library.insert({ group_id: groupId, ...row });
        report.Added++;
        continue;
      }
      const same = (Object.keys(row) as (keyof typeof row)[]).every((k) => k === 'data_key' || before[k] === row[k]);
      if (same || options.mode === 'skip') {
        report.Unchanged++;
        continue;
      }
      // The key keeps its stored spelling: types and devices refer to it.
      await library.update(before.id, { ...row, data_key: before.data_key });
      report.Updated++;
    }
  });
  return report;
}
