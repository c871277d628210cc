/**
 * The monthly station report (issue 16) of a project or station: treated volume, energy and kWh
 * per m³ from the online statistics, effluent averages and the compliance rate of the laboratory
 * results against the standard, alarms by type and time to handle, repairs and inspection rounds.
 */
import { QUALITY_PARAMS, type StationReport } from '@sluice/shared/field-records.schema';
import { ENERGY_KEY, TREATED_WATER_KEY } from '@sluice/shared/statistics.schema';
import type { CurrentUser } from '../../auth/current-user.ts';
import type { StatisticsService } from '../statistics/statistics.service.ts';
import type { FieldRecordsService } from './field-records.service.ts';
import type { StationMonthRepository } from './field-records.repository.ts';

const round = (v: number, digits = 3) => Math.round(v * 10 ** digits) / 10 ** digits;

export class StationReportService {
  private readonly deps: { records: FieldRecordsService; statistics: StatisticsService; months: StationMonthRepository };
  constructor(deps: { records: FieldRecordsService; statistics: StatisticsService; months: StationMonthRepository }) {
    this.deps = deps;
  }

  async report(
    user: CurrentUser,
    project: { id: number; name: string },
    month: string,
    range: { from: number; to: number; lastDay: string },
  ): Promise<StationReport> {
    const { records, statistics, months } = this.deps;
    const { rows } = await records.repository.inputPage(user, { projectId: project.id, from: range.from, to: range.to });
    const inputs = await records.inputDtos(user.groupId, rows);
    const judged = inputs.filter((i) => i.Compliant !== null);
    const params = QUALITY_PARAMS.map((p) => {
      const values = inputs
        .map((i) => (i as unknown as Record<string, number | null>)[`${p}_Out`])
        .filter((v): v is number => typeof v === 'number');
      return {
        Param: p,
        Samples: values.length,
        Avg: values.length === 0 ? null : round(values.reduce((a, b) => a + b, 0) / values.length),
        Max: values.length === 0 ? null : Math.max(...values),
        Over: inputs.filter((i) => i.Compliance[p] === false).length,
      };
    });

    const online = await statistics.statisticsData(user, {
      Begin: `${month}-01`,
      End: range.lastDay,
      ProjectId: project.id,
      Period: 'month',
    });
    let treated: number | null = null;
    let energy: number | null = null;
    const effluent = new Map<string, { name: string; sum: number; n: number; measured: number; compliant: number }>();
    for (const record of online) {
      for (const item of record.Data) {
        const total = item.Values?.Total;
        if (item.Key === TREATED_WATER_KEY && total !== undefined) treated = (treated ?? 0) + total;
        else if (item.Key === ENERGY_KEY && total !== undefined) energy = (energy ?? 0) + total;
        else if (item.Key.endsWith('_Out')) {
          const e = effluent.get(item.Key) ?? { name: item.Name, sum: 0, n: 0, measured: 0, compliant: 0 };
          if (item.Values?.Avg !== undefined) {
            e.sum += item.Values.Avg;
            e.n += 1;
          }
          e.measured += item.MeasuredDays ?? 0;
          e.compliant += item.CompliantDays ?? 0;
          effluent.set(item.Key, e);
        }
      }
    }
    const standard = (await records.standards(user.groupId, [project.id])).get(project.id);
    return {
      ProjectId: project.id,
      ProjectName: project.name,
      Month: month,
      Standard: standard?.name ?? '',
      Operation: {
        TreatedM3: treated === null ? null : round(treated),
        EnergyKWh: energy === null ? null : round(energy),
        KWhPerM3: treated && energy !== null ? round(energy / treated) : null,
      },
      Lab: {
        Samples: inputs.length,
        Judged: judged.length,
        Compliant: judged.filter((i) => i.Compliant === true).length,
        Rate: judged.length === 0 ? null : round(judged.filter((i) => i.Compliant === true).length / judged.length, 4),
        Params: params,
      },
      Online: [...effluent.entries()].map(([key, e]) => ({
        Key: key,
        Name: e.name,
        Avg: e.n === 0 ? null : round(e.sum / e.n),
        MeasuredDays: e.measured,
        CompliantDays: e.compliant,
      })),
      Alarms: await months.alarmsByType(user, project.id, range.from, range.to),
      Repairs: await months.repairCounts(user, project.id, range.from, range.to),
      Inspections: await months.pollCounts(user, project.id, range.from, range.to),
    };
  }
}
