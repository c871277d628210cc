/**
 * A device's custom run model (spec §3 Device accessory, Device system, system accessory, system
 * control data; §4 accessory rotation; §7 DeviceAccessory, DeviceSystem, DeviceSystemAccessory,
 * DeviceSystemCotrolData). A run system (the lift pumps' duty/standby, say) has accessories
 * (1# and 2# pump); each of its control data rows is one step of the rotation: the accessory's
 * switch (DataDefineId, a boolean data point of the device) runs for DataValue seconds, then the
 * next step by SequenceIn takes over after the system's RestTime. AssociateDefineId names the data
 * point the device reports the running step's seconds in, which the console counts up (§4).
 * Sent to the device as its configuration (docs/device-protocol.md, run model).
 */
import { z } from 'zod';
import { checkControlValue } from './control-values.ts';
import { idRef, name, sortNo, text } from './schema-fields.ts';

/** A duration of the run model, in whole seconds: above 10 s (§5, §9) and at most 2^31. */
const SECONDS = { dataType: 'textbox', format: '{"Decimals":0}', unit: 's' } as const;

/** Why `seconds` is not a run model duration (a message reference), or undefined when it is one. */
export function durationProblem(seconds: unknown): string | undefined {
  const checked = checkControlValue(SECONDS, seconds);
  return checked.ok ? undefined : checked.message;
}

const duration = z.unknown().transform((v, ctx) => {
  const problem = durationProblem(v);
  if (problem !== undefined) {
    ctx.addIssue({ code: 'custom', message: problem });
    return z.NEVER;
  }
  return Number(v);
});
/** A rest between steps: 0 for none, else a duration. */
const restTime = z.unknown().transform((v, ctx) => {
  if (v === 0 || v === '0' || v === '' || v === undefined || v === null) return 0;
  const problem = durationProblem(v);
  if (problem !== undefined) {
    ctx.addIssue({ code: 'custom', message: problem });
    return z.NEVER;
  }
  return Number(v);
});
const optionalRef = z.preprocess((v) => (v === '' || v === 0 || v === '0' ? null : v), idRef.nullable().optional());

// ---- DeviceAccessory: the device's equipment ------------------------------------------------
export const deviceAccessoryDto = z.object({ Id: z.number(), DeviceSn: z.string(), Name: z.string(), ICON: z.string() });
export type DeviceAccessoryDto = z.infer<typeof deviceAccessoryDto>;
const accessoryFields = { Name: name(64), ICON: text(500) };
export const addDeviceAccessoryRequest = z.object(accessoryFields);
export const updateDeviceAccessoryRequest = z.object({ Id: idRef, ...accessoryFields }).partial({ Name: true, ICON: true });

// ---- DeviceSystem ----------------------------------------------------------------------------
export const deviceSystemDto = z.object({
  Id: z.number(),
  DeviceSn: z.string(),
  Name: z.string(),
  /** Seconds every accessory of the system rests between one step and the next (0: hand over at once). */
  RestTime: z.number(),
});
export type DeviceSystemDto = z.infer<typeof deviceSystemDto>;
export const addDeviceSystemRequest = z.object({ Name: name(64), RestTime: restTime.default(0) });
export const updateDeviceSystemRequest = z.object({ Id: idRef, Name: name(64).optional(), RestTime: restTime.optional() });

// ---- DeviceSystemAccessory -------------------------------------------------------------------
export const deviceSystemAccessoryDto = z.object({
  Id: z.number(),
  DeviceSn: z.string(),
  SystemId: z.number(),
  Name: z.string(),
  ICON: z.string(),
});
export type DeviceSystemAccessoryDto = z.infer<typeof deviceSystemAccessoryDto>;
export const addDeviceSystemAccessoryRequest = z.object({ SystemId: idRef, ...accessoryFields });
export const updateDeviceSystemAccessoryRequest = z.object({ Id: idRef, Name: name(64).optional(), ICON: text(500).optional() });

// ---- DeviceSystemCotrolData (the spec's spelling): a step of the rotation --------------------
export const deviceSystemControlDataDto = z.object({
  Id: z.number(),
  DeviceSn: z.string(),
  SystemId: z.number(),
  AccessoryId: z.number(),
  ControlName: z.string(),
  /** Seconds the step runs. */
  DataValue: z.number(),
  /** The library data point of the accessory's switch (boolean). */
  DataDefineId: z.number(),
  /** The data point the device reports the running step's seconds in, if any. */
  AssociateDefineId: z.number().nullable(),
  /** The step's place in the rotation. */
  SequenceIn: z.number(),
});
export type DeviceSystemControlDataDto = z.infer<typeof deviceSystemControlDataDto>;
const controlDataFields = {
  AccessoryId: idRef,
  ControlName: text(64),
  DataValue: duration,
  DataDefineId: idRef,
  AssociateDefineId: optionalRef,
  SequenceIn: sortNo.default(0),
};
export const addDeviceSystemControlDataRequest = z.object(controlDataFields);
export const updateDeviceSystemControlDataRequest = z.object({
  Id: idRef,
  ControlName: text(64).optional(),
  DataValue: duration.optional(),
  DataDefineId: idRef.optional(),
  AssociateDefineId: optionalRef,
  SequenceIn: sortNo.optional(),
});

// ---- The whole run model, as the console shows it and the device receives it -----------------
export const runModelStepDto = z.object({
  Id: z.number(),
  AccessoryId: z.number(),
  Accessory: z.string(),
  ControlName: z.string(),
  /** The switch's data key and name. */
  Key: z.string(),
  KeyName: z.string(),
  RunTime: z.number(),
  ElapsedKey: z.string().nullable(),
  Sequence: z.number(),
});
export type RunModelStepDto = z.infer<typeof runModelStepDto>;
export const runModelSystemDto = deviceSystemDto.extend({
  Accessories: z.array(deviceSystemAccessoryDto),
  Steps: z.array(runModelStepDto),
});
export type RunModelSystemDto = z.infer<typeof runModelSystemDto>;
/** A data point of the device a step may name: its library Id (DataDefineId), key, name and type. */
export const runModelPointDto = z.object({ Id: z.number(), Key: z.string(), Name: z.string(), DataType: z.string() });
export type RunModelPointDto = z.infer<typeof runModelPointDto>;
export const runModelDto = z.object({
  DeviceSn: z.string(),
  Systems: z.array(runModelSystemDto),
  /** The device's switches (a step's DataDefineId) and numbers (its AssociateDefineId). */
  Switches: z.array(runModelPointDto),
  Numbers: z.array(runModelPointDto),
});
export type RunModelDto = z.infer<typeof runModelDto>;

export const rotateRequest = z.object({ SystemId: idRef });
