/**
 * The form fields of a data point (the library's, a template profile's): the data type, the unit
 * from the §9 families, and a Format and DefaultValue edited as the type reads them and checked
 * with the shared data-type rules.
 */
import type { FormFieldDef } from '../resource-table/resource-types';
import { DataTypeSelect } from './data-define-select';
import { dataDefinitionRule } from './data-value-rules';
import { DefaultValueEditor } from './default-value-editor';
import { FormatEditor } from './format-editor';
import { UnitSelect } from './unit-select';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export const dataTypeField: FormFieldDef = {
  name: 'DataType',
  label: 'dataValue.dataType',
  kind: 'custom',
  render: ({ id, form }) => (
    <DataTypeSelect
      id={id}
      onTypeChange={() => {
        form.setFieldsValue({ Format: '', DefaultValue: '' });
      }}
    />
  ),
};

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
