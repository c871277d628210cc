/**
 * The form fields of a data point (the library's, a template profile's): the data type, the unit
 * from the §9 families, and a Format and DefaultValue edited as the type reads them and checked
 * with the shared data-type rules.
 */
import type { FormRule } from 'antd';
import type { MessageKey } from '../../lib/i18n';
import type { FormFieldDef } from '../resource-table/resource-types';
import { DataTypeSelect } from './data-define-select';
import { dataDefinitionRule } from './data-value-rules';
import { DefaultValueEditor } from './default-value-editor';
import { FormatEditor } from './format-editor';
import { UnitSelect } from './unit-select';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The DataType choice; choosing another empties the fields read by the type. */
function dataTypeChoice(dependents: string[]): FormFieldDef {
  return {
    name: 'DataType',
    label: 'dataValue.dataType',
    kind: 'custom',
    render: ({ id, form }) => (
      <DataTypeSelect
        id={id}
        onTypeChange={() => {
          form.setFieldsValue(Object.fromEntries(dependents.map((name) => [name, ''])));
        }}
      />
    ),
  };
}

/** A data point's type: Format and DefaultValue are read by it. */
export const dataTypeField = dataTypeChoice(['Format', 'DefaultValue']);

/** A configured value's type (a type's configuration, a template's argument): DataValue is read by it. */
export const valueTypeField = dataTypeChoice(['DataValue']);

/** The configured value, edited as its DataType reads it; `rules`, when given, replace the schema's. */
export function dataValueField(label: MessageKey, rules?: FormRule[]): FormFieldDef {
  return {
    name: 'DataValue',
    label,
    kind: 'custom',
    dependencies: ['DataType'],
    ...(rules ? { rules } : {}),
    render: ({ id, values }) => <DefaultValueEditor id={id} dataType={text(values.DataType)} format="" />,
  };
}

export const unitField: FormFieldDef = {
  name: 'Unit',
  label: 'dataValue.unit',
  kind: 'custom',
  render: ({ id }) => <UnitSelect id={id} />,
};

export const formatField: FormFieldDef = {
  name: 'Format',
  label: 'dataValue.format',
  kind: 'custom',
  help: 'dataValue.formatHelp',
  wide: true,
  dependencies: ['DataType'],
  rules: [dataDefinitionRule('Format')],
  render: ({ id, values }) => <FormatEditor id={id} dataType={text(values.DataType)} />,
};

export const defaultValueField: FormFieldDef = {
  name: 'DefaultValue',
  label: 'dataValue.defaultValue',
  kind: 'custom',
  dependencies: ['DataType', 'Format'],
  rules: [dataDefinitionRule('DefaultValue')],
  render: ({ id, values }) => <DefaultValueEditor id={id} dataType={text(values.DataType)} format={text(values.Format)} />,
};
