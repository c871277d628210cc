/**
 * The field schemas of an object schema, also when it is wrapped (z.preprocess(…, object) or a
 * refined pipe: the request schemas that accept legacy key spellings are). The console reads its
 * form rules from them; the contract tests check form fields against them.
 */
import type { z } from 'zod';

export function objectShape(schema: unknown): Record<string, z.ZodType> | undefined {
  let current: unknown = schema;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    if ('shape' in current && current.shape && typeof current.shape === 'object') {
      return current.shape as Record<string, z.ZodType>;
    }
    // A zod pipe: the object is its output side (after a preprocess) or its input side.
    const pipe = current as { out?: unknown; in?: unknown };
    const next = pipe.out && typeof pipe.out === 'object' && 'shape' in pipe.out ? pipe.out : pipe.in;
    if (next === current) return undefined;
    current = next;
  }
  return undefined;
}
