/**
 * Water-quality results: of one device (its tab: spec §7 {g}/{deviceSn}/DeviceInput), or of
 * every device the user reaches (the list page, narrowed to a station by projectId). Each row
 * shows its effluent values and whether they meet the station's standard.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { addDeviceInputRequest, updateDeviceInputRequest } from '@sluice/shared/field-records.schema';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import type { FormFieldDef, ResourceTableConfig } from '../../../components/resource-table/resource-types';
import type { MessageKey } from '../../../lib/i18n';
import { useMayOperate } from '../../../lib/operates';
import { deviceQualityResource, qualityResource, type DeviceInputDto } from '../api/records-api';
import { ComplianceMark, DeviceSelect, EffluentValues, dateTimeField, dateTimeText, fromMillis, toMillis } from './record-fields';
import { RecordPhotosButton } from './record-photos';

/** The form's fields; the device is chosen on the list page only (a device's tab knows it). */
const QUALITY_FIELDS: FormFieldDef[] = [
  {
    name: 'DeviceSn',
    label: 'records.device',
    kind: 'custom',
    modes: ['create'],
    rules: [{ required: true, message: '' }],
    render: ({ id }) => <DeviceSelect id={id} />,
  },
  dateTimeField('Dt', 'records.quality.dt', true),
  { name: 'Sampler', label: 'records.quality.sampler', kind: 'text' },
  { name: 'Laboratory', label: 'records.quality.laboratory', kind: 'text' },
  { name: 'WaterInflow', label: 'records.quality.inflow', kind: 'number', min: 0 },
  { name: 'WaterTemp', label: 'records.quality.waterTemp', kind: 'number' },
  { name: 'COD_In', label: 'records.quality.in.COD', kind: 'number', min: 0 },
  { name: 'COD_Out', label: 'records.quality.out.COD', kind: 'number', min: 0 },
  { name: 'BOD5_In', label: 'records.quality.in.BOD5', kind: 'number', min: 0 },
  { name: 'BOD5_Out', label: 'records.quality.out.BOD5', kind: 'number', min: 0 },
  { name: 'NH3_N_In', label: 'records.quality.in.NH3_N', kind: 'number', min: 0 },
  { name: 'NH3_N_Out', label: 'records.quality.out.NH3_N', kind: 'number', min: 0 },
  { name: 'TN_In', label: 'records.quality.in.TN', kind: 'number', min: 0 },
  { name: 'TN_Out', label: 'records.quality.out.TN', kind: 'number', min: 0 },
  { name: 'TP_In', label: 'records.quality.in.TP', kind: 'number', min: 0 },
  { name: 'TP_Out', label: 'records.quality.out.TP', kind: 'number', min: 0 },
  { name: 'SS_In', label: 'records.quality.in.SS', kind: 'number', min: 0 },
  { name: 'SS_Out', label: 'records.quality.out.SS', kind: 'number', min: 0 },
  { name: 'PH_In', label: 'records.quality.in.PH', kind: 'number', min: 0 },
  { name: 'PH_Out', label: 'records.quality.out.PH', kind: 'number', min: 0 },
  { name: 'FC_Out', label: 'records.quality.out.FC', kind: 'number', min: 0 },
  { name: 'Remark', label: 'records.remark', kind: 'textarea', wide: true },
];

function qualityConfig(withDevice: boolean, mayManage: boolean): ResourceTableConfig<DeviceInputDto> {
  return {
    resource: withDevice ? qualityResource : deviceQualityResource,
    rowName: (row) => `${row.DeviceName || row.DeviceSn} ${dateTimeText(row.Dt)}`,
    addLabel: 'records.quality.add',
    // Deleting a result is the manager's (records.manage); the server refuses others.
    canDelete: () => mayManage,
    empty: 'records.quality.empty',
    filters: [
      {
        param: 'Compliant',
        label: 'records.quality.compliance',
        allLabel: 'records.quality.allResults',
        options: [{ value: 0, labelKey: 'records.quality.nonCompliant' }],
      },
    ],
    columns: [
      { key: 'Dt', title: 'records.quality.dt', format: 'dateTime' },
      ...(withDevice
        ? [
            {
              key: 'Device',
              title: 'records.device' as MessageKey,
              render: (row: DeviceInputDto) => `${row.DeviceName || row.DeviceSn} · ${row.ProjectName}`,
            },
          ]
        : []),
      { key: 'Effluent', title: 'records.quality.effluent', render: (row) => <EffluentValues row={row} /> },
      { key: 'Compliant', title: 'records.quality.compliance', render: (row) => <ComplianceMark row={row} /> },
      { key: 'Standard', title: 'records.standard', onCards: false },
      { key: 'Sampler', title: 'records.quality.sampler', onCards: false },
    ],
    rowActions: (row) => <RecordPhotosButton kind="input" id={row.Id} name={dateTimeText(row.Dt)} photos={row.Photos} />,
    form: {
      createSchema: addDeviceInputRequest,
      updateSchema: updateDeviceInputRequest,
      createTitle: 'records.quality.add',
      editTitle: 'records.quality.edit',
      columns: 2,
      fields: QUALITY_FIELDS.filter((field) => withDevice || field.name !== 'DeviceSn'),
      toValues: (row) => ({ ...row, Dt: fromMillis(row.Dt) }),
      toBody: (values) => ({ ...values, Dt: toMillis(values.Dt) }),
    },
  };
}

/** One device's results (sn), or every reachable device's (of a station when projectId is given). */
export function QualityTable({ sn, projectId, title }: { sn?: string; projectId?: number; title?: string }) {
  const { t } = useTranslation();
  const mayManage = useMayOperate('records.manage');
  const config = useMemo(() => qualityConfig(sn === undefined, mayManage), [sn, mayManage]);
  return (
    <ResourceTable
      config={config}
      {...(title ? { title } : {})}
      {...(sn ? { pathParams: { sn }, compact: true } : {})}
      {...(projectId ? { params: { ProjectId: projectId }, compact: true } : {})}
      {...(!sn && !projectId ? { syncUrl: true, description: t('records.quality.description') } : {})}
    />
  );
}
