/**
 * Field records (spec §3 Device input, Repair, Poll; §7): water-quality results judged against
 * the station's discharge standard, repairs with their workflow, and inspection rounds.
 */
import { z } from 'zod';
import { anyText, messageRef } from './rules.ts';
import { emptyAsUndefined, idRef, optionalIdRef, text } from './schema-fields.ts';

// ---------------------------------------------------------------------------------------------
// Discharge standards

/** The quality parameters a record holds; each has an _In and _Out value. */
export const QUALITY_PARAMS = ['COD', 'BOD5', 'NH3_N', 'TN', 'TP', 'SS', 'PH', 'FC'] as const;
export type QualityParam = (typeof QUALITY_PARAMS)[number];
/** Those measured as a concentration, with a unit of the concentration family (§9). */
export const CONCENTRATION_PARAMS = ['COD', 'BOD5', 'NH3_N', 'TN', 'TP', 'SS'] as const;
export type ConcentrationParam = (typeof CONCENTRATION_PARAMS)[number];
export const CONCENTRATION_UNITS = ['mg/L', 'g/L', 'ppm'] as const;
/** One mg/L per unit (ppm of water taken as mg/L). */
export const UNIT_TO_MG_PER_L: Record<(typeof CONCENTRATION_UNITS)[number], number> = { 'mg/L': 1, 'g/L': 1000, ppm: 1 };

/** Daily-average maximums in mg/L (faecal coliforms per L, pH a range); null where not limited. */
export interface StandardLimits {
  COD: number | null;
  BOD5: number | null;
  NH3_N: number | null;
  /** NH3-N at water temperature ≤ 12 °C (GB 18918's bracketed value); the plain limit when null. */
  NH3_N_Cold: number | null;
  TN: number | null;
  TP: number | null;
  SS: number | null;
  PH_Min: number | null;
  PH_Max: number | null;
  FC: number | null;
}

/** GB 18918-2002 Table 1 (plants built from 2006), the classes a station may be held to. */
export const GB18918: Record<'1A' | '1B' | '2' | '3', StandardLimits> = {
  '1A': { COD: 50, BOD5: 10, NH3_N: 5, NH3_N_Cold: 8, TN: 15, TP: 0.5, SS: 10, PH_Min: 6, PH_Max: 9, FC: 1000 },
  '1B': { COD: 60, BOD5: 20, NH3_N: 8, NH3_N_Cold: 15, TN: 20, TP: 1, SS: 20, PH_Min: 6, PH_Max: 9, FC: 10000 },
  '2': { COD: 100, BOD5: 30, NH3_N: 25, NH3_N_Cold: 30, TN: null, TP: 3, SS: 30, PH_Min: 6, PH_Max: 9, FC: 10000 },
  '3': { COD: 120, BOD5: 60, NH3_N: null, NH3_N_Cold: null, TN: null, TP: 5, SS: 50, PH_Min: 6, PH_Max: 9, FC: null },
};
export const BUILT_IN_STANDARDS = ['GB18918-1A', 'GB18918-1B', 'GB18918-2', 'GB18918-3'] as const;
export type BuiltInStandard = (typeof BUILT_IN_STANDARDS)[number];

/** A station's standard: a built-in class, 'custom:<id>' for a table the administrator entered, or '' for none. */
export const STANDARD_REF_PATTERN = /^(GB18918-(1A|1B|2|3)|custom:\d{1,10})$/;
export const standardRef = z
  .string()
  .trim()
  .refine((v) => v === '' || STANDARD_REF_PATTERN.test(v), { message: 'records.badStandard' });

export function builtInLimits(ref: string): StandardLimits | undefined {
  const cls = /^GB18918-(1A|1B|2|3)$/.exec(ref)?.[1] as keyof typeof GB18918 | undefined;
  return cls ? GB18918[cls] : undefined;
}

const limit = z.preprocess(
  (v) => (v === '' || v === undefined ? null : v),
  z.coerce
    .number()
    .min(0, { message: messageRef('rule.notNegative') })
    .max(1e9)
    .nullable(),
);

const standardFields = {
  Name: anyText(1, 64),
  Description: text(500),
  COD: limit,
  BOD5: limit,
  NH3_N: limit,
  NH3_N_Cold: limit,
  TN: limit,
  TP: limit,
  SS: limit,
  PH_Min: limit.refine((v) => v === null || v <= 14, { message: messageRef('records.phRange') }),
  PH_Max: limit.refine((v) => v === null || v <= 14, { message: messageRef('records.phRange') }),
  FC: limit,
};
const phOrder = (v: { PH_Min?: number | null; PH_Max?: number | null }) =>
  v.PH_Min === undefined || v.PH_Max === undefined || v.PH_Min === null || v.PH_Max === null || v.PH_Min <= v.PH_Max;

export const addDischargeStandardRequest = z.object(standardFields).refine(phOrder, { message: 'rule.minMax', path: ['PH_Max'] });
export const updateDischargeStandardRequest = z
  .object(standardFields)
  .partial()
  .extend({ Id: idRef })
  .refine(phOrder, { message: 'rule.minMax', path: ['PH_Max'] });
export const dischargeStandardDto = z.object({
  Id: z.number(),
  Name: z.string(),
  Description: z.string(),
  COD: z.number().nullable(),
  BOD5: z.number().nullable(),
  NH3_N: z.number().nullable(),
  NH3_N_Cold: z.number().nullable(),
  TN: z.number().nullable(),
  TP: z.number().nullable(),
  SS: z.number().nullable(),
  PH_Min: z.number().nullable(),
  PH_Max: z.number().nullable(),
  FC: z.number().nullable(),
});
export type DischargeStandardDto = z.infer<typeof dischargeStandardDto>;

/** A station's standard as the console shows it. */
export const stationStandardDto = z.object({
  ProjectId: z.number(),
  /** What the station holds ('' when none); inherited from its project when the station has none. */
  Standard: z.string(),
  Inherited: z.boolean(),
  Name: z.string(),
  Limits: z
    .object({
      COD: z.number().nullable(),
      BOD5: z.number().nullable(),
      NH3_N: z.number().nullable(),
      NH3_N_Cold: z.number().nullable(),
      TN: z.number().nullable(),
      TP: z.number().nullable(),
      SS: z.number().nullable(),
      PH_Min: z.number().nullable(),
      PH_Max: z.number().nullable(),
      FC: z.number().nullable(),
    })
    .nullable(),
});
export type StationStandardDto = z.infer<typeof stationStandardDto>;
export const setStationStandardRequest = z.object({ Standard: standardRef });

/** Whether a value passes a limit; null when the value is missing or the parameter not limited. */
export function judge(
  param: QualityParam,
  value: number | null | undefined,
  limits: StandardLimits,
  options: { unit?: string | null; waterTemp?: number | null } = {},
): boolean | null {
  if (value === null || value === undefined) return null;
  if (param === 'PH') {
    if (limits.PH_Min === null && limits.PH_Max === null) return null;
    return (limits.PH_Min === null || value >= limits.PH_Min) && (limits.PH_Max === null || value <= limits.PH_Max);
  }
  const cold = param === 'NH3_N' && options.waterTemp !== null && options.waterTemp !== undefined && options.waterTemp <= 12;
  const max = cold ? (limits.NH3_N_Cold ?? limits.NH3_N) : limits[param];
  if (max === null) return null;
  const factor = (UNIT_TO_MG_PER_L as Record<string, number | undefined>)[options.unit ?? 'mg/L'] ?? 1;
  return value * (param === 'FC' ? 1 : factor) <= max;
}

// ---------------------------------------------------------------------------------------------
// Water-quality input records (Device input)

const concentration = z.preprocess(
  (v) => (v === '' || v === undefined ? null : v),
  z.coerce
    .number({ message: messageRef('rule.number') })
    .min(0, { message: messageRef('rule.notNegative') })
    .max(1e7, { message: messageRef('rule.valueMax', { max: 10000000 }) })
    .nullable()
    .optional(),
);
const ph = z.preprocess(
  (v) => (v === '' || v === undefined ? null : v),
  z.coerce
    .number({ message: messageRef('rule.number') })
    .min(0, { message: messageRef('records.phRange') })
    .max(14, { message: messageRef('records.phRange') })
    .nullable()
    .optional(),
);
const unit = z.enum(CONCENTRATION_UNITS, { message: messageRef('records.badUnit') }).optional();
/** A sample time: epoch ms, or a date-time text the server reads in the site's time. */
export const sampleTime = z.union([z.number().int().positive(), z.string().trim().min(1).max(40)]);

const inputFields = {
  Dt: sampleTime,
  WaterInflow: concentration,
  WaterTemp: z.preprocess(
    (v) => (v === '' || v === undefined ? null : v),
    z.coerce
      .number({ message: messageRef('rule.number') })
      .min(-5)
      .max(60)
      .nullable()
      .optional(),
  ),
  COD_In: concentration,
  COD_Out: concentration,
  COD_Unit: unit,
  BOD5_In: concentration,
  BOD5_Out: concentration,
  BOD5_Unit: unit,
  NH3_N_In: concentration,
  NH3_N_Out: concentration,
  NH3_N_Unit: unit,
  TN_In: concentration,
  TN_Out: concentration,
  TN_Unit: unit,
  TP_In: concentration,
  TP_Out: concentration,
  TP_Unit: unit,
  SS_In: concentration,
  SS_Out: concentration,
  SS_Unit: unit,
  PH_In: ph,
  PH_Out: ph,
  FC_In: concentration,
  FC_Out: concentration,
  Sampler: text(64),
  Laboratory: text(64),
  Remark: text(500),
};
export const addDeviceInputRequest = z.object(inputFields);
export const updateDeviceInputRequest = z.object(inputFields).partial().extend({ Id: idRef });
export type AddDeviceInputRequest = z.infer<typeof addDeviceInputRequest>;

export const recordPhotoDto = z.object({ Id: z.number(), Stage: z.string(), url: z.string() });
export type RecordPhotoDto = z.infer<typeof recordPhotoDto>;

const value = z.number().nullable();
export const deviceInputDto = z.object({
  Id: z.number(),
  DeviceSn: z.string(),
  DeviceName: z.string(),
  ProjectId: z.number().nullable(),
  ProjectName: z.string(),
  Dt: z.number(),
  WaterInflow: value,
  WaterTemp: value,
  COD_In: value,
  COD_Out: value,
  COD_Unit: z.string(),
  BOD5_In: value,
  BOD5_Out: value,
  BOD5_Unit: z.string(),
  NH3_N_In: value,
  NH3_N_Out: value,
  NH3_N_Unit: z.string(),
  TN_In: value,
  TN_Out: value,
  TN_Unit: z.string(),
  TP_In: value,
  TP_Out: value,
  TP_Unit: z.string(),
  SS_In: value,
  SS_Out: value,
  SS_Unit: z.string(),
  PH_In: value,
  PH_Out: value,
  FC_In: value,
  FC_Out: value,
  Sampler: z.string(),
  Laboratory: z.string(),
  Remark: z.string(),
  CreatedBy: z.string(),
  /** The standard judged against ('' when the station has none). */
  Standard: z.string(),
  /** Per parameter, whether the effluent (_Out) value meets the standard; null when not judged. */
  Compliance: z.record(z.string(), z.boolean().nullable()),
  /** All judged parameters pass; null when nothing was judged. */
  Compliant: z.boolean().nullable(),
  Photos: z.array(recordPhotoDto),
});
export type DeviceInputDto = z.infer<typeof deviceInputDto>;

const lowerAlias = (names: string[]) => (q: unknown) => {
  if (!q || typeof q !== 'object') return q;
  const v = { ...(q as Record<string, unknown>) };
  for (const name of names) {
    const lower = name.charAt(0).toLowerCase() + name.slice(1);
    if (v[name] === undefined && v[lower] !== undefined) v[name] = v[lower];
  }
  return v;
};

/** GET {g}/{deviceSn}/DeviceInput (projectId, begin, end) and the station-wide list. */
export const deviceInputQuery = z.preprocess(
  lowerAlias(['ProjectId', 'Begin', 'End', 'DeviceSn', 'Compliant']),
  z.object({
    ProjectId: emptyAsUndefined(idRef),
    DeviceSn: emptyAsUndefined(z.string().trim().max(64)),
    Begin: emptyAsUndefined(sampleTime),
    End: emptyAsUndefined(sampleTime),
    /** 0: only records with a parameter over the standard. */
    Compliant: emptyAsUndefined(z.coerce.number().int().min(0).max(1)),
  }),
);

// ---------------------------------------------------------------------------------------------
// Repairs

export const REPAIR_STATES = ['reported', 'assigned', 'in_progress', 'done', 'verified'] as const;
export type RepairState = (typeof REPAIR_STATES)[number];
export const REPAIR_ACTIONS = ['assign', 'start', 'finish', 'verify', 'reject'] as const;
export type RepairAction = (typeof REPAIR_ACTIONS)[number];
/** The state each action leads to, and the states it may start from. */
export const REPAIR_FLOW: Record<RepairAction, { from: RepairState[]; to: RepairState }> = {
  assign: { from: ['reported', 'assigned'], to: 'assigned' },
  start: { from: ['assigned'], to: 'in_progress' },
  finish: { from: ['in_progress'], to: 'done' },
  verify: { from: ['done'], to: 'verified' },
  // A finished repair that does not hold goes back to its assignee.
  reject: { from: ['done'], to: 'assigned' },
};
/** Actions only a records manager may take (the rest are the field staff's). */
export const MANAGER_ACTIONS: RepairAction[] = ['assign', 'verify', 'reject'];

const money = z.preprocess(
  (v) => (v === '' || v === undefined ? null : v),
  z.coerce
    .number()
    .min(0, { message: messageRef('rule.notNegative') })
    .max(1e9)
    .nullable()
    .optional(),
);
const dueAt = z.preprocess((v) => (v === '' || v === undefined ? null : v), sampleTime.nullable().optional());

export const addRepairRequest = z
  .object({
    /** The station (or project) the repair is at; the device's own when a device is named. */
    ProjectId: optionalIdRef,
    DeviceSn: z.preprocess((v) => (v === null ? '' : v), z.string().trim().max(64).optional()),
    RepairTitle: anyText(1, 100),
    RepairContent: text(2000),
    /** A warn code, or '' when the fault is told in words. */
    FaultCode: text(32),
    AssigneeId: optionalIdRef,
    DueAt: dueAt,
    Parts: text(500),
    Cost: money,
  })
  .refine((v) => (v.ProjectId ?? null) !== null || (v.DeviceSn ?? '') !== '', {
    message: 'records.siteRequired',
    path: ['ProjectId'],
  });
export const updateRepairRequest = z.object({
  Id: idRef,
  RepairTitle: anyText(1, 100).optional(),
  RepairContent: text(2000),
  FaultCode: text(32),
  DueAt: dueAt,
  Parts: text(500),
  Cost: money,
  Resolution: text(2000),
});
export const repairActionRequest = z.object({
  Action: z.enum(REPAIR_ACTIONS),
  /** assign: the principal of the station who does it. */
  AssigneeId: optionalIdRef,
  /** finish: what was done; reject: why it goes back. */
  Note: text(1000),
});
export const repairFromWarnRequest = z.object({ WarnId: idRef, DueAt: dueAt });

export const repairDto = z.object({
  Id: z.number(),
  ProjectId: z.number(),
  ProjectName: z.string(),
  DeviceSn: z.string(),
  DeviceName: z.string(),
  RepairTitle: z.string(),
  RepairContent: z.string(),
  FaultCode: z.string(),
  State: z.enum(REPAIR_STATES),
  AssigneeId: z.number().nullable(),
  AssigneeName: z.string(),
  DueAt: z.number().nullable(),
  Parts: z.string(),
  Cost: z.number().nullable(),
  Resolution: z.string(),
  RejectNote: z.string(),
  WarnId: z.number().nullable(),
  /** The service interval (a type's TypeMaintenance row) whose run hours opened it; null for others. */
  MaintenanceId: z.number().nullable(),
  ReportedBy: z.string(),
  CreatedAt: z.number(),
  AssignedAt: z.number().nullable(),
  StartedAt: z.number().nullable(),
  DoneAt: z.number().nullable(),
  VerifiedAt: z.number().nullable(),
  /** Past its due date and not done yet. */
  Overdue: z.boolean(),
  Photos: z.array(recordPhotoDto),
});
export type RepairDto = z.infer<typeof repairDto>;

export const repairQuery = z.preprocess(
  lowerAlias(['ProjectId', 'DeviceSn', 'State', 'Overdue', 'Begin', 'End']),
  z.object({
    ProjectId: emptyAsUndefined(idRef),
    DeviceSn: emptyAsUndefined(z.string().trim().max(64)),
    State: emptyAsUndefined(z.enum(REPAIR_STATES)),
    Overdue: emptyAsUndefined(z.coerce.number().int().min(0).max(1)),
    Begin: emptyAsUndefined(sampleTime),
    End: emptyAsUndefined(sampleTime),
  }),
);

// ---------------------------------------------------------------------------------------------
// Inspections (Poll)

export const pollPlanDto = z.object({
  ProjectId: z.number(),
  /** The checklist, one item per entry. */
  Items: z.array(z.string()),
  /** Days between rounds; 0 for no schedule. */
  IntervalDays: z.number(),
});
export type PollPlanDto = z.infer<typeof pollPlanDto>;
export const setPollPlanRequest = z.object({
  Items: z.array(anyText(1, 64)).max(50),
  IntervalDays: z.coerce.number().int().min(0).max(365),
});

export const pollResult = z.object({
  Item: anyText(1, 64),
  /** Whether the item was found in order. */
  Ok: z.boolean(),
  /** A reading or remark (sludge depth 0.6 m, say). */
  Value: text(200),
});
/** Units a chemical added on a round is measured in (PAC in kg, sodium hypochlorite in L, …). */
export const CHEMICAL_UNITS = ['kg', 'L', 't'] as const;
/** Chemicals commonly dosed at a station, offered in the round's form (any other name may be typed). */
export const COMMON_CHEMICALS = ['PAC', 'PAM', 'NaClO', 'CH3COONa'] as const;
export const chemicalDose = z.object({
  /** What was added to the dosing tank: PAC, PAM, sodium hypochlorite … */
  Chemical: anyText(1, 32),
  Quantity: z.coerce
    .number({ message: messageRef('rule.number') })
    .positive({ message: messageRef('records.quantityPositive') })
    .max(1e6, { message: messageRef('rule.valueMax', { max: 1000000 }) }),
  Unit: z.enum(CHEMICAL_UNITS, { message: messageRef('records.badChemicalUnit') }),
});
export type ChemicalDose = z.infer<typeof chemicalDose>;

export const addPollRequest = z.object({
  ProjectId: idRef,
  PollTitle: anyText(1, 100),
  PollContent: text(2000),
  Results: z.array(pollResult).max(50).default([]),
  /** Chemicals added to the dosing tanks on the round. */
  Chemicals: z.array(chemicalDose).max(20).default([]),
  /** On site from … to (ms or a date-time text). */
  ArrivedAt: sampleTime,
  LeftAt: z.preprocess((v) => (v === '' || v === undefined ? null : v), sampleTime.nullable().optional()),
});
export const pollDto = z.object({
  Id: z.number(),
  ProjectId: z.number(),
  ProjectName: z.string(),
  PollTitle: z.string(),
  PollContent: z.string(),
  Results: z.array(z.object({ Item: z.string(), Ok: z.boolean(), Value: z.string() })),
  /** Items found not in order. */
  Issues: z.number(),
  Chemicals: z.array(z.object({ Chemical: z.string(), Quantity: z.number(), Unit: z.string() })),
  ArrivedAt: z.number(),
  LeftAt: z.number().nullable(),
  Inspector: z.string(),
  CreatedAt: z.number(),
  Photos: z.array(recordPhotoDto),
});
export type PollDto = z.infer<typeof pollDto>;
export const pollQuery = z.preprocess(
  lowerAlias(['ProjectId', 'Begin', 'End']),
  z.object({
    ProjectId: emptyAsUndefined(idRef),
    Begin: emptyAsUndefined(sampleTime),
    End: emptyAsUndefined(sampleTime),
  }),
);
/** A station with a round schedule: its last round and when the next is due. */
export const pollDueDto = z.object({
  ProjectId: z.number(),
  ProjectName: z.string(),
  IntervalDays: z.number(),
  LastAt: z.number().nullable(),
  DueAt: z.number(),
  Overdue: z.boolean(),
});
export type PollDueDto = z.infer<typeof pollDueDto>;

// ---------------------------------------------------------------------------------------------
// Photos of any record

export const RECORD_KINDS = ['input', 'repair', 'poll'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];
export const PHOTO_STAGES = ['', 'before', 'after'] as const;
export const RECORD_PHOTO_LIMIT = 5 * 1024 * 1024;

/** A station's month (GET {g}/StationReport), as the server answers and the report page shows it. */
export interface StationReport {
  ProjectId: number;
  ProjectName: string;
  Month: string;
  Standard: string;
  Operation: { TreatedM3: number | null; EnergyKWh: number | null; KWhPerM3: number | null };
  Lab: {
    Samples: number;
    Judged: number;
    Compliant: number;
    /** Compliant share of the judged samples (0–1), null when none was judged. */
    Rate: number | null;
    Params: { Param: QualityParam; Samples: number; Avg: number | null; Max: number | null; Over: number }[];
  };
  Online: { Key: string; Name: string; Avg: number | null; MeasuredDays: number; CompliantDays: number }[];
  /** Chemicals added on the month's rounds, per chemical and unit, and per m³ treated. */
  Chemicals: { Chemical: string; Unit: string; Quantity: number; PerM3: number | null; Rounds: number }[];
  /** The month's laboratory samples, oldest first (the workbook's sheet of samples). */
  Samples: {
    Dt: number;
    DeviceName: string;
    Sampler: string;
    Laboratory: string;
    Values: Partial<Record<QualityParam, number | null>>;
    Over: QualityParam[];
  }[];
  Alarms: { TypeName: string; Count: number; Handled: number; AvgMinutesToHandle: number | null }[];
  Repairs: { Reported: number; Done: number; Verified: number; OverdueOpen: number };
  Inspections: { Rounds: number; Issues: number };
}

/** The month's compliance of each station (GET {g}/MonthCompliance): laboratory samples and online days per parameter. */
export interface StationCompliance {
  ProjectId: number;
  ProjectName: string;
  Standard: string;
  /** Laboratory samples judged and compliant, over all parameters (a sample passes when every judged value does). */
  Samples: number;
  Judged: number;
  Compliant: number;
  Rate: number | null;
  Params: {
    Param: QualityParam;
    /** Laboratory: effluent values judged, those within the limit, their share. */
    LabJudged: number;
    LabCompliant: number;
    LabRate: number | null;
    /** Online analysers: days with a daily average held to the type's standard, those within it. */
    OnlineDays: number;
    OnlineCompliantDays: number;
    OnlineRate: number | null;
  }[];
}
export const monthQuery = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { message: 'records.badMonth' });
