/**
 * Excel workbooks (.xlsx) as tables of text, for the library's import and export. exceljs is
 * large, so it is loaded on first use rather than when the server starts.
 */
import { inflateRaw } from 'node:zlib';
import JSZip from 'jszip';
import { AppError } from '../../http/errors.ts';
import { zipDataStart, zipEntries, type ZipEntry } from '../../storage/file-types.ts';
import { formatBytes } from '../../storage/upload.ts';

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * What a workbook's parts may unpack to, counted as they are inflated (the sizes a ZIP file
 * declares can lie), against ZIP bombs. 16 MB holds a sheet of some 40,000 rows of the library;
 * exceljs takes seconds and hundreds of MB of memory for it, in proportion.
 */
export const UNPACKED_LIMIT = 16 * 1024 * 1024;

const loadExcel = async () => (await import('exceljs')).default;

/** Whether the bytes start as a ZIP file does (PK\x03\x04), as every .xlsx workbook does. */
export const looksLikeZip = (bytes: Uint8Array) =>
  bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

const notWorkbook = () => new AppError(415, 'import.notWorkbook', {}, 'file');
const tooLarge = () => new AppError(413, 'import.workbookTooLarge', { limit: formatBytes(UNPACKED_LIMIT) }, 'file');

/** Inflates one part, giving up as soon as it comes to more than `budget` bytes. */
function inflateWithin(data: Uint8Array, budget: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    inflateRaw(data, { maxOutputLength: Math.max(1, budget) }, (error, result) => {
      if (!error) resolve(result);
      else reject((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? tooLarge() : notWorkbook());
    });
  });
}

/**
 * The workbook again, its parts inflated here and counted as they come out (inflating stops
 * once they pass UNPACKED_LIMIT together), stored uncompressed: exceljs, reading this copy,
 * inflates nothing itself and sees only the parts counted.
 */
async function unpacked(bytes: Buffer, entries: ZipEntry[]): Promise<Buffer> {
  const zip = new JSZip();
  let total = 0;
  for (const entry of entries) {
    if (entry.name.endsWith('/')) continue;
    const start = zipDataStart(bytes, entry);
    if (start === undefined || start + entry.compressedSize > bytes.length) throw notWorkbook();
    const data = bytes.subarray(start, start + entry.compressedSize);
    if (entry.method !== 0 && entry.method !== 8) throw notWorkbook();
    const content = entry.method === 0 ? data : await inflateWithin(data, UNPACKED_LIMIT - total);
    total += content.length;
    if (total > UNPACKED_LIMIT) throw tooLarge();
    zip.file(entry.name, content);
  }
  return zip.generateAsync({ type: 'nodebuffer', compression: 'STORE' });
}

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
  const entries = looksLikeZip(bytes) ? zipEntries(bytes, bytes.length) : undefined;
  if (!entries?.some((e) => e.name === 'xl/workbook.xml')) throw notWorkbook();
  // What the parts declare already tells most bombs; what they inflate to tells the rest.
  if (entries.reduce((sum, e) => sum + e.size, 0) > UNPACKED_LIMIT) throw tooLarge();
  const parts = await unpacked(bytes, entries);
  const ExcelJS = await loadExcel();
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs types its Buffer as an ArrayBuffer; at run time it takes Node's Buffer.
    await workbook.xlsx.load(parts as unknown as ArrayBuffer);
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
