/** CSV as spreadsheets write it (RFC 4180): quoted fields, doubled quotes, CRLF or LF, a BOM. */

/** Splits CSV text into rows of fields; the delimiter is a comma, semicolon or tab, whichever the header uses. */
export function parseCsv(input: string): string[][] {
  const text = input.replace(/^\uFEFF/, '');
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const delimiter = [',', ';', '\t'].map((d) => ({ d, n: firstLine.split(d).length })).sort((a, b) => b.n - a.n)[0]?.d ?? ',';
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

const needsQuotes = /[",\r\n]|^[\s=+\-@]/;

/** One CSV line. Fields that a spreadsheet would run as a formula (=, +, -, @) are quoted and prefixed with '. */
export function csvLine(fields: string[]): string {
  return fields
    .map((f) => {
      const safe = /^[=+\-@]/.test(f) && !/^-?\d+(\.\d+)?$/.test(f) ? `'${f}` : f;
      return needsQuotes.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
    })
    .join(',');
}
