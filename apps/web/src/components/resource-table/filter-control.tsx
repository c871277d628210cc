/**
 * One filter of a resource table (resource-types.ts ResourceFilter): a choice, a text sent once
 * typing pauses, or a range of days. Each is labelled for screen readers; values are the list
 * call's query parameters, as the table keeps them (in the address for a screen's main list).
 */
import { useEffect, useRef, useState } from 'react';
import { DatePicker, Input, Select } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useChoiceLabel } from './form-field';
import type { ResourceFilter, TextFilter } from './resource-types';

const DAY = 'YYYY-MM-DD';

export interface FilterControlProps {
  filter: ResourceFilter;
  values: Record<string, string | undefined>;
  /** The parameters that change, with their new values (undefined: no filter). */
  onChange: (changes: Record<string, string | undefined>) => void;
  /** The whole row's width (phones). */
  wide: boolean;
}

function TextFilterInput({
  filter,
  value,
  onChange,
  wide,
}: {
  filter: TextFilter;
  value: string;
  onChange: (v: string | undefined) => void;
  wide: boolean;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  const debounced = useDebouncedValue(text.trim(), 400);
  const committed = useRef(value);
  useEffect(() => {
    // A value set elsewhere (the address, a link) shows in the box.
    if (value !== committed.current) {
      committed.current = value;
      setText(value);
    }
  }, [value]);
  useEffect(() => {
    if (debounced !== committed.current) {
      committed.current = debounced;
      onChange(debounced === '' ? undefined : debounced);
    }
  }, [debounced, onChange]);
  return (
    <Input
      allowClear
      value={text}
      onChange={(event) => {
        setText(event.target.value);
      }}
      aria-label={t(filter.label)}
      placeholder={t(filter.placeholder ?? filter.label)}
      style={{ width: wide ? '100%' : 180 }}
    />
  );
}

export function FilterControl({ filter, values, onChange, wide }: FilterControlProps) {
  const { t } = useTranslation();
  const choiceLabel = useChoiceLabel();
  if (filter.kind === 'text') {
    return (
      <TextFilterInput
        filter={filter}
        value={values[filter.param] ?? ''}
        onChange={(value) => {
          onChange({ [filter.param]: value });
        }}
        wide={wide}
      />
    );
  }
  if (filter.kind === 'dateRange') {
    const day = (value: string | undefined) => (value && dayjs(value, DAY, true).isValid() ? dayjs(value, DAY) : null);
    return (
      <DatePicker.RangePicker
        aria-label={t(filter.label)}
        allowEmpty={[true, true]}
        value={[day(values[filter.param]), day(values[filter.endParam])]}
        onChange={(range) => {
          onChange({ [filter.param]: range?.[0]?.format(DAY), [filter.endParam]: range?.[1]?.format(DAY) });
        }}
        style={{ width: wide ? '100%' : undefined, maxWidth: '100%' }}
      />
    );
  }
  return (
    <Select
      aria-label={t(filter.label)}
      value={values[filter.param] ?? ''}
      onChange={(value: string) => {
        onChange({ [filter.param]: value === '' ? undefined : value });
      }}
      showSearch={filter.options.length > 10 ? { optionFilterProp: 'label' } : undefined}
      options={[
        { value: '', label: t(filter.allLabel) },
        ...filter.options.map((choice) => ({ value: String(choice.value), label: choiceLabel(choice) })),
      ]}
      style={{ minWidth: 140, width: wide ? '100%' : undefined }}
    />
  );
}
