/**
 * The chemicals added on a round (PAC 25 kg, sodium hypochlorite 10 L): a row per chemical with
 * its name (common ones suggested), quantity and unit; the monthly report sums them.
 */
import { AutoComplete, Button, Flex, InputNumber, Select, Space, Tag } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CHEMICAL_UNITS, COMMON_CHEMICALS, type ChemicalDose } from '@sluice/shared/field-records.schema';

type Dose = { Chemical: string; Quantity: number | null; Unit: ChemicalDose['Unit'] };

export function ChemicalsEditor({ id, value, onChange }: { id?: string; value?: Dose[]; onChange?: (value: Dose[]) => void }) {
  const { t } = useTranslation();
  const doses = value ?? [];
  const change = (index: number, patch: Partial<Dose>) => {
    onChange?.(doses.map((d, i) => (i === index ? { ...d, ...patch } : d)));
  };
  return (
    <Flex id={id} vertical gap={8}>
      {doses.map((dose, i) => (
        // Rows have no identity of their own: the position is the row.
        <Flex key={i} gap={8} wrap align="center">
          <AutoComplete
            style={{ flex: '1 1 140px', minWidth: 120 }}
            aria-label={t('records.chemicals.nameOf', { index: i + 1 })}
            placeholder={t('records.chemicals.name')}
            value={dose.Chemical}
            options={COMMON_CHEMICALS.map((c) => ({ value: c, label: t(`records.chemicals.common.${c}`) }))}
            onChange={(Chemical: string) => {
              change(i, { Chemical });
            }}
          />
          <Space.Compact style={{ flex: '0 1 200px' }}>
            <InputNumber
              aria-label={t('records.chemicals.quantityOf', { index: i + 1 })}
              placeholder={t('records.chemicals.quantity')}
              min={0}
              value={dose.Quantity}
              onChange={(Quantity) => {
                change(i, { Quantity: typeof Quantity === 'number' ? Quantity : null });
              }}
              style={{ width: '100%' }}
            />
            <Select
              aria-label={t('records.chemicals.unitOf', { index: i + 1 })}
              value={dose.Unit}
              style={{ width: 72 }}
              options={CHEMICAL_UNITS.map((u) => ({ value: u, label: u }))}
              onChange={(Unit) => {
                change(i, { Unit });
              }}
            />
          </Space.Compact>
          <Button
            icon={<DeleteOutlined aria-hidden />}
            aria-label={t('records.chemicals.remove', { index: i + 1 })}
            onClick={() => {
              onChange?.(doses.filter((_, j) => j !== i));
            }}
          />
        </Flex>
      ))}
      <div>
        <Button
          icon={<PlusOutlined aria-hidden />}
          onClick={() => {
            onChange?.([...doses, { Chemical: '', Quantity: null, Unit: 'kg' }]);
          }}
        >
          {t('records.chemicals.add')}
        </Button>
      </div>
    </Flex>
  );
}

/** A round's chemicals as tags (PAC 25 kg). */
export function ChemicalTags({ doses }: { doses: readonly { Chemical: string; Quantity: number; Unit: string }[] }) {
  return (
    <>
      {doses.map((d) => (
        <Tag key={`${d.Chemical}-${d.Unit}`} color="processing">
          {d.Chemical} {d.Quantity} {d.Unit}
        </Tag>
      ))}
    </>
  );
}
