/** A type's module feedback (type/{typeId}/TypeModuleFeedback): which data points answer a control, in order. */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { addModuleFeedbackRequest, updateModuleFeedbackRequest } from '@sluice/shared/device-type.schema';
import { DataDefineSelect } from '../../../../components/data-value/data-define-select';
import { ResourceTable } from '../../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../../components/resource-table/resource-types';
import { controlsResource, feedbackResource, modulesResource, type ModuleFeedbackDto } from '../../api/device-types-api';
import { DataPointCell, useLibraryById, useTypePart } from '../type-lookups';

export function FeedbackTab({ typeId }: { typeId: number }) {
  const { t } = useTranslation();
  const byId = useLibraryById();
  const controls = useTypePart(controlsResource, typeId);
  const modules = useTypePart(modulesResource, typeId);

  const config = useMemo<ResourceTableConfig<ModuleFeedbackDto>>(() => {
    const moduleName = new Map(modules.map((m) => [m.Id, m.ModuleName]));
    const controlLabel = new Map(controls.map((c) => [c.Id, `${moduleName.get(c.ModuleId) ?? '—'} / ${c.ControlName}`]));
    return {
      resource: feedbackResource,
      rowName: (row) =>
        `${controlLabel.get(row.ModuleControlId) ?? `#${String(row.ModuleControlId)}`} · ${byId.get(row.DataDefineId)?.DataKey ?? ''}`,
      addLabel: 'typeFeedback.add',
      defaultSort: { key: 'Sn', order: 'asc' },
      columns: [
        { key: 'Sn', title: 'typeFeedback.sn', sortKey: 'Sn', width: 70 },
        {
          key: 'ModuleControlId',
          title: 'typeFeedback.control',
          sortKey: 'ModuleControlId',
          render: (row) => controlLabel.get(row.ModuleControlId) ?? `#${String(row.ModuleControlId)}`,
        },
        {
          key: 'DataDefineId',
          title: 'typeFeedback.dataDefine',
          render: (row) => <DataPointCell define={byId.get(row.DataDefineId)} fallback={row.DataDefineId} />,
        },
      ],
      form: {
        createSchema: addModuleFeedbackRequest,
        updateSchema: updateModuleFeedbackRequest,
        createTitle: 'typeFeedback.add',
        editTitle: 'typeFeedback.edit',
        initialValues: { Sn: 0 },
        fields: [
          {
            name: 'ModuleControlId',
            label: 'typeFeedback.control',
            kind: 'select',
            options: controls.map((c) => ({ value: c.Id, text: controlLabel.get(c.Id) ?? c.ControlName })),
          },
          {
            name: 'DataDefineId',
            label: 'typeFeedback.dataDefine',
            kind: 'custom',
            render: ({ id }) => <DataDefineSelect id={id} />,
          },
          { name: 'Sn', label: 'typeFeedback.sn', kind: 'number', min: 0 },
        ],
      },
    };
  }, [byId, controls, modules]);

  return <ResourceTable config={config} pathParams={{ typeId }} description={t('typeFeedback.description')} compact />;
}
