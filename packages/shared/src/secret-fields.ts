/**
 * Fields a schema marks secret (passwords, keys, tokens): the audit trail masks their values
 * wherever they appear (audit.schema.ts isSecretKey), beside the keys its own pattern knows.
 */
const marked = new Set<string>();

/** Marks the fields of a schema shape as secret; answers the shape. */
export function secretFields<T extends Record<string, unknown>>(shape: T): T {
  for (const key of Object.keys(shape)) marked.add(key);
  return shape;
}

/** The keys the schemas marked secret. */
export const markedSecretKeys = (): string[] => [...marked];

export const isMarkedSecret = (key: string): boolean => marked.has(key);
