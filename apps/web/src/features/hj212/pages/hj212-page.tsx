/**
 * /sys/hj212 (issue 21): the group's pollutant code table (HJ 212 codes → data points) and the
 * links that forward a station's data to supervising platforms, with each link's state.
 */
import { Tabs, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  HJ212_FORWARD_KINDS,
  HJ212_MINUTE_INTERVALS,
  addHj212CodeRequest,
  addHj212ForwardRequest,
  updateHj212CodeRequest,
  updateHj212ForwardRequest,
  type Hj212CodeDto,
  type Hj212ForwardDto,
} from '@sluice/shared/hj212.schema';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import type { Choice, ResourceTableConfig } from '../../../components/resource-table/resource-types';
import { hj212CodesResource, hj212ForwardsResource } from '../api/hj212-api';

const TOTALS: Choice[] = [
  { value: '', labelKey: 'hj212.totalNone' },
  { value: 'volume', labelKey: 'hj212.totalVolume' },
  { value: 'load', labelKey: 'hj212.totalLoad' },
];

const codesConfig: ResourceTableConfig<Hj212CodeDto> = {
  resource: hj212CodesResource,
  rowName: (row) => row.Code,
  search: { placeholder: 'hj212.searchCodes' },
  addLabel: 'hj212.addCode',
  columns: [
    { key: 'Code', title: 'hj212.code', sortKey: 'Code' },
    { key: 'Name', title: 'hj212.name', sortKey: 'Name' },
    { key: 'DataKey', title: 'hj212.dataKey', sortKey: 'DataKey' },
    { key: 'Scale', title: 'hj212.scale' },
    { key: 'Total', title: 'hj212.total', options: TOTALS },
  ],
  form: {
    createSchema: addHj212CodeRequest,
    updateSchema: updateHj212CodeRequest,
    createTitle: 'hj212.addCode',
    editTitle: 'hj212.editCode',
    initialValues: { Scale: 1, Total: '' },
    fields: [
      { name: 'Code', label: 'hj212.code', kind: 'text', autoComplete: 'off' },
      { name: 'Name', label: 'hj212.name', kind: 'text' },
      { name: 'DataKey', label: 'hj212.dataKey', kind: 'text', autoComplete: 'off' },
      { name: 'Scale', label: 'hj212.scale', kind: 'number', help: 'hj212.scaleHelp' },
      { name: 'Total', label: 'hj212.total', kind: 'select', options: TOTALS, help: 'hj212.totalHelp' },
    ],
  },
};

const KIND_LABELS = { minute: 'hj212.kindMinute', hourly: 'hj212.kindHourly', daily: 'hj212.kindDaily' } as const;

const forwardsConfig: ResourceTableConfig<Hj212ForwardDto> = {
  resource: hj212ForwardsResource,
  rowName: (row) => row.Name,
  search: { placeholder: 'hj212.searchForwards' },
  addLabel: 'hj212.addForward',
  // The links' state (connected, last answered, waiting periods) changes on the server.
  refreshMs: 5000,
  columns: [
    { key: 'Name', title: 'hj212.forwardName', sortKey: 'Name' },
    { key: 'DeviceSn', title: 'hj212.deviceSn', sortKey: 'DeviceSn' },
    { key: 'Host', title: 'hj212.host', sortKey: 'Host', render: (row) => `${row.Host}:${String(row.Port)}` },
    { key: 'Mn', title: 'hj212.mn' },
    { key: 'Kinds', title: 'hj212.kinds' },
    { key: 'State', title: 'hj212.state', render: (row) => <LinkState row={row} /> },
    { key: 'LastSent', title: 'hj212.lastSent', format: 'dateTime' },
    { key: 'StartAt', title: 'hj212.startAt', format: 'dateTime', onCards: false },
    { key: 'Backlog', title: 'hj212.backlog' },
    { key: 'LastError', title: 'hj212.lastError', ellipsis: true },
  ],
  form: {
    createSchema: addHj212ForwardRequest,
    updateSchema: updateHj212ForwardRequest,
    createTitle: 'hj212.addForward',
    editTitle: 'hj212.editForward',
    initialValues: { Kinds: ['minute'], MinuteInterval: 10, Enabled: true, Codes: '' },
    // Kinds are a multiple select here and a comma list on the wire; the password is never sent back.
    toValues: (row) => ({ ...row, Kinds: row.Kinds.split(','), Password: '' }),
    toBody: (values, mode) => {
      const kinds = Array.isArray(values.Kinds) ? values.Kinds.join(',') : values.Kinds;
      if (mode === 'create') return { ...values, Kinds: kinds };
      // A link's start is set when it is added (an update does not take it).
      const rest = Object.fromEntries(Object.entries(values).filter(([key]) => key !== 'StartAt' && key !== 'Password'));
      return values.Password ? { ...rest, Password: values.Password, Kinds: kinds } : { ...rest, Kinds: kinds };
    },
    adjustFields: (fields, mode) =>
      mode === 'edit'
        ? fields.map((field) => {
            if (field.name === 'Password') return { ...field, placeholder: 'hj212.keepPassword', help: 'hj212.keepPasswordHelp' };
            if (field.name === 'StartAt') return { ...field, help: 'hj212.startAtEditHelp' };
            return field;
          })
        : fields,
    fields: [
      { name: 'Name', label: 'hj212.forwardName', kind: 'text' },
      { name: 'DeviceSn', label: 'hj212.deviceSn', kind: 'text', autoComplete: 'off' },
      { name: 'Host', label: 'hj212.host', kind: 'text', autoComplete: 'off' },
      { name: 'Port', label: 'hj212.port', kind: 'number', min: 1, max: 65535 },
      { name: 'Mn', label: 'hj212.mn', kind: 'text', autoComplete: 'off' },
      { name: 'Password', label: 'hj212.password', kind: 'password' },
      { name: 'Codes', label: 'hj212.codes', kind: 'text', help: 'hj212.codesHelp' },
      {
        name: 'Kinds',
        label: 'hj212.kinds',
        kind: 'select',
        multiple: true,
        options: HJ212_FORWARD_KINDS.map((k) => ({ value: k, labelKey: KIND_LABELS[k] })),
        rules: [{ required: true, message: '' }],
      },
      {
        name: 'MinuteInterval',
        label: 'hj212.minuteInterval',
        kind: 'select',
        options: HJ212_MINUTE_INTERVALS.map((m) => ({ value: m, text: String(m) })),
      },
      {
        name: 'StartAt',
        label: 'hj212.startAt',
        kind: 'dateTime',
        placeholder: 'hj212.startAtNow',
        help: 'hj212.startAtHelp',
        readOnlyInEdit: true,
      },
      { name: 'Enabled', label: 'hj212.enabled', kind: 'switch' },
    ],
  },
};

function LinkState({ row }: { row: Hj212ForwardDto }) {
  const { t } = useTranslation();
  if (!row.Enabled) return <Typography.Text type="secondary">—</Typography.Text>;
  return row.Connected ? <Tag color="success">{t('hj212.connected')}</Tag> : <Tag>{t('hj212.disconnected')}</Tag>;
}

export function Hj212Page() {
  const { t } = useTranslation();
  return (
    <div>
      <Typography.Title level={1}>{t('routes.hj212')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('hj212.description')}</Typography.Paragraph>
      <Tabs
        items={[
          {
            key: 'codes',
            label: t('hj212.codesTab'),
            children: <ResourceTable config={codesConfig} title={t('hj212.codesTab')} headingLevel={2} />,
          },
          {
            key: 'forwards',
            label: t('hj212.forwardsTab'),
            children: <ResourceTable config={forwardsConfig} title={t('hj212.forwardsTab')} headingLevel={2} />,
          },
        ]}
      />
    </div>
  );
}
