/**
 * The DataKeys of the demo wastewater station (the library the demo seeds, the simulator and
 * the device page read), and the special keys of spec §3 Enumerations. Units are §9 symbols.
 */
export const STATION_KEYS = {
  /** The time data key (§3). */
  time: 'Time',
  inflow: 'Inflow',
  flowTotal: 'FlowTotal',
  tankLevel: 'TankLevel',
  levelHighSet: 'LevelHighSet',
  levelLowSet: 'LevelLowSet',
  levelHighAlarm: 'LevelHighAlarm',
  liftPump1Run: 'LiftPump1Run',
  liftPump1Fault: 'LiftPump1Fault',
  liftPump1Auto: 'LiftPump1Auto',
  liftPump2Run: 'LiftPump2Run',
  /** Seconds a lift pump has run in its turn of a duty/standby rotation (0 while it rests). */
  liftPump1Elapsed: 'LiftPump1Elapsed',
  liftPump2Elapsed: 'LiftPump2Elapsed',
  liftPump2Fault: 'LiftPump2Fault',
  liftPump2Auto: 'LiftPump2Auto',
  blower1Run: 'Blower1Run',
  blower1Fault: 'Blower1Fault',
  blower2Run: 'Blower2Run',
  blower2Fault: 'Blower2Fault',
  /** Aeration cycle of the time-unit controls: blower on, then off, in seconds. */
  blowerOnTime: 'BlowerOnTime',
  blowerOffTime: 'BlowerOffTime',
  /** Seconds into the aeration cycle's on phase (0 while off), and into its off phase (0 while on). */
  blowerOnElapsed: 'BlowerOnElapsed',
  blowerOffElapsed: 'BlowerOffElapsed',
  dissolvedOxygen: 'DO',
  dissolvedOxygenSet: 'DOSet',
  dosingPumpRun: 'DosingPumpRun',
  dosingPumpFault: 'DosingPumpFault',
  dosingRate: 'DosingRate',
  codIn: 'COD_In',
  codOut: 'COD_Out',
  nh3nIn: 'NH3_N_In',
  nh3nOut: 'NH3_N_Out',
  tnIn: 'TN_In',
  tnOut: 'TN_Out',
  tpIn: 'TP_In',
  tpOut: 'TP_Out',
  ssIn: 'SS_In',
  ssOut: 'SS_Out',
  phIn: 'PH_In',
  phOut: 'PH_Out',
  analyserFault: 'AnalyserFault',
  energy: 'Energy',
  runTimeYear: 'RunTimeYear',
  runTimeMonth: 'RunTimeMonth',
  runTimeDay: 'RunTimeDay',
  controlMode: 'ControlMode',
  oneKeyStop: 'OneKeyStop',
  alarmReset: 'AlarmReset',
  deviceVersion: 'DeviceVersion',
  /** The gateway's Modbus baud rate (a select of 1200 / 9600). */
  baudRate: 'BaudRate',
  /** How often the gateway reports, in seconds. */
  reportInterval: 'ReportInterval',
} as const;

export type StationKey = (typeof STATION_KEYS)[keyof typeof STATION_KEYS];

/** Values of the control-mode key (§3: auto 1, manual 0, self-check 2). */
export const CONTROL_MODE = { manual: 0, auto: 1, selfCheck: 2 } as const;

/** Keys with a meaning of their own to the console (§3 Special data keys). */
export const SPECIAL_KEYS = {
  time: STATION_KEYS.time,
  controlMode: STATION_KEYS.controlMode,
  oneKeyStop: STATION_KEYS.oneKeyStop,
  alarmReset: STATION_KEYS.alarmReset,
  deviceVersion: STATION_KEYS.deviceVersion,
  runTimeYear: STATION_KEYS.runTimeYear,
  runTimeMonth: STATION_KEYS.runTimeMonth,
  runTimeDay: STATION_KEYS.runTimeDay,
} as const;

/** Water-quality parameters with their inlet and outlet keys (the device-input record's COD_In … PH_Out). */
export const QUALITY_PARAMETERS = [
  { name: 'COD', in: STATION_KEYS.codIn, out: STATION_KEYS.codOut, unit: 'mg/L' },
  { name: 'NH3-N', in: STATION_KEYS.nh3nIn, out: STATION_KEYS.nh3nOut, unit: 'mg/L' },
  { name: 'TN', in: STATION_KEYS.tnIn, out: STATION_KEYS.tnOut, unit: 'mg/L' },
  { name: 'TP', in: STATION_KEYS.tpIn, out: STATION_KEYS.tpOut, unit: 'mg/L' },
  { name: 'SS', in: STATION_KEYS.ssIn, out: STATION_KEYS.ssOut, unit: 'mg/L' },
  { name: 'pH', in: STATION_KEYS.phIn, out: STATION_KEYS.phOut, unit: '' },
] as const;

/** GB 18918-2002 class 1A daily maximums (mg/L; pH a band), as the demo type's statistics Standard strings. */
export const GB18918_1A: Record<string, string> = {
  [STATION_KEYS.codOut]: '50',
  [STATION_KEYS.nh3nOut]: '5',
  [STATION_KEYS.tnOut]: '15',
  [STATION_KEYS.tpOut]: '0.5',
  [STATION_KEYS.ssOut]: '10',
  [STATION_KEYS.phOut]: '6,9',
};
