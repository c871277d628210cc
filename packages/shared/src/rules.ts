/** Reusable validation rules of spec §5, written once for server and console. */
import { z } from 'zod';

export const MOBILE_PATTERN = /^1[34578]\d{9}$/;
export const LANDLINE_PATTERN = /^0\d{2,3}-\d{7,8}$/;
export const FILE_VERSION_PATTERN = /^[Vv](\d+|x)\.(\d+|x)\.(\d+|x)$/;
export const NUMBER_PATTERN = /^-?\d+(\.\d+)?$/;

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 64;
export const ACCOUNT_MIN = 4;
export const ACCOUNT_MAX = 32;

/**
 * Rule messages are references to catalog keys with parameters, 'rule.length?min=4&max=32';
 * the server's error handler and the console's form adapter translate them.
 */
export function messageRef(key: string, params: Record<string, string | number> = {}): string {
  const query = Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');
  return query ? `${key}?${query}` : key;
}

export function parseMessageRef(ref: string): { key: string; params: Record<string, string> } {
  const [key = '', query = ''] = ref.split('?', 2);
  const pairs = query ? query.split('&').map((pair) => pair.split('=', 2)) : [];
  return { key, params: Object.fromEntries(pairs.map(([k = '', v = '']) => [k, decodeURIComponent(v)])) };
}

const length = (min: number, max: number) => ({ message: messageRef('rule.length', { min, max }) });

export const lettersAndDigits = (min: number, max: number) =>
  z
    .string()
    .min(min, length(min, max))
    .max(max, length(min, max))
    .regex(/[A-Za-z]/, { message: 'rule.lettersAndDigits' })
    .regex(/\d/, { message: 'rule.lettersAndDigits' });

export const lettersOrDigits = (min: number, max: number) =>
  z
    .string()
    .min(min, length(min, max))
    .max(max, length(min, max))
    .regex(/^[A-Za-z0-9]+$/, { message: 'rule.lettersOrDigits' });

export const anyText = (min: number, max: number) => z.string().trim().min(min, length(min, max)).max(max, length(min, max));

export const mobile = z.string().regex(MOBILE_PATTERN, { message: 'rule.mobile' });
export const landline = z.string().regex(LANDLINE_PATTERN, { message: 'rule.landline' });
/** A contact phone: a mainland mobile number or a landline with its area code. */
export const phone = z
  .string()
  .trim()
  .refine((v) => MOBILE_PATTERN.test(v) || LANDLINE_PATTERN.test(v), { message: 'rule.phone' });
export const fileVersion = z.string().regex(FILE_VERSION_PATTERN, { message: 'rule.fileVersion' });
export const numeric = z.string().regex(NUMBER_PATTERN, { message: 'rule.number' });
export const email = z.email({ message: 'rule.email' }).max(254);

export const password = lettersAndDigits(PASSWORD_MIN, PASSWORD_MAX);
export const account = lettersOrDigits(ACCOUNT_MIN, ACCOUNT_MAX);

/**
 * An optional text field. Absent (undefined), it is left as it is: a create stores the column's
 * default, an update keeps the old value. An explicit '' or null (a form's emptied field) clears
 * it, to ''; any other value must pass the schema.
 */
export const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === null ? '' : v), z.union([z.literal(''), schema]).optional());

/** Full-width commas are normalised to ASCII commas before searching (§5). */
export function normalizeSearch(search: string | undefined | null): string {
  return (search ?? '').replace(/，/g, ',').trim();
}
