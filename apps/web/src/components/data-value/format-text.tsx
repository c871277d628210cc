/**
 * A data point's Format in words, for lists: a number's range, step and decimals ("0–8, step
 * 0.5, 2 decimals"), the labels of a boolean, enum or select ("0 = Manual, 1 = Auto"), a time
 * or date pattern. The stored text stays on hover, and an unreadable format shows as stored.
 */
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { isDataType, NUMERIC_DATA_TYPES, OPTION_DATA_TYPES, optionsOf, parseNumberFormat } from '@sluice/shared/data-types';
import { useStoredName } from '../../lib/stored-names';

export function useFormatText(): (dataType: string, format: string) => string {
  const { t } = useTranslation();
  const name = useStoredName();
  return (dataType, format) => {
    if (!isDataType(dataType)) return format;
    if (NUMERIC_DATA_TYPES.includes(dataType)) {
      const parsed = parseNumberFormat(format);
      if (typeof parsed === 'string') return format;
      const parts: string[] = [];
      const { Min: min, Max: max, Step: step, Decimals: decimals } = parsed;
      if (min !== undefined && max !== undefined) parts.push(t('formatText.range', { min, max }));
      else if (min !== undefined) parts.push(t('formatText.atLeast', { min }));
      else if (max !== undefined) parts.push(t('formatText.atMost', { max }));
      if (step !== undefined) parts.push(t('formatText.step', { step }));
      if (decimals !== undefined)
        parts.push(
          decimals === 0
            ? t('formatText.wholeNumbers')
            : decimals === 1
              ? t('formatText.oneDecimal')
              : t('formatText.decimals', { n: decimals }),
        );
      return parts.length > 0 ? parts.join(t('formatText.separator')) : t('formatText.anyNumber');
    }
    if (OPTION_DATA_TYPES.includes(dataType)) {
      const options = optionsOf(dataType, format);
      return options.length > 0
        ? options.map((o) => t('formatText.option', { value: o.value, label: name(o.label) })).join(t('formatText.separator'))
        : format;
    }
    if (dataType === 'time') return format || 'HH:mm:ss';
    if (dataType === 'date') return format || 'YYYY-MM-DD';
    if (dataType === 'datetime') return format || 'YYYY-MM-DD HH:mm:ss';
    return format;
  };
}

export function FormatText({ dataType, format }: { dataType: string; format: string }) {
  const text = useFormatText()(dataType, format);
  if (!text) return <Typography.Text type="secondary">—</Typography.Text>;
  return <span title={format && format !== text ? format : undefined}>{text}</span>;
}
