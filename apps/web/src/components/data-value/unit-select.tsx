/**
 * The unit of a data point: one of the unit families of spec §9 (time, energy, flow,
 * concentration, pressure, …), grouped by family; empty is no unit.
 */
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { UNIT_FAMILIES } from '@sluice/shared/units';
import { currentLanguage } from '../../lib/i18n';

// 'm' is a minute and a metre, stored as one symbol: it is offered once, in the last family that
// has it (length: tank levels are in metres far more often than times are in minutes).
const lastFamilyOf = new Map(UNIT_FAMILIES.flatMap((family) => family.units.map((u) => [u.symbol, family.id] as const)));
const GROUPS = UNIT_FAMILIES.map((family) => ({
  family,
  units: family.units.map((u) => u.symbol).filter((symbol) => lastFamilyOf.get(symbol) === family.id),
}));

export function UnitSelect({ id, value, onChange }: { id?: string; value?: string; onChange?: (value: string) => void }) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  return (
    <Select
      id={id}
      allowClear
      // Some thirty units: all in the page, for screen readers and find-as-you-type alike.
      virtual={false}
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={t('dataValue.noUnit')}
      value={value === '' ? undefined : value}
      onChange={(next: string | undefined) => {
        onChange?.(next ?? '');
      }}
      options={GROUPS.map(({ family, units }) => ({
        label: family.name[lang],
        title: family.name[lang],
        options: units.map((symbol) => ({ value: symbol, label: symbol })),
      }))}
    />
  );
}
