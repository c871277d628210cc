/** One form field of a resource dialog, by kind, with its rules from the shared schema. */
import {
  AutoComplete,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Radio,
  Select,
  Switch,
  TreeSelect,
  type FormInstance,
  type FormRule,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { MessageKey } from '../../lib/i18n';
import { zodFieldRules, zodObjectRule, type ParsableSchema } from '../../lib/zod-form';
import type { Choice, FormFieldDef, FormMode } from './resource-types';

export function useChoiceLabel() {
  const { t } = useTranslation();
  return (choice: Choice): string => (choice.labelKey ? t(choice.labelKey) : (choice.text ?? String(choice.value)));
}

/** The rules of a field: its own, else from the schema's field (and the whole schema for cross-field checks). */
export function fieldRules(field: FormFieldDef, schema: unknown, shape: Record<string, ParsableSchema> | undefined): FormRule[] {
  if (field.rules) return field.rules;
  const fieldSchema = shape?.[field.name];
  if (!fieldSchema) return [];
  const rules = zodFieldRules(fieldSchema);
  if (field.dependencies && schema && typeof schema === 'object' && 'safeParse' in schema) {
    rules.push(zodObjectRule(schema as ParsableSchema, field.name));
  }
  return rules;
}

const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm';

/** A 'dateTime' field's value is epoch ms in the form (what the schema checks and the server takes); its picker holds a Dayjs. */
const dateTimeProps = {
  getValueProps: (value: unknown) => ({ value: typeof value === 'number' ? dayjs(value) : undefined }),
  normalize: (value: Dayjs | null | undefined) => value?.valueOf(),
};

/**
 * The input of a field. An element, not a component: Form.Item hands value and onChange to its
 * direct child.
 */
function control(
  field: FormFieldDef,
  mode: FormMode,
  id: string,
  t: (key: MessageKey) => string,
  choiceLabel: (choice: Choice) => string,
  custom: { values: Record<string, unknown>; form: FormInstance | undefined },
) {
  const placeholder = field.placeholder ? t(field.placeholder) : undefined;
  const readOnly = mode === 'edit' && field.readOnlyInEdit === true;
  const options = (field.options ?? []).map((choice) => ({
    value: choice.value as string | number,
    label: choiceLabel(choice),
    disabled: choice.disabled,
  }));

  switch (field.kind) {
    case 'password':
      return <Input.Password id={id} autoComplete={field.autoComplete ?? 'new-password'} placeholder={placeholder} />;
    case 'textarea':
      return <Input.TextArea id={id} autoSize={{ minRows: 2, maxRows: 6 }} placeholder={placeholder} />;
    case 'number':
      return <InputNumber id={id} min={field.min} max={field.max} placeholder={placeholder} style={{ width: '100%' }} />;
    case 'switch':
      return <Switch id={id} />;
    case 'select':
      return (
        <Select
          id={id}
          mode={field.multiple ? 'multiple' : undefined}
          options={options}
          placeholder={placeholder}
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
        />
      );
    case 'radio':
      return <Radio.Group id={id} options={options} optionType="button" buttonStyle="solid" />;
    case 'tree-select':
      return (
        <TreeSelect
          id={id}
          treeData={field.treeData}
          placeholder={placeholder}
          treeDefaultExpandAll
          showSearch={{ treeNodeFilterProp: 'title' }}
          styles={{ popup: { root: { maxHeight: 400, overflow: 'auto' } } }}
        />
      );
    case 'autocomplete':
      return (
        <AutoComplete
          id={id}
          options={(field.suggestions ?? []).map((value) => ({ value }))}
          placeholder={placeholder}
          showSearch={{
            filterOption: (input, option) => (option?.value ?? '').toLowerCase().includes(input.toLowerCase()),
          }}
        />
      );
    case 'dateTime':
      return (
        <DatePicker
          id={id}
          showTime={{ format: 'HH:mm' }}
          format={DATE_TIME_FORMAT}
          placeholder={placeholder}
          disabled={readOnly}
          style={{ width: '100%' }}
        />
      );
    case 'hidden':
      return <Input id={id} type="hidden" />;
    case 'custom':
      if (!field.render || !custom.form) return <Input id={id} />;
      return field.render({ id, mode, values: custom.values, form: custom.form });
    case 'text':
      return (
        <Input
          id={id}
          autoComplete={field.autoComplete ?? 'off'}
          placeholder={placeholder}
          readOnly={readOnly}
          variant={readOnly ? 'filled' : undefined}
        />
      );
  }
}

export function ResourceFormField({
  field,
  mode,
  formName,
  schema,
  shape,
  values = {},
  form,
}: {
  field: FormFieldDef;
  mode: FormMode;
  formName: string;
  schema: unknown;
  shape: Record<string, ParsableSchema> | undefined;
  /** The form's current values and instance, for 'custom' fields. */
  values?: Record<string, unknown>;
  form?: FormInstance;
}) {
  const { t } = useTranslation();
  const choiceLabel = useChoiceLabel();
  const id = `${formName}-${field.name}`;
  const readOnly = mode === 'edit' && field.readOnlyInEdit === true;
  const rules = readOnly ? [] : fieldRules(field, schema, shape);
  const item = (
    <Form.Item
      name={field.name}
      label={field.kind === 'hidden' ? undefined : t(field.label)}
      htmlFor={id}
      hidden={field.kind === 'hidden'}
      rules={rules}
      dependencies={field.dependencies}
      valuePropName={field.kind === 'switch' ? 'checked' : 'value'}
      {...(field.kind === 'dateTime' ? dateTimeProps : {})}
      extra={field.help ? t(field.help) : undefined}
      style={field.addon ? { flex: 1, marginBottom: 0 } : undefined}
    >
      {control(field, mode, id, t, choiceLabel, { values, form })}
    </Form.Item>
  );
  if (!field.addon) return item;
  const addon = field.addon;
  return (
    <Form.Item noStyle shouldUpdate={(a: Record<string, unknown>, b: Record<string, unknown>) => a[field.name] !== b[field.name]}>
      {(form) => (
        <div style={{ display: 'flex', gap: 12, alignItems: 'flex-end', marginBottom: 24 }}>
          {item}
          <div style={{ paddingBottom: 6 }}>{addon(form.getFieldValue(field.name))}</div>
        </div>
      )}
    </Form.Item>
  );
}
