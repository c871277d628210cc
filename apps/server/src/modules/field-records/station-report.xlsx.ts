/**
 * The monthly station report as an Excel workbook, in the caller's language: a summary sheet
 * (operation, laboratory compliance, chemicals, repairs and rounds), then the laboratory
 * parameters, every sample of the month, the online analysers and the alarms. Numbers are stored
 * as numbers, times as text in the site's time. exceljs is loaded on first use, as the other
 * exports do.
 */
import type { QualityParam, StationReport } from '@sluice/shared/field-records.schema';
import { QUALITY_PARAMS } from '@sluice/shared/field-records.schema';
import { translate, type Language, type MessageKey } from '@sluice/shared/i18n';

type Cell = string | number | null;

export async function stationReportWorkbook(
  report: StationReport,
  lang: Language,
  formatTime: (ms: number) => string,
): Promise<Buffer> {
  const say = (key: MessageKey, params: Record<string, string | number> = {}) => translate(lang, key, params);
  const param = (p: QualityParam) => say(`report.param.${p}`);
  const ExcelJS = (await import('exceljs')).default;
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Sluice';
  const sheet = (name: MessageKey, header: string[], rows: Cell[][]) => {
    const ws = workbook.addWorksheet(say(name), { views: [{ state: 'frozen', ySplit: 1 }] });
    ws.columns = header.map((h) => ({ header: h, width: Math.max(12, h.length * (lang === 'zh-CN' ? 2 : 1) + 2) }));
    ws.getRow(1).font = { bold: true };
    for (const row of rows) ws.addRow(row);
    return ws;
  };

  const summary = sheet(
    'report.sheet.summary',
    [say('report.item'), say('report.value')],
    [
      [say('report.site'), report.ProjectName],
      [say('report.month'), report.Month],
      [say('report.standard'), report.Standard || say('report.noStandard')],
      [say('report.treated'), report.Operation.TreatedM3],
      [say('report.energy'), report.Operation.EnergyKWh],
      [say('report.kwhPerM3'), report.Operation.KWhPerM3],
      [say('report.samples'), report.Lab.Samples],
      [say('report.judged'), report.Lab.Judged],
      [say('report.compliant'), report.Lab.Compliant],
      [say('report.rate'), report.Lab.Rate],
      ...report.Chemicals.map((c): Cell[] => [say('report.chemical', { name: c.Chemical, unit: c.Unit }), c.Quantity]),
      [say('report.repairsReported'), report.Repairs.Reported],
      [say('report.repairsDone'), report.Repairs.Done],
      [say('report.repairsVerified'), report.Repairs.Verified],
      [say('report.repairsOverdue'), report.Repairs.OverdueOpen],
      [say('report.rounds'), report.Inspections.Rounds],
      [say('report.issues'), report.Inspections.Issues],
    ],
  );
  summary.getColumn(1).width = 36;
  summary.getColumn(2).width = 28;

  sheet(
    'report.sheet.lab',
    [say('report.param'), say('report.samples'), say('report.avg'), say('report.max'), say('report.over')],
    report.Lab.Params.filter((p) => p.Samples > 0).map((p) => [param(p.Param), p.Samples, p.Avg, p.Max, p.Over]),
  );

  sheet(
    'report.sheet.samples',
    [
      say('report.sampledAt'),
      say('report.device'),
      say('report.sampler'),
      say('report.laboratory'),
      ...QUALITY_PARAMS.map(param),
      say('report.overParams'),
    ],
    report.Samples.map((s) => [
      formatTime(s.Dt),
      s.DeviceName,
      s.Sampler,
      s.Laboratory,
      ...QUALITY_PARAMS.map((p) => s.Values[p] ?? null),
      s.Over.map((p) => say(`report.short.${p}`)).join(lang === 'zh-CN' ? '、' : ', '),
    ]),
  );

  sheet(
    'report.sheet.chemicals',
    [say('report.chemicalName'), say('report.unit'), say('report.quantity'), say('report.perM3'), say('report.rounds')],
    report.Chemicals.map((c) => [c.Chemical, c.Unit, c.Quantity, c.PerM3, c.Rounds]),
  );

  sheet(
    'report.sheet.online',
    [say('report.param'), say('report.avg'), say('report.measuredDays'), say('report.compliantDays')],
    report.Online.map((o) => [o.Name, o.Avg, o.MeasuredDays, o.CompliantDays]),
  );

  sheet(
    'report.sheet.alarms',
    [say('report.alarmType'), say('report.count'), say('report.handled'), say('report.minutesToHandle')],
    report.Alarms.map((a) => [a.TypeName, a.Count, a.Handled, a.AvgMinutesToHandle]),
  );

  return Buffer.from(await workbook.xlsx.writeBuffer());
}
