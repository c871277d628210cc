/** The notice centre's export: the alarms the filters select, as a CSV file Excel opens in either language. */
import type { WarnDto } from '@sluice/shared/alarm.schema';

const cell = (value: string | number | null | undefined): string => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export function alarmsCsv(
  rows: WarnDto[],
  headers: string[],
  values: (row: WarnDto) => (string | number | null | undefined)[],
): string {
  // A byte-order mark so that Excel reads UTF-8 (Chinese names) correctly.
  return `\uFEFF${[headers, ...rows.map(values)].map((r) => r.map(cell).join(',')).join('\r\n')}\r\n`;
}

export function saveText(text: string, fileName: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 0);
}
