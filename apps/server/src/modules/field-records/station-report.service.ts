/**
 * The monthly station report (issue 16) of a project or station: treated volume, energy and kWh
 * per m³ from the online statistics, effluent averages and the compliance rate of the laboratory
 * results against the standard, alarms by type and time to handle, repairs and inspection rounds.
 */
import {
  QUALITY_PARAMS,
  UNIT_TO_MG_PER_L,
  type ChemicalDose,
  type DeviceInputDto,
  type QualityParam,
  type StationCompliance,
  type StationReport,
} from '@sluice/shared/field-records.schema';
import { ENERGY_KEY, TREATED_WATER_KEY } from '@sluice/shared/statistics.schema';
import type { CurrentUser } from '../../auth/current-user.ts';
import type { StatisticsService } from '../statistics/statistics.service.ts';
import type { FieldRecordsService } from './field-records.service.ts';
import type { StationMonthRepository } from './field-records.repository.ts';

const round = (v: number, digits = 3) => Math.round(v * 10 ** digits) / 10 ** digits;

/** A result's effluent value of a parameter, a concentration in mg/L (null when not measured). */
const outOf = (input: DeviceInputDto, param: QualityParam): number | null => {
  const fields = input as unknown as Record<string, unknown>;
  const value = fields[`${param}_Out`];
  if (typeof value !== 'number') return null;
  const unit = fields[`${param}_Unit`];
  const factor = typeof unit === 'string' ? (UNIT_TO_MG_PER_L as Record<string, number | undefined>)[unit] : undefined;
  return factor === undefined || factor === 1 ? value : round(value * factor, 6);
};

/** The chemicals of the month's rounds (each a JSON list), summed per chemical and unit, and per m³ treated. */
export function chemicalsDosed(lists: readonly string[], treatedM3: number | null): StationReport['Chemicals'] {
  const sums = new Map<string, { Chemical: string; Unit: string; Quantity: number; Rounds: number }>();
  for (const list of lists) {
    const doses = JSON.parse(list) as ChemicalDose[];
    const seen = new Set<string>();
    for (const dose of doses) {
      const key = `${dose.Chemical.toLowerCase()}\u0000${dose.Unit}`;
      const sum = sums.get(key) ?? { Chemical: dose.Chemical, Unit: dose.Unit, Quantity: 0, Rounds: 0 };
      sum.Quantity += dose.Quantity;
      if (!seen.has(key)) sum.Rounds += 1;
      seen.add(key);
      sums.set(key, sum);
    }
  }
  return [...sums.values()]
    .sort((a, b) => a.Chemical.localeCompare(b.Chemical) || a.Unit.localeCompare(b.Unit))
    .map((c) => ({
      ...c,
      Quantity: round(c.Quantity),
      PerM3: treatedM3 ? round(c.Quantity / treatedM3, 5) : null,
    }));
}

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
      const values = inputs.map((i) => outOf(i, p)).filter((v): v is number => v !== null);
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
    const rounds = await months.pollCounts(user, project.id, range.from, range.to);
    const treatedM3 = treated === null ? null : round(treated);
    return {
      ProjectId: project.id,
      ProjectName: project.name,
      Month: month,
      Standard: standard?.name ?? '',
      Operation: {
        TreatedM3: treatedM3,
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
      Chemicals: chemicalsDosed(rounds.chemicals, treatedM3),
      Samples: [...inputs].reverse().map((i) => ({
        Dt: i.Dt,
        DeviceName: i.DeviceName || i.DeviceSn,
        Sampler: i.Sampler,
        Laboratory: i.Laboratory,
        Values: Object.fromEntries(QUALITY_PARAMS.map((p) => [p, outOf(i, p)])),
        Over: QUALITY_PARAMS.filter((p) => i.Compliance[p] === false),
      })),
      Alarms: await months.alarmsByType(user, project.id, range.from, range.to),
      Repairs: await months.repairCounts(user, project.id, range.from, range.to),
      Inspections: { Rounds: rounds.Rounds, Issues: rounds.Issues },
    };
  }

  /**
   * The month's compliance of every reachable station (of a project when given), per parameter:
   * laboratory effluent values judged against the station's standard, and the online analysers'
   * days whose average met the type's standard.
   */
  async compliance(
    user: CurrentUser,
    projectId: number | undefined,
    month: string,
    range: { from: number; to: number; lastDay: string },
  ): Promise<StationCompliance[]> {
    const { records, statistics, months } = this.deps;
    const stations = await months.stations(user, projectId);
    const { rows } = await records.repository.inputPage(user, { projectId, from: range.from, to: range.to });
    const inputs = await records.inputDtos(user.groupId, rows);
    const online = await statistics.discreteStatistics(user, {
      Begin: `${month}-01`,
      End: range.lastDay,
      ProjectId: projectId,
      Keys: QUALITY_PARAMS.map((p) => `${p}_Out`).join(','),
      Period: 'day',
    });
    const standards = await records.standards(
      user.groupId,
      stations.map((s) => s.id),
    );
    const rate = (part: number, whole: number) => (whole === 0 ? null : round(part / whole, 4));
    return stations.map((station) => {
      const own = inputs.filter((i) => i.ProjectId === station.id);
      const judged = own.filter((i) => i.Compliant !== null);
      const compliant = judged.filter((i) => i.Compliant === true).length;
      const items = online.filter((r) => r.ProjectId === station.id).flatMap((r) => r.Items);
      return {
        ProjectId: station.id,
        ProjectName: station.name,
        Standard: standards.get(station.id)?.name ?? '',
        Samples: own.length,
        Judged: judged.length,
        Compliant: compliant,
        Rate: rate(compliant, judged.length),
        Params: QUALITY_PARAMS.map((p) => {
          const lab = own.map((i) => i.Compliance[p]).filter((c): c is boolean => c !== null && c !== undefined);
          const days = items.filter((item) => item.Key === `${p}_Out`);
          const measured = days.reduce((n, d) => n + (d.MeasuredDays ?? 0), 0);
          const within = days.reduce((n, d) => n + (d.CompliantDays ?? 0), 0);
          return {
            Param: p,
            LabJudged: lab.length,
            LabCompliant: lab.filter(Boolean).length,
            LabRate: rate(lab.filter(Boolean).length, lab.length),
            OnlineDays: measured,
            OnlineCompliantDays: within,
            OnlineRate: rate(within, measured),
          };
        }),
      };
    });
  }
}
