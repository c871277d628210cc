/** The Field Records menu's list pages. */
import { Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  addDischargeStandardRequest,
  updateDischargeStandardRequest,
  type DischargeStandardDto,
} from '@sluice/shared/field-records.schema';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../components/resource-table/resource-types';
import type { MessageKey } from '../../../lib/i18n';
import { standardsResource } from '../api/records-api';
import { PollTable } from '../components/poll-table';
import { MonthCompliance } from '../components/month-compliance';
import { QualityTable } from '../components/quality-table';
import { RepairTable } from '../components/repair-table';

/** The results, or the month's compliance (?view=compliance, kept in the address). */
export function WaterQualityPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const view = search.get('view') === 'compliance' ? 'compliance' : 'results';
  return (
    <Tabs
      activeKey={view}
      onChange={(key) => {
        setSearch(
          (previous) => {
            const next = new URLSearchParams(previous);
            if (key === 'compliance') next.set('view', key);
            else next.delete('view');
            return next;
          },
          { replace: true },
        );
      }}
      items={[
        { key: 'results', label: t('records.quality.resultsTab'), children: <QualityTable title={t('routes.waterQuality')} /> },
        { key: 'compliance', label: t('records.compliance.tab'), children: <MonthCompliance /> },
      ]}
    />
  );
}

export function RepairsPage() {
  const { t } = useTranslation();
  return <RepairTable title={t('routes.repairs')} />;
}

export function InspectionsPage() {
  const { t } = useTranslation();
  return <PollTable title={t('routes.inspections')} />;
}

const LIMITS = ['COD', 'BOD5', 'NH3_N', 'NH3_N_Cold', 'TN', 'TP', 'SS', 'PH_Min', 'PH_Max', 'FC'] as const;
const limitText = (v: number | null) => (v === null ? '—' : String(v));

const standardsConfig: ResourceTableConfig<DischargeStandardDto> = {
  resource: standardsResource,
  rowName: (row) => row.Name,
  addLabel: 'records.standards.add',
  empty: 'records.standards.empty',
  columns: [
    { key: 'Name', title: 'records.standards.name' },
    ...LIMITS.map((k) => ({
      key: k,
      title: `records.limits.${k}` as MessageKey,
      render: (row: DischargeStandardDto) => limitText(row[k]),
      onCards: k === 'COD' || k === 'NH3_N' || k === 'TP',
    })),
  ],
  form: {
    createSchema: addDischargeStandardRequest,
    updateSchema: updateDischargeStandardRequest,
    createTitle: 'records.standards.add',
    editTitle: 'records.standards.edit',
    columns: 2,
    fields: [
      { name: 'Name', label: 'records.standards.name', kind: 'text', wide: true },
      { name: 'COD', label: 'records.limits.COD', kind: 'number', min: 0 },
      { name: 'BOD5', label: 'records.limits.BOD5', kind: 'number', min: 0 },
      { name: 'NH3_N', label: 'records.limits.NH3_N', kind: 'number', min: 0 },
      { name: 'NH3_N_Cold', label: 'records.limits.NH3_N_Cold', kind: 'number', min: 0 },
      { name: 'TN', label: 'records.limits.TN', kind: 'number', min: 0 },
      { name: 'TP', label: 'records.limits.TP', kind: 'number', min: 0 },
      { name: 'SS', label: 'records.limits.SS', kind: 'number', min: 0 },
      { name: 'PH_Min', label: 'records.limits.PH_Min', kind: 'number', min: 0 },
      { name: 'PH_Max', label: 'records.limits.PH_Max', kind: 'number', min: 0 },
      { name: 'FC', label: 'records.limits.FC', kind: 'number', min: 0 },
      { name: 'Description', label: 'records.standards.description', kind: 'textarea', wide: true },
    ],
  },
};

export function DischargeStandardsPage() {
  const { t } = useTranslation();
  return (
    <ResourceTable config={standardsConfig} title={t('routes.dischargeStandards')} description={t('records.standards.help')} />
  );
}
