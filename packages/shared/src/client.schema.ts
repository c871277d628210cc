/** Clients (spec §3 Client, §7 Menus and clients). */
import { z } from 'zod';
import { anyText, landline, mobile, optional } from './rules.ts';
import { idRef } from './schema-fields.ts';

export const clientDto = z.object({
  Id: z.number(),
  ClientName: z.string(),
  ClientSn: z.string(),
  Linkman: z.string(),
  Telephone: z.string(),
  Mobile: z.string(),
  Address: z.string(),
  Description: z.string(),
});
export type ClientDto = z.infer<typeof clientDto>;

export const clientFields = {
  ClientName: anyText(1, 64),
  ClientSn: optional(
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{1,32}$/, { message: 'rule.lettersOrDigits' }),
  ),
  Linkman: optional(anyText(0, 32)),
  Telephone: optional(landline),
  Mobile: optional(mobile),
  Address: optional(anyText(0, 200)),
  Description: optional(anyText(0, 500)),
};

export const addClientRequest = z.object(clientFields);
export const updateClientRequest = z.object({ Id: idRef, ...clientFields });
