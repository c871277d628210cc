/**
 * A type's statistics (type/{typeId}/TypeStatistics): kind instantaneous / cumulative /
 * discrete, chart or table, a Standard (a maximum, or min,max), a range filter 'min,max' when
 * FilterType is range, whether it shows, and its unit.
 */
import { useMemo } from 'react';
import { Flex, Tag, Typography } from 'antd';
import type { FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import { addTypeStatisticRequest, updateTypeStatisticRequest } from '@sluice/shared/device-type.schema';
import { messageRef } from '@sluice/shared/rules';
import { DISPLAY_TYPES, FILTER_TYPES, STATICS_TYPES, parseRangeFilter } from '@sluice/shared/statistics';
import { DataDefineSelect } from '../../../../components/data-value/data-define-select';
import { UnitSelect } from '../../../../components/data-value/unit-select';
import { ResourceTable } from '../../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../../components/resource-table/resource-types';
import { objectShape, translateMessageRef, zodFieldRules } from '../../../../lib/zod-form';
import { statisticsResource, type TypeStatisticDto } from '../../api/device-types-api';
import { MaintenanceTable } from './maintenance-table';

const shape = objectShape(addTypeStatisticRequest) ?? {};
const rulesOf = (name: string) => {
  const field = shape[name];
  return field ? zodFieldRules(field) : [];
};

/** With FilterType range, the filter reads 'min,max' (spec §5 Statistics). */
const rangeRule: FormRule = (form) => ({
  validator: (_rule, value: unknown) => {
    if (form.getFieldValue('FilterType') !== 'range') return Promise.resolve();
    const text = typeof value === 'string' ? value : '';
    return parseRangeFilter(text)
      ? Promise.resolve()
      : Promise.reject(new Error(translateMessageRef(messageRef('rule.rangeFilter'))));
  },
});

export function StatisticsTab({ typeId }: { typeId: number }) {
  const { t } = useTranslation();
  const config = useMemo<ResourceTableConfig<TypeStatisticDto>>(
    () => ({
      resource: statisticsResource,
      rowName: (row) => row.Name,
      search: { placeholder: 'typeStatistics.searchPlaceholder' },
      addLabel: 'typeStatistics.add',
      columns: [
        { key: 'Name', title: 'typeStatistics.name', sortKey: 'Name' },
        {
          key: 'Key',
          title: 'typeStatistics.key',
          sortKey: 'Key',
          render: (row) => <Typography.Text code>{row.Key}</Typography.Text>,
        },
        {
          key: 'StaticsType',
          title: 'typeStatistics.staticsType',
          sortKey: 'StaticsType',
          render: (row) => <Tag color="blue">{t(`typeStatistics.kinds.${row.StaticsType}`)}</Tag>,
        },
        {
          key: 'DisplayType',
          title: 'typeStatistics.displayType',
          render: (row) => t(`typeStatistics.displays.${row.DisplayType}`),
        },
        { key: 'Standard', title: 'typeStatistics.standard' },
        {
          key: 'Filter',
          title: 'typeStatistics.filter',
          render: (row) => (row.FilterType === 'range' ? row.Filter : t('typeStatistics.filters.none')),
        },
        {
          key: 'ShowState',
          title: 'typeStatistics.showState',
          render: (row) => (row.ShowState ? t('common.yes') : t('common.no')),
        },
        { key: 'SUnit', title: 'typeStatistics.sUnit' },
      ],
      form: {
        createSchema: addTypeStatisticRequest,
        updateSchema: updateTypeStatisticRequest,
        createTitle: 'typeStatistics.add',
        editTitle: 'typeStatistics.edit',
        columns: 2,
        initialValues: {
          StaticsType: 'instantaneous',
          DisplayType: 'chart',
          FilterType: 'none',
          ShowState: true,
          Filter: '',
          Standard: '',
          SUnit: '',
        },
        fields: [
          { name: 'Name', label: 'typeStatistics.name', kind: 'text' },
          {
            name: 'DataDefineId',
            label: 'typeStatistics.dataDefine',
            kind: 'custom',
            rules: rulesOf('DataDefineId'),
            render: ({ id }) => <DataDefineSelect id={id} />,
          },
          {
            name: 'StaticsType',
            label: 'typeStatistics.staticsType',
            kind: 'radio',
            wide: true,
            options: STATICS_TYPES.map((kind) => ({ value: kind, labelKey: `typeStatistics.kinds.${kind}` as const })),
          },
          {
            name: 'DisplayType',
            label: 'typeStatistics.displayType',
            kind: 'radio',
            options: DISPLAY_TYPES.map((d) => ({ value: d, labelKey: `typeStatistics.displays.${d}` as const })),
          },
          { name: 'ShowState', label: 'typeStatistics.showState', kind: 'switch' },
          { name: 'Standard', label: 'typeStatistics.standard', kind: 'text', help: 'typeStatistics.standardHelp' },
          { name: 'SUnit', label: 'typeStatistics.sUnit', kind: 'custom', render: ({ id }) => <UnitSelect id={id} /> },
          {
            name: 'FilterType',
            label: 'typeStatistics.filterType',
            kind: 'radio',
            options: FILTER_TYPES.map((f) => ({ value: f, labelKey: `typeStatistics.filters.${f}` as const })),
          },
          {
            name: 'Filter',
            label: 'typeStatistics.filter',
            kind: 'text',
            help: 'typeStatistics.filterHelp',
            placeholder: 'typeStatistics.filterPlaceholder',
            dependencies: ['FilterType'],
            visible: (values) => values.FilterType === 'range',
            rules: [...rulesOf('Filter'), rangeRule],
          },
        ],
      },
    }),
    [t],
  );
  return (
    <Flex vertical gap={24}>
      <ResourceTable config={config} pathParams={{ typeId }} description={t('typeStatistics.description')} compact />
      <MaintenanceTable typeId={typeId} />
    </Flex>
  );
}
