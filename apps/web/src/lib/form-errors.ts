/** Shows server field errors (`data.errors: [{ field, message }]`) on the matching form fields. */
import type { FormInstance } from 'antd';
import { isApiError } from './api-client';

/**
 * Puts each server field error on the form field of the same name (case-insensitive), or on
 * the field `rename` gives for it (a form may edit one server field as two inputs).
 * Returns whether any field got an error; the caller shows the overall message otherwise.
 */
export function applyServerFieldErrors(
  form: FormInstance,
  error: unknown,
  fieldNames: readonly string[],
  rename: (field: string) => string = (field) => field,
): boolean {
  if (!isApiError(error)) return false;
  const byLowerName = new Map(fieldNames.map((name) => [name.toLowerCase(), name]));
  const fields = error.fieldErrors.flatMap((fieldError) => {
    const name = byLowerName.get(fieldError.field.toLowerCase());
    return name ? [{ name: rename(name), errors: [fieldError.message] }] : [];
  });
  if (fields.length > 0) form.setFields(fields);
  return fields.length > 0;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
