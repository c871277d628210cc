/**
 * Pickers of the data-definition library (loaded once for administrators, lib/common-params):
 * a data point by its Id or its DataKey, and a data type (changing it clears the format and the
 * default, which belong to the old type).
 */
import { Select, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { DATA_TYPES, isReadOnly, type DataType } from '@sluice/shared/data-types';
import type { DataDefineDto } from '@sluice/shared/data-define.schema';
import { useDataDefineLibrary } from '../../lib/common-params';

export const dataDefineLabel = (d: Pick<DataDefineDto, 'DataKey' | 'DataName'>) => `${d.DataKey} · ${d.DataName}`;

export function DataDefineSelect({
  id,
  value,
  onChange,
  by = 'Id',
  onPick,
  filter,
  allowClear = false,
}: {
  id?: string;
  value?: number | string | null;
  onChange?: (value: number | string | undefined) => void;
  /** What the value is: the data point's Id (default) or its DataKey. */
  by?: 'Id' | 'DataKey';
  /** Called with the data point picked (to fill other fields from it). */
  onPick?: (define: DataDefineDto | undefined) => void;
  /** Only these data points are offered. */
  filter?: (define: DataDefineDto) => boolean;
  allowClear?: boolean;
}) {
  const { t } = useTranslation();
  const { data = [], isPending } = useDataDefineLibrary();
  const offered = filter ? data.filter(filter) : data;
  return (
    <Select<number | string>
      id={id}
      showSearch={{ optionFilterProp: 'label' }}
      allowClear={allowClear}
      loading={isPending}
      placeholder={t('dataValue.pickDataPoint')}
      value={value === null || value === '' || value === 0 ? undefined : (value ?? undefined)}
      onChange={(next) => {
        onChange?.(next);
        onPick?.(data.find((d) => (by === 'Id' ? d.Id === next : d.DataKey === next)));
      }}
      options={offered.map((d) => ({ value: by === 'Id' ? d.Id : d.DataKey, label: dataDefineLabel(d) }))}
      popupMatchSelectWidth={false}
    />
  );
}

/** The name of a data type in the user's language. */
export function useDataTypeLabel() {
  const { t } = useTranslation();
  return (type: string) => ((DATA_TYPES as readonly string[]).includes(type) ? t(`dataTypes.${type as DataType}`) : type);
}

export function DataTypeTag({ type }: { type: string }) {
  const label = useDataTypeLabel();
  const readOnly = (DATA_TYPES as readonly string[]).includes(type) && isReadOnly(type as DataType);
  return <Tag color={readOnly ? 'default' : 'green'}>{label(type)}</Tag>;
}

export function DataTypeSelect({
  id,
  value,
  onChange,
  onTypeChange,
}: {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  /** Called after the user picks another type (to clear the fields that belong to the old one). */
  onTypeChange?: (type: string) => void;
}) {
  const { t } = useTranslation();
  const label = useDataTypeLabel();
  return (
    <Select<string>
      id={id}
      value={value}
      placeholder={t('dataValue.pickDataType')}
      onChange={(next) => {
        onChange?.(next);
        if (next !== value) onTypeChange?.(next);
      }}
      options={DATA_TYPES.map((type) => ({
        value: type,
        label: isReadOnly(type) ? `${label(type)} — ${t('dataValue.readOnly')}` : label(type),
      }))}
    />
  );
}
