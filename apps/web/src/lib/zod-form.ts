/**
 * Turns the shared zod schemas (packages/shared) into Ant Design Form rules, so a rule is
 * written once for server and console. Schema messages are references such as 'rule.mobile'
 * or 'rule.length?min=4&max=32', translated here with the web catalogs.
 */
import type { FormRule } from 'antd';
import { parseMessageRef } from '@sluice/shared/rules';
import { objectShape as sharedObjectShape } from '@sluice/shared/schema-shape';
import { i18n, isMessageKey } from './i18n';

interface Issue {
  readonly message: string;
  readonly path: readonly PropertyKey[];
}

/** What the adapter needs of a zod schema (any zod type satisfies it). */
export interface ParsableSchema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: readonly Issue[] } };
}

export interface ObjectSchema<Shape extends Record<string, ParsableSchema>> {
  shape: Shape;
}

/** Translates a shared message reference in the current UI language. */
export function translateMessageRef(ref: string): string {
  const { key, params } = parseMessageRef(ref);
  return isMessageKey(key) ? i18n.t(key, { replace: params }) : i18n.t('rule.invalid');
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Whether a field schema accepts an absent value (an optional form field). */
export function isOptional(schema: ParsableSchema): boolean {
  return schema.safeParse(undefined).success;
}

/** Rules for one field schema: required when the schema rejects an absent value. */
export function zodFieldRules(schema: ParsableSchema): FormRule[] {
  const required = !isOptional(schema);
  return [
    {
      required,
      validator: (_rule, value: unknown) => {
        const problem = fieldProblem(schema, value, required);
        return problem === undefined ? Promise.resolve() : Promise.reject(new Error(problem));
      },
    },
  ];
}

/** The translated problem of one value against a field schema, or undefined when it is fine. */
export function fieldProblem(schema: ParsableSchema, value: unknown, required: boolean): string | undefined {
  if (isEmpty(value)) {
    if (required) return i18n.t('rule.required');
    return undefined;
  }
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  return translateMessageRef(result.error.issues[0]?.message ?? 'rule.invalid');
}

/** Rules for a field of a zod object schema. */
export function zodRules<Shape extends Record<string, ParsableSchema>>(
  schema: ObjectSchema<Shape>,
  field: keyof Shape & string,
): FormRule[] {
  const fieldSchema = schema.shape[field];
  if (!fieldSchema) throw new Error(`The schema has no field ${field}`);
  return zodFieldRules(fieldSchema);
}

/**
 * A rule checking the whole form against an object schema and reporting the issues that
 * belong to one field: this carries cross-field refinements (password confirmation).
 */
export function zodObjectRule(schema: ParsableSchema, field: string): FormRule {
  return (form) => ({
    validator: () => {
      const result = schema.safeParse(form.getFieldsValue());
      if (result.success) return Promise.resolve();
      const issue = result.error.issues.find((i) => i.path.length > 0 && String(i.path[0]) === field);
      return issue ? Promise.reject(new Error(translateMessageRef(issue.message))) : Promise.resolve();
    },
  });
}

/** The field schemas of an object schema, also when it is wrapped (see @sluice/shared/schema-shape). */
export const objectShape = (schema: unknown): Record<string, ParsableSchema> | undefined => sharedObjectShape(schema);

/**
 * A confirmation field: its value must equal another field's. The message is the shared
 * schemas' reference (they refine the same pair), checked here at once rather than only when the
 * rest of the form is valid.
 */
export function matchesField(other: string, messageRef = 'rule.passwordAgain'): FormRule {
  return (form) => ({
    validator: (_rule, value: unknown) => {
      if (isEmpty(value) || value === form.getFieldValue(other)) return Promise.resolve();
      return Promise.reject(new Error(translateMessageRef(messageRef)));
    },
  });
}
