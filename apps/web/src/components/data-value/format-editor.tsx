/**
 * Editors of a data point's Format and DefaultValue that fit its data type (spec §3 data types,
 * §9 defaults): labels of 0 and 1 for switches, the options of an enumeration or a select, the
 * decimals, Min, Max and Step of a number, the pattern of a time or date. They write the text the
 * shared rules read (packages/shared/src/data-types.ts); the form checks it with those rules.
 * Each takes value and onChange, so it sits directly inside a Form.Item.
 */
import { useState } from 'react';
import { Button, Flex, Input, InputNumber, Select, Switch, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_FORMATS,
  NUMERIC_DATA_TYPES,
  OPTION_DATA_TYPES,
  isDataType,
  isRecord,
  optionsOf,
  parseJson,
  type DataType,
  type NumberFormat,
} from '@sluice/shared/data-types';

export type FormatKind = 'options' | 'number' | 'time' | 'date' | 'datetime' | 'none';

export function formatKind(dataType: string): FormatKind {
  if (!isDataType(dataType)) return 'none';
  if (OPTION_DATA_TYPES.includes(dataType)) return 'options';
  if (NUMERIC_DATA_TYPES.includes(dataType)) return 'number';
  if (dataType === 'time' || dataType === 'date' || dataType === 'datetime') return dataType;
  return 'none';
}

/** The patterns a time, date or date-time format may be ('' is the default). */
export const FORMAT_PATTERNS: Record<'time' | 'date' | 'datetime', { patterns: string[]; fallback: string }> = {
  time: { patterns: ['HH:mm', 'HH:mm:ss'], fallback: 'HH:mm:ss' },
  date: { patterns: ['YYYY-MM-DD'], fallback: 'YYYY-MM-DD' },
  datetime: { patterns: ['YYYY-MM-DD HH:mm:ss', 'YYYY-MM-DD HH:mm'], fallback: 'YYYY-MM-DD HH:mm:ss' },
};

interface OptionRow {
  uid: number;
  value: string;
  label: string;
}

let nextUid = 1;
const rowsOf = (type: DataType, format: string): OptionRow[] =>
  optionsOf(type, format).map((o) => ({ uid: nextUid++, value: o.value, label: o.label }));

/** Options as the JSON text of a format: { value: label } in the rows' order. */
export function serializeOptions(rows: { value: string; label: string }[]): string {
  const entries: [string, string][] = rows.map((r) => [r.value.trim(), r.label]);
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
}

/** A number format as its text: '' when empty, the decimals alone, else JSON of Min, Max, Step, Decimals. */
export function serializeNumberFormat(format: NumberFormat): string {
  const keys = (['Min', 'Max', 'Step', 'Decimals'] as const).filter((k) => format[k] !== undefined);
  if (keys.length === 0) return '';
  if (keys.length === 1 && keys[0] === 'Decimals') return String(format.Decimals);
  return JSON.stringify(Object.fromEntries(keys.map((k) => [k, format[k]])));
}

interface EditorProps {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
}

function OptionsEditor({ id, value = '', onChange, dataType }: EditorProps & { dataType: DataType }) {
  const { t } = useTranslation();
  const parsed = optionsOf(dataType, value);
  const fixedKeys = dataType === 'boolean' || dataType === 'boolean2';
  const [rows, setRows] = useState<OptionRow[]>(() => rowsOf(dataType, value));
  const [seen, setSeen] = useState({ value, dataType });
  // Text that is not a list of options (typed by hand, or imported) is edited as text.
  const [asText, setAsText] = useState(value.trim() !== '' && parsed.length === 0);
  if (seen.value !== value || seen.dataType !== dataType) {
    // The value changed from outside (another data type, the dialog opened on another record).
    setRows(rowsOf(dataType, value));
    setSeen({ value, dataType });
  }

  const emit = (next: OptionRow[]) => {
    setRows(next);
    const text = serializeOptions(next);
    setSeen({ value: text, dataType });
    onChange?.(text);
  };
  const update = (uid: number, change: Partial<OptionRow>) => {
    emit(rows.map((row) => (row.uid === uid ? { ...row, ...change } : row)));
  };
  const nextValue = () => {
    if (dataType !== 'enum') return '';
    const numbers = rows.map((r) => Number(r.value)).filter((n) => Number.isInteger(n));
    return String(numbers.length > 0 ? Math.max(...numbers) + 1 : 0);
  };
  const defaults = DEFAULT_FORMATS[dataType];

  return (
    <Flex vertical gap={8}>
      <Flex gap={8} align="center" wrap>
        <Switch
          size="small"
          checked={asText}
          aria-label={t('dataValue.editAsText')}
          onChange={(checked) => {
            setAsText(checked);
            if (!checked) setRows(rowsOf(dataType, value));
          }}
        />
        <Typography.Text type="secondary">{t('dataValue.editAsText')}</Typography.Text>
      </Flex>
      {asText ? (
        <Input.TextArea
          id={id}
          value={value}
          autoSize={{ minRows: 2, maxRows: 6 }}
          placeholder={defaults ? JSON.stringify(defaults) : undefined}
          onChange={(event) => {
            setSeen({ value: event.target.value, dataType });
            onChange?.(event.target.value);
          }}
        />
      ) : (
        <Flex vertical gap={6} role="group" aria-label={t('dataValue.options')}>
          {rows.map((row, index) => (
            <Flex key={row.uid} gap={6} align="center">
              {dataType === 'enum' ? (
                <InputNumber
                  id={index === 0 ? id : undefined}
                  aria-label={t('dataValue.optionValue', { index: index + 1 })}
                  value={row.value === '' ? null : Number(row.value)}
                  precision={0}
                  style={{ width: 96 }}
                  onChange={(v) => {
                    update(row.uid, { value: v === null ? '' : String(v) });
                  }}
                />
              ) : (
                <Input
                  id={index === 0 ? id : undefined}
                  aria-label={t('dataValue.optionValue', { index: index + 1 })}
                  value={row.value}
                  readOnly={fixedKeys}
                  variant={fixedKeys ? 'filled' : undefined}
                  style={{ width: 110 }}
                  onChange={(event) => {
                    update(row.uid, { value: event.target.value });
                  }}
                />
              )}
              <Input
                aria-label={t('dataValue.optionLabel', { index: index + 1 })}
                placeholder={t('dataValue.label')}
                value={row.label}
                onChange={(event) => {
                  update(row.uid, { label: event.target.value });
                }}
              />
              {!fixedKeys && (
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined aria-hidden />}
                  aria-label={t('dataValue.removeOption', { index: index + 1 })}
                  onClick={() => {
                    emit(rows.filter((r) => r.uid !== row.uid));
                  }}
                />
              )}
            </Flex>
          ))}
          {!fixedKeys && (
            <Button
              type="dashed"
              icon={<PlusOutlined aria-hidden />}
              onClick={() => {
                emit([...rows, { uid: nextUid++, value: nextValue(), label: '' }]);
              }}
            >
              {t('dataValue.addOption')}
            </Button>
          )}
        </Flex>
      )}
    </Flex>
  );
}

const NUMBER_PARTS = ['Decimals', 'Min', 'Max', 'Step'] as const;

/**
 * The parts of a number format as written, also when they break a rule (Min above Max), so the
 * inputs keep showing them while the form says what is wrong; undefined when it is not a format.
 */
export function numberFormatParts(text: string): NumberFormat | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return {};
  if (/^\d+$/.test(trimmed)) return { Decimals: Number(trimmed) };
  const record = parseJson(trimmed);
  if (!isRecord(record)) return undefined;
  const parts: NumberFormat = {};
  for (const key of ['Min', 'Max', 'Step', 'Decimals'] as const) {
    const part = record[key];
    if (typeof part === 'number') parts[key] = part;
  }
  return Object.keys(record).every((key) => key in parts) ? parts : undefined;
}

function NumberFormatEditor({ id, value = '', onChange }: EditorProps) {
  const { t } = useTranslation();
  const parts = numberFormatParts(value);
  const [asText, setAsText] = useState(parts === undefined);
  const format: NumberFormat = parts ?? {};
  const set = (key: (typeof NUMBER_PARTS)[number], next: number | null) => {
    onChange?.(serializeNumberFormat({ ...format, [key]: next ?? undefined }));
  };
  const labels = {
    Decimals: t('dataValue.decimals'),
    Min: t('dataValue.min'),
    Max: t('dataValue.max'),
    Step: t('dataValue.step'),
  };

  return (
    <Flex vertical gap={8}>
      <Flex gap={8} align="center">
        <Switch size="small" checked={asText} aria-label={t('dataValue.editAsText')} onChange={setAsText} />
        <Typography.Text type="secondary">{t('dataValue.editAsText')}</Typography.Text>
      </Flex>
      {asText ? (
        <Input
          id={id}
          value={value}
          placeholder='{"Min":0,"Max":100,"Step":1,"Decimals":2}'
          onChange={(event) => {
            onChange?.(event.target.value);
          }}
        />
      ) : (
        <Flex gap={8} wrap>
          {NUMBER_PARTS.map((key, index) => {
            const inputId = index === 0 ? id : `${id ?? 'format'}-${key}`;
            return (
              <Flex key={key} vertical gap={2} style={{ flex: '1 1 90px', minWidth: 90 }}>
                <label htmlFor={inputId} style={{ fontSize: 12 }}>
                  {labels[key]}
                </label>
                <InputNumber
                  id={inputId}
                  value={format[key] ?? null}
                  min={key === 'Decimals' ? 0 : key === 'Step' ? 0 : undefined}
                  max={key === 'Decimals' ? 6 : undefined}
                  precision={key === 'Decimals' ? 0 : undefined}
                  style={{ width: '100%' }}
                  onChange={(next) => {
                    set(key, typeof next === 'number' ? next : null);
                  }}
                />
              </Flex>
            );
          })}
        </Flex>
      )}
    </Flex>
  );
}

/** The Format of a data point, edited as its data type reads it. */
export function FormatEditor({ id, value = '', onChange, dataType }: EditorProps & { dataType: string }) {
  const { t } = useTranslation();
  const kind = formatKind(dataType);
  if (kind === 'options' && isDataType(dataType))
    return <OptionsEditor key={dataType} id={id} value={value} onChange={onChange} dataType={dataType} />;
  if (kind === 'number') return <NumberFormatEditor id={id} value={value} onChange={onChange} />;
  if (kind === 'time' || kind === 'date' || kind === 'datetime') {
    const { patterns, fallback } = FORMAT_PATTERNS[kind];
    return (
      <Select
        id={id}
        value={value}
        onChange={(next: string) => {
          onChange?.(next);
        }}
        options={[
          { value: '', label: t('dataValue.defaultPattern', { pattern: fallback }) },
          ...patterns.map((p) => ({ value: p, label: p })),
        ]}
      />
    );
  }
  return (
    <Input
      id={id}
      value={value}
      placeholder={t('dataValue.noFormat')}
      onChange={(event) => {
        onChange?.(event.target.value);
      }}
    />
  );
}
