/**
 * Hardware rows (spec §3 Hardware config, §7 DeviceHardware): one Modbus RTU read per row, with
 * the shared checks (slave 1–247, register 0–65535 and the read inside it, bit offset 0–15,
 * function codes, quantity per request, Min ≤ Max). Each row shows its read request and CRC16 as
 * the server computed them; the form previews them while typing. A device type's rows and a
 * device's own rows are the same table over different calls. Texts: the device-types catalog.
 */
import { useMemo, type ReactNode } from 'react';
import { Typography } from 'antd';
import type { FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DataDefineDto } from '@sluice/shared/data-define.schema';
import { addHardwareConfigRequest, updateHardwareConfigRequest, type HardwareConfigDto } from '@sluice/shared/device-type.schema';
import { FUNCTION_CODES, READ_FUNCTIONS, REGISTER_MAX, REGISTER_TYPES, WRITE_FUNCTIONS, readFrame } from '@sluice/shared/modbus';
import { messageRef } from '@sluice/shared/rules';
import { DataDefineSelect } from '../data-value/data-define-select';
import { DataPointCell, useLibraryById } from '../data-value/data-point-cell';
import type { Resource } from '../resource-table/resource';
import { ResourceTable } from '../resource-table/resource-table';
import type { FormFieldDef, ResourceTableConfig } from '../resource-table/resource-types';
import { objectShape, translateMessageRef, zodFieldRules, type ParsableSchema } from '../../lib/zod-form';

/** What a type's row and a device's row share. */
export type HardwareRow = Omit<HardwareConfigDto, 'TypeId'>;

const shape = objectShape(addHardwareConfigRequest) ?? {};
const rulesOf = (name: string): FormRule[] => {
  const schema: ParsableSchema | undefined = shape[name];
  return schema ? zodFieldRules(schema) : [];
};
const num = (value: unknown): number | undefined => {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
};
const reject = (ref: string) => Promise.reject(new Error(translateMessageRef(ref)));

/** Min cannot be greater than Max (the shared schema's cross-field rule, checked as you type). */
const minMaxRule: FormRule = (form) => ({
  validator: () => {
    const [min, max] = [num(form.getFieldValue('Min')), num(form.getFieldValue('Max'))];
    return min !== undefined && max !== undefined && min > max ? reject(messageRef('rule.minMax')) : Promise.resolve();
  },
});

/** One request reads at most what its function code allows. */
const quantityRule: FormRule = (form) => ({
  validator: () => {
    const [lens, cmd] = [num(form.getFieldValue('Lens')), num(form.getFieldValue('CMD'))];
    if (lens === undefined) return Promise.resolve();
    const limit = (READ_FUNCTIONS[cmd ?? 3] ?? WRITE_FUNCTIONS[cmd ?? 3])?.maxQuantity ?? 125;
    return lens > limit ? reject(messageRef('rule.quantity', { min: 1, max: limit })) : Promise.resolve();
  },
});

/** The registers read stay inside the register space: said on the address, as the server does. */
const registerRule: FormRule = (form) => ({
  validator: () => {
    const [lens, reg] = [num(form.getFieldValue('Lens')), num(form.getFieldValue('RegAd'))];
    return reg !== undefined && reg + (lens ?? 1) - 1 > REGISTER_MAX
      ? reject(messageRef('rule.register', { min: 0, max: REGISTER_MAX }))
      : Promise.resolve();
  },
});

function FramePreview({ values }: { values: Record<string, unknown> }) {
  const { t } = useTranslation();
  const [slave, cmd, reg, lens] = [num(values.ModbusSlave), num(values.CMD), num(values.RegAd), num(values.Lens)];
  const frame =
    slave !== undefined && cmd !== undefined && reg !== undefined && lens !== undefined
      ? readFrame(slave, cmd, reg, lens)
      : undefined;
  return (
    <div aria-live="polite">
      {frame ? (
        <Typography.Text>
          <Typography.Text code>{frame.frame}</Typography.Text> {t('typeHardware.crcIs', { crc: frame.crc })}
        </Typography.Text>
      ) : (
        <Typography.Text type="secondary">{t('typeHardware.noFrame')}</Typography.Text>
      )}
    </div>
  );
}

const functionName = (code: number) => READ_FUNCTIONS[code]?.name ?? WRITE_FUNCTIONS[code]?.name ?? '';

/** The fields of a hardware row. */
/** Modbus function codes by number and name ('03 · Read Holding Registers'), in the form and the list. */
const functionChoices = FUNCTION_CODES.map((code) => ({
  value: code,
  text: `${String(code).padStart(2, '0')} · ${functionName(code)}`,
}));

const hardwareFields: FormFieldDef[] = [
  {
    name: 'DataDefineId',
    label: 'typeHardware.dataDefine',
    kind: 'custom',
    wide: true,
    rules: rulesOf('DataDefineId'),
    render: ({ id }) => <DataDefineSelect id={id} />,
  },
  { name: 'No', label: 'typeHardware.no', kind: 'text' },
  { name: 'ShowKey', label: 'typeHardware.showKey', kind: 'text' },
  { name: 'ModbusSlave', label: 'typeHardware.modbusSlave', kind: 'number', help: 'typeHardware.modbusSlaveHelp' },
  {
    name: 'CMD',
    label: 'typeHardware.cmd',
    kind: 'select',
    options: functionChoices,
  },
  {
    name: 'RegAd',
    label: 'typeHardware.regAd',
    kind: 'number',
    help: 'typeHardware.regAdHelp',
    dependencies: ['Lens'],
    rules: [...rulesOf('RegAd'), registerRule],
  },
  {
    name: 'Lens',
    label: 'typeHardware.lens',
    kind: 'number',
    dependencies: ['CMD'],
    rules: [...rulesOf('Lens'), quantityRule],
  },
  {
    name: 'KeyType',
    label: 'typeHardware.keyType',
    kind: 'select',
    options: REGISTER_TYPES.map((type) => ({ value: type, text: type })),
  },
  { name: 'BitOffSet', label: 'typeHardware.bitOffset', kind: 'number', help: 'typeHardware.bitOffsetHelp' },
  { name: 'Min', label: 'typeHardware.min', kind: 'number', dependencies: ['Max'], rules: [...rulesOf('Min'), minMaxRule] },
  { name: 'Max', label: 'typeHardware.max', kind: 'number', dependencies: ['Min'], rules: rulesOf('Max') },
  { name: 'Address', label: 'typeHardware.address', kind: 'text' },
  { name: 'Comm', label: 'typeHardware.comm', kind: 'autocomplete', suggestions: ['RTU', 'TCP', 'ASCII'] },
  { name: 'Port', label: 'typeHardware.port', kind: 'text' },
  { name: 'PLCType', label: 'typeHardware.plcType', kind: 'text' },
  { name: 'Sn', label: 'typeHardware.sn', kind: 'number', min: 0 },
  {
    name: 'ReadFrame',
    label: 'typeHardware.readFrame',
    kind: 'custom',
    wide: true,
    rules: [],
    render: ({ values }) => <FramePreview values={values} />,
  },
];

/** The table and form of hardware rows over one resource (a type's rows, or a device's own). */
export function hardwareRowsConfig<Row extends HardwareRow>(
  resource: Resource<Row>,
  byId: Map<number, DataDefineDto>,
): ResourceTableConfig<Row> {
  return {
    resource,
    rowName: (row) => row.No || row.ShowKey || `#${String(row.Id)}`,
    search: { placeholder: 'typeHardware.searchPlaceholder' },
    addLabel: 'typeHardware.add',
    defaultSort: { key: 'Sn', order: 'asc' },
    columns: [
      { key: 'Sn', title: 'typeHardware.sn', sortKey: 'Sn', width: 70 },
      { key: 'No', title: 'typeHardware.no', sortKey: 'No' },
      {
        key: 'DataDefineId',
        title: 'typeHardware.dataDefine',
        render: (row) => <DataPointCell define={byId.get(row.DataDefineId)} fallback={row.DataDefineId} />,
      },
      {
        key: 'ReadFrame',
        title: 'typeHardware.readFrame',
        render: (row) => (row.ReadFrame ? <Typography.Text code>{row.ReadFrame}</Typography.Text> : '—'),
      },
      {
        key: 'Crc',
        title: 'typeHardware.crc',
        render: (row) => (row.Crc ? <Typography.Text code>{row.Crc}</Typography.Text> : '—'),
      },
      { key: 'ModbusSlave', title: 'typeHardware.modbusSlave', sortKey: 'ModbusSlave' },
      { key: 'CMD', title: 'typeHardware.cmd', options: functionChoices },
      { key: 'RegAd', title: 'typeHardware.regAd', sortKey: 'RegAd' },
      { key: 'Lens', title: 'typeHardware.lens' },
      {
        key: 'KeyType',
        title: 'typeHardware.keyType',
        render: (row) => (row.KeyType === 'bit' ? `bit ${String(row.BitOffSet)}` : row.KeyType),
      },
      {
        key: 'Range',
        title: 'typeHardware.range',
        render: (row) =>
          row.Min === null && row.Max === null
            ? '—'
            : `${row.Min === null ? '…' : String(row.Min)} – ${row.Max === null ? '…' : String(row.Max)}`,
      },
      { key: 'Address', title: 'typeHardware.address', onCards: false },
    ],
    form: {
      createSchema: addHardwareConfigRequest,
      updateSchema: updateHardwareConfigRequest,
      createTitle: 'typeHardware.add',
      editTitle: 'typeHardware.edit',
      columns: 2,
      initialValues: { ModbusSlave: 1, CMD: 3, RegAd: 0, Lens: 1, KeyType: 'uint16', BitOffSet: 0, Sn: 0, Comm: 'RTU' },
      fields: hardwareFields,
      toBody: (values) => {
        const body = { ...values };
        delete body.ReadFrame;
        for (const key of ['Min', 'Max']) if (body[key] === undefined) body[key] = null;
        return body;
      },
    },
  };
}

/** The hardware rows of one parent: pathParams fill the resource's path ({ typeId } or { sn }). */
export function HardwareRows<Row extends HardwareRow>({
  resource,
  pathParams,
  description,
}: {
  resource: Resource<Row>;
  pathParams: Record<string, string | number>;
  description: ReactNode;
}) {
  const byId = useLibraryById();
  const config = useMemo(() => hardwareRowsConfig(resource, byId), [resource, byId]);
  return <ResourceTable config={config} pathParams={pathParams} description={description} compact />;
}
