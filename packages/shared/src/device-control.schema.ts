/**
 * A device's control panel (spec §2 device control tabs, §3 Device control item, §4 control
 * modes): GET {g}/{deviceSn}/DeviceControl answers the device's type modules with their
 * controls, each with the definition the server checks a command against (the device's own
 * data point, else the type's control, else the type's data point: control-values.ts), the
 * data points that report back (feedback), and the control mode the tabs switch.
 */
import { z } from 'zod';

/** A data point as a control shows it: the definition commands are checked against. */
export const controlPointDto = z.object({
  Key: z.string(),
  Name: z.string(),
  DataType: z.string(),
  Format: z.string(),
  Unit: z.string(),
  /** How the type's control shows it ('time' for a duration; '' when not a control). */
  ShowType: z.string(),
});
export type ControlPointDto = z.infer<typeof controlPointDto>;

export const deviceControlItemDto = z.object({
  Id: z.number(),
  /** The control's own name (ControlName); its data point's name is Point.Name. */
  ControlName: z.string(),
  Point: controlPointDto,
  /** The key of the current value shown beside the set value (Formula's CurrentValue), if any. */
  CurrentKey: z.string().nullable(),
  /** The data point of CurrentKey, for its name, unit and format. */
  Current: controlPointDto.nullable(),
  /** Data points that report the equipment's state (run, fault, auto) back. */
  Feedbacks: z.array(controlPointDto),
  Sn: z.number(),
});
export type DeviceControlItemDto = z.infer<typeof deviceControlItemDto>;

export const deviceControlModuleDto = z.object({
  Id: z.number(),
  ModuleName: z.string(),
  ModuleType: z.string(),
  Sn: z.number(),
  Controls: z.array(deviceControlItemDto),
});
export type DeviceControlModuleDto = z.infer<typeof deviceControlModuleDto>;

export const deviceControlDto = z.object({
  DeviceSn: z.string(),
  Online: z.boolean(),
  /** The caller holds device.control and more than a view-only grant on the device. */
  CanControl: z.boolean(),
  /** The control mode data point (its options are the tabs); null when the device has none. */
  ControlMode: controlPointDto.nullable(),
  /** One-key stop and alarm reset, shown as danger buttons; null when the device has none. */
  OneKeyStop: controlPointDto.nullable(),
  AlarmReset: controlPointDto.nullable(),
  /** The type's modules in order, with their controls (without the three above). */
  Modules: z.array(deviceControlModuleDto),
});
export type DeviceControlDto = z.infer<typeof deviceControlDto>;
