/**
 * A type's service intervals by run hours (type/{typeId}/TypeMaintenance), on the statistics tab:
 * a pump's or blower's run switch and the hours it may run between services. Each device of the
 * type then gets a repair by itself when its run hours since the last service reach the interval.
 */
import { useMemo } from 'react';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { addTypeMaintenanceRequest, updateTypeMaintenanceRequest } from '@sluice/shared/device-type.schema';
import { DataDefineSelect } from '../../../../components/data-value/data-define-select';
import { ResourceTable } from '../../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../../components/resource-table/resource-types';
import { maintenanceResource, type TypeMaintenanceDto } from '../../api/device-types-api';

export function MaintenanceTable({ typeId }: { typeId: number }) {
  const { t } = useTranslation();
  const config = useMemo<ResourceTableConfig<TypeMaintenanceDto>>(
    () => ({
      resource: maintenanceResource,
      rowName: (row) => row.Name,
      addLabel: 'typeMaintenance.add',
      empty: 'typeMaintenance.empty',
      columns: [
        { key: 'Name', title: 'typeMaintenance.name', sortKey: 'Name' },
        {
          key: 'Key',
          title: 'typeMaintenance.runSwitch',
          render: (row) => <Typography.Text code>{row.Key}</Typography.Text>,
        },
        {
          key: 'IntervalHours',
          title: 'typeMaintenance.intervalHours',
          sortKey: 'IntervalHours',
          render: (row) => t('typeMaintenance.hours', { hours: row.IntervalHours }),
        },
      ],
      form: {
        createSchema: addTypeMaintenanceRequest,
        updateSchema: updateTypeMaintenanceRequest,
        createTitle: 'typeMaintenance.add',
        editTitle: 'typeMaintenance.edit',
        fields: [
          { name: 'Name', label: 'typeMaintenance.name', kind: 'text', placeholder: 'typeMaintenance.namePlaceholder' },
          {
            name: 'DataDefineId',
            label: 'typeMaintenance.runSwitch',
            kind: 'custom',
            help: 'typeMaintenance.runSwitchHelp',
            render: ({ id }) => <DataDefineSelect id={id} />,
          },
          { name: 'IntervalHours', label: 'typeMaintenance.intervalHours', kind: 'number', min: 1 },
        ],
      },
    }),
    [t],
  );
  return (
    <ResourceTable
      config={config}
      title={t('typeMaintenance.title')}
      pathParams={{ typeId }}
      description={t('typeMaintenance.description')}
      compact
    />
  );
}
