/**
 * The field schemas of an object schema, also when it is wrapped (z.preprocess(…, object), a
 * refined pipe, or one inside the other: the request schemas that accept legacy key spellings are). The console reads its
 * form rules from them; the contract tests check form fields against them.
 */
import type { z } from 'zod';

export function objectShape(schema: unknown, depth = 0): Record<string, z.ZodType> | undefined {
  if (depth > 6 || !schema || typeof schema !== 'object') return undefined;
  if ('shape' in schema && schema.shape && typeof schema.shape === 'object') return schema.shape as Record<string, z.ZodType>;
  // A zod pipe: the object is on its output side (after a preprocess, perhaps itself a refined
  // pipe: a device's data point) or its input side (before a transform).
  const pipe = schema as { out?: unknown; in?: unknown };
  return objectShape(pipe.out, depth + 1) ?? objectShape(pipe.in, depth + 1);
}
