/**
 * Form rules for a data point's DefaultValue and Format, and a configured value, from the shared
 * data-type rules (packages/shared/src/data-types.ts): the same checks and messages the server
 * applies, re-checked when the data type or the format changes.
 */
import type { FormRule } from 'antd';
import { checkDataDefinition, checkValue, isDataType, normalizeFormat } from '@sluice/shared/data-types';
import { translateMessageRef } from '../../lib/zod-form';

export interface DataFieldNames {
  type?: string;
  format?: string;
  value?: string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

/** Checks `field` (the Format or the DefaultValue) of a data definition against its data type. */
export function dataDefinitionRule(field: 'Format' | 'DefaultValue', names: DataFieldNames = {}): FormRule {
  const { type = 'DataType', format = 'Format', value = 'DefaultValue' } = names;
  return (form) => ({
    validator: () => {
      const issues = checkDataDefinition({
        DataType: text(form.getFieldValue(type)),
        Format: text(form.getFieldValue(format)),
        DefaultValue: text(form.getFieldValue(value)),
      }).issues;
      const issue = issues.find((i) => i.field === field);
      return issue ? Promise.reject(new Error(translateMessageRef(issue.message))) : Promise.resolve();
    },
  });
}

/** Checks a configured value (a type config's DataValue) against its data type's default format. */
export function valueFitsTypeRule(typeField = 'DataType'): FormRule {
  return (form) => ({
    validator: (_rule, raw: unknown) => {
      const type = text(form.getFieldValue(typeField));
      if (!isDataType(type)) return Promise.resolve();
      const normalized = normalizeFormat(type, '');
      const problem = checkValue(type, 'format' in normalized ? normalized.format : '', text(raw));
      return problem ? Promise.reject(new Error(translateMessageRef(problem))) : Promise.resolve();
    },
  });
}
