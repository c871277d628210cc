/**
 * SIM provider accounts (spec §3 SIM provider account 'simboss', §7 SIM) and the card data the
 * provider answers for a device's ICCID. Secrets never travel back in full.
 */
import { z } from 'zod';
import { anyText } from './rules.ts';
import { idRef } from './schema-fields.ts';
import { secretFields } from './secret-fields.ts';

/** What a secret looks like on the way out. Sent back unchanged, it means "keep the stored one". */
export const SECRET_MASK = '••••••';

export const simAccountDto = z.object({
  Id: z.number(),
  SimAccount: z.string(),
  /** Always the mask. */
  SimPassword: z.string(),
  AppId: z.string(),
  /** The mask and the secret's last 4 characters. */
  AppSecret: z.string(),
});
export type SimAccountDto = z.infer<typeof simAccountDto>;

const secret = z.string().max(200);
export const addSimAccountRequest = z.object({
  SimAccount: anyText(1, 64),
  AppId: anyText(1, 128),
  ...secretFields({
    SimPassword: secret.refine((v) => v !== '' && v !== SECRET_MASK, { message: 'rule.required' }),
    AppSecret: secret.refine((v) => v !== '' && v !== SECRET_MASK, { message: 'rule.required' }),
  }),
});
/** Empty or masked secrets keep the stored ones. */
export const updateSimAccountRequest = z.object({
  Id: idRef,
  SimAccount: anyText(1, 64),
  SimPassword: secret.optional(),
  AppId: anyText(1, 128),
  AppSecret: secret.optional(),
});

/** A card as the SIM provider reports it. */
export const simCardDto = z.object({
  Iccid: z.string(),
  Imsi: z.string(),
  Msisdn: z.string(),
  Carrier: z.string(),
  Status: z.string(),
  DataPlanMB: z.number().nullable(),
  DataUsedMB: z.number().nullable(),
  ActivatedAt: z.string(),
  ExpiresAt: z.string(),
  /** The provider account that knows the card. */
  SimAccount: z.string(),
});
export type SimCardDto = z.infer<typeof simCardDto>;
