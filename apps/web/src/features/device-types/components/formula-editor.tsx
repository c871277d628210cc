/**
 * A control's Formula (spec §3 Control): the data keys of its set value and its current value,
 * written as JSON {"SettingValue": …, "CurrentValue": …} or as the text 'setting||current', or
 * none. Picked from the type's keys, or typed as text; the form checks the result with the
 * shared rule (packages/shared/src/formula.ts). Takes value and onChange, for a Form.Item.
 */
import { useState } from 'react';
import { AutoComplete, Flex, Input, Radio, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { parseFormula } from '@sluice/shared/formula';

export type FormulaStyle = 'none' | 'json' | 'text' | 'raw';

/** How a formula is written: none, JSON, 'a||b', or something else (edited as text). */
export function formulaStyleOf(value: string): FormulaStyle {
  const text = value.trim();
  if (text === '') return 'none';
  const parsed = parseFormula(text);
  if (!parsed) return 'raw';
  return text.startsWith('{') ? 'json' : 'text';
}

/** The formula text of two keys in a style (the keys as typed: an empty one makes it invalid). */
export function composeFormula(style: 'json' | 'text', setting: string, current: string): string {
  return style === 'json' ? JSON.stringify({ SettingValue: setting, CurrentValue: current }) : `${setting}||${current}`;
}

function keysOf(value: string): { setting: string; current: string } {
  const parsed = parseFormula(value);
  if (parsed) return { setting: parsed.SettingValue, current: parsed.CurrentValue };
  return { setting: '', current: '' };
}

export function FormulaEditor({
  id,
  value = '',
  onChange,
  keys = [],
}: {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  keys?: string[];
}) {
  const { t } = useTranslation();
  const [style, setStyle] = useState<FormulaStyle>(() => formulaStyleOf(value));
  const [parts, setParts] = useState(() => keysOf(value));
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    // Another record (or a reset): read it again.
    setSeen(value);
    setStyle(formulaStyleOf(value));
    setParts(keysOf(value));
  }

  const emit = (next: string) => {
    setSeen(next);
    onChange?.(next);
  };
  const setPart = (which: 'setting' | 'current', key: string) => {
    const next = { ...parts, [which]: key };
    setParts(next);
    if (style === 'json' || style === 'text') emit(composeFormula(style, next.setting, next.current));
  };
  const options = keys.map((key) => ({ value: key }));
  const filterOption = (input: string, option?: { value: string }) =>
    (option?.value ?? '').toLowerCase().includes(input.toLowerCase());

  return (
    <Flex vertical gap={8}>
      <Radio.Group
        id={id}
        optionType="button"
        size="small"
        value={style}
        aria-label={t('controlFormula.style')}
        onChange={(event) => {
          const next = event.target.value as FormulaStyle;
          setStyle(next);
          if (next === 'none') emit('');
          else if (next === 'json' || next === 'text') emit(composeFormula(next, parts.setting, parts.current));
        }}
        options={[
          { value: 'none', label: t('controlFormula.none') },
          { value: 'json', label: t('controlFormula.json') },
          { value: 'text', label: t('controlFormula.text') },
          { value: 'raw', label: t('controlFormula.raw') },
        ]}
      />
      {(style === 'json' || style === 'text') && (
        <Flex gap={8} wrap>
          <Flex vertical gap={2} style={{ flex: '1 1 160px' }}>
            <label htmlFor={`${id ?? 'formula'}-setting`} style={{ fontSize: 12 }}>
              {t('controlFormula.settingValue')}
            </label>
            <AutoComplete
              id={`${id ?? 'formula'}-setting`}
              value={parts.setting}
              options={options}
              showSearch={{ filterOption }}
              placeholder={t('controlFormula.pickKey')}
              onChange={(key: string) => {
                setPart('setting', key);
              }}
            />
          </Flex>
          <Flex vertical gap={2} style={{ flex: '1 1 160px' }}>
            <label htmlFor={`${id ?? 'formula'}-current`} style={{ fontSize: 12 }}>
              {t('controlFormula.currentValue')}
            </label>
            <AutoComplete
              id={`${id ?? 'formula'}-current`}
              value={parts.current}
              options={options}
              showSearch={{ filterOption }}
              placeholder={t('controlFormula.pickKey')}
              onChange={(key: string) => {
                setPart('current', key);
              }}
            />
          </Flex>
        </Flex>
      )}
      {style === 'raw' && (
        <Input
          id={`${id ?? 'formula'}-text`}
          aria-label={t('controlFormula.asText')}
          value={value}
          placeholder='{"SettingValue":"DO_SET","CurrentValue":"DO"}'
          onChange={(event) => {
            emit(event.target.value);
          }}
        />
      )}
      {style !== 'none' && value !== '' && style !== 'raw' && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('controlFormula.result')} <Typography.Text code>{value}</Typography.Text>
        </Typography.Text>
      )}
    </Flex>
  );
}
