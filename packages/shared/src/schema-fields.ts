/** Field schemas reused by the configuration schemas (data definitions, device types, templates). */
import { z } from 'zod';
import { anyText, messageRef, optional } from './rules.ts';
import { canonicalUnit } from './units.ts';

/** The largest record id: ids are 32-bit integer columns (a larger one would fail in PostgreSQL, not name a record). */
export const ID_MAX = 2_147_483_647;
export const idRef = z.coerce.number().int().positive().max(ID_MAX);
export const optionalIdRef = z.preprocess(
  (v) => (v === '' || v === null || v === 0 || v === '0' ? undefined : v),
  idRef.optional(),
);

/** An optional filter: '' or null (a cleared field) counts as absent. */
export const emptyAsUndefined = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional());

/** A 0/1 flag arriving as a boolean, 0/1 or their strings. */
export const flag = z.preprocess(
  (v) => (v === 1 || v === '1' || v === 'true' ? true : v === 0 || v === '0' || v === 'false' ? false : v),
  z.boolean(),
);

/** A sort number (Sn, Rank). */
export const sortNo = z.coerce.number().int().min(0).max(1_000_000);

export const text = (max: number) => optional(anyText(0, max));
export const name = (max = 64) => anyText(1, max);

export const DATA_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
export const dataKey = z.string().trim().regex(DATA_KEY_PATTERN, { message: 'rule.dataKey' });

/** A unit of the §9 families, turned into its canonical symbol; '' is none. */
export const unitField = optional(
  z
    .string()
    .max(32)
    .transform((value, ctx) => {
      const canonical = canonicalUnit(value);
      if (canonical === undefined) {
        ctx.addIssue({ code: 'custom', message: messageRef('rule.unit', { unit: value }) });
        return z.NEVER;
      }
      return canonical;
    }),
);

/** Names joined by commas (full-width commas too), or an array of names; stored as 'a,b'. */
export function splitList(value: string): string[] {
  return [
    ...new Set(
      value
        .replace(/，/g, ',')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
}

export const nameList = optional(
  z.preprocess(
    (v) => (Array.isArray(v) ? v.map(String).join(',') : v),
    z
      .string()
      .max(500)
      .transform((v) => splitList(v).join(',')),
  ),
);

/**
 * Bulk reorder: the new sort number of each row, as { Items: [{ Id, Sn }] } or a bare array.
 * The number may also be called Rank or SequenceIn, after the column it sets.
 */
const reorderItem = z.preprocess(
  (v) => {
    if (!v || typeof v !== 'object') return v;
    const item = v as Record<string, unknown>;
    return { Id: item.Id, Sn: item.Sn ?? item.Rank ?? item.SequenceIn };
  },
  z.object({ Id: idRef, Sn: sortNo }),
);
export const reorderRequest = z.preprocess(
  (v) => (Array.isArray(v) ? { Items: v } : v),
  z.object({ Items: z.array(reorderItem).min(1).max(1000) }),
);
export type ReorderRequest = z.infer<typeof reorderRequest>;

/**
 * Accepts a key also in the spelling older clients send it with a lower-case first letter (the
 * spec's `parentId` for ParentId); the capitalised spelling wins when both are there.
 */
export const lowerCaseAliases =
  (names: string[]) =>
  (v: unknown): unknown => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
    const body = { ...(v as Record<string, unknown>) };
    for (const name of names) {
      const lower = name.charAt(0).toLowerCase() + name.slice(1);
      if (body[name] === undefined && body[lower] !== undefined) body[name] = body[lower];
    }
    return body;
  };
