/**
 * A value of a data type (a data point's DefaultValue, a configured DataValue): a choice among
 * the options of a switch, enumeration or select, a number with the format's step, or text
 * with the pattern of a time or date. Takes value and onChange, for a Form.Item.
 */
import { Input, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { isDataType, optionsOf, parseNumberFormat } from '@sluice/shared/data-types';
import { FORMAT_PATTERNS, formatKind } from './format-editor';

export function DefaultValueEditor({
  id,
  value = '',
  onChange,
  dataType,
  format,
}: {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  dataType: string;
  format: string;
}) {
  const { t } = useTranslation();
  const kind = formatKind(dataType);

  if (kind === 'options' && isDataType(dataType)) {
    const options = optionsOf(dataType, format);
    return (
      <Select
        id={id}
        allowClear
        placeholder={t('dataValue.noDefault')}
        value={value === '' ? undefined : value}
        onChange={(next: string | undefined) => {
          onChange?.(next ?? '');
        }}
        options={options.map((o) => ({ value: o.value, label: o.label === o.value ? o.value : `${o.label} (${o.value})` }))}
      />
    );
  }
  if (kind === 'number') {
    const parsed = parseNumberFormat(format);
    const step = typeof parsed === 'string' ? undefined : parsed.Step;
    return (
      <InputNumber<string>
        id={id}
        stringMode
        step={step}
        placeholder={t('dataValue.noDefault')}
        value={value === '' ? null : value}
        style={{ width: '100%' }}
        onChange={(next) => {
          onChange?.(next ?? '');
        }}
      />
    );
  }
  const pattern =
    kind === 'time' || kind === 'date' || kind === 'datetime' ? format || FORMAT_PATTERNS[kind].fallback : undefined;
  return (
    <Input
      id={id}
      value={value}
      maxLength={200}
      placeholder={pattern ?? t('dataValue.noDefault')}
      onChange={(event) => {
        onChange?.(event.target.value);
      }}
    />
  );
}
