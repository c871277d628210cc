/**
 * Excel workbooks (.xlsx) as tables of text, for the library's import and export. exceljs is
 * large, so it is loaded on first use rather than when the server starts.
 */
import { AppError } from '../../http/errors.ts';
import { zipEntries } from '../../storage/file-types.ts';

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** What the workbook's parts may add up to once unpacked (its declared sizes), against ZIP bombs. */
const UNPACKED_LIMIT = 64 * 1024 * 1024;

const loadExcel = async () => (await import('exceljs')).default;

/** Whether the bytes start as a ZIP file does (PK\x03\x04), as every .xlsx workbook does. */
export const looksLikeZip = (bytes: Uint8Array) =>
  bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/** One row of a sheet: its number as the spreadsheet shows it, and its cells as text. */
export interface SheetRow {
  row: number;
  fields: string[];
}

/**
 * The first worksheet's rows as text (what each cell shows: a formula's result, a rich text's
 * plain text), blank rows left out. A file that is not a readable workbook is refused with 415.
 */
export async function readXlsx(bytes: Buffer): Promise<SheetRow[]> {
  const notWorkbook = () => new AppError(415, 'import.notWorkbook', {}, 'file');
  const entries = looksLikeZip(bytes) ? zipEntries(bytes, bytes.length) : undefined;
  if (!entries?.some((e) => e.name === 'xl/workbook.xml')) throw notWorkbook();
  if (entries.reduce((sum, e) => sum + e.size, 0) > UNPACKED_LIMIT)
    throw new AppError(413, 'import.workbookTooLarge', {}, 'file');
  const ExcelJS = await loadExcel();
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs types its Buffer as an ArrayBuffer; at run time it takes Node's Buffer.
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw notWorkbook();
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const rows: SheetRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    const fields: string[] = [];
    for (let c = 1; c <= row.cellCount; c++) fields.push(row.getCell(c).text);
    if (fields.some((f) => f.trim() !== '')) rows.push({ row: number, fields });
  });
  return rows;
}

/**
 * A workbook of one sheet: a bold, frozen header row and the rows under it, every cell stored
 * as text (so that nothing is read back as a number or run as a formula).
 */
export async function writeXlsx(sheetName: string, header: readonly string[], rows: readonly string[][]): Promise<Buffer> {
  const ExcelJS = await loadExcel();
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Sluice';
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = header.map((name, i) => ({
    header: name,
    width: Math.min(40, Math.max(name.length, ...rows.map((r) => (r[i] ?? '').length)) + 2),
    style: { numFmt: '@' },
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.addRows(rows.map((r) => [...r]));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
