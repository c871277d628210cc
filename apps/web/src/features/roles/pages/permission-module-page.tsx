import { useMemo } from 'react';
import { Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  addModuleRequest,
  addOperateRequest,
  updateModuleRequest,
  updateOperateRequest,
  type ModuleDto,
  type OperateDto,
} from '@sluice/shared/role.schema';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../components/resource-table/resource-types';
import { modulesResource, operatesResource } from '../api/roles-api';
import { usePermissionNames } from '../components/permission-names';

/** A name shown translated, with the stored name beside it when they differ. */
function TranslatedName({ shown, stored }: { shown: string; stored: string }) {
  return (
    <Flex vertical>
      <span>{shown}</span>
      {shown !== stored && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {stored}
        </Typography.Text>
      )}
    </Flex>
  );
}

function useOperatesConfig(): ResourceTableConfig<OperateDto> {
  const names = usePermissionNames();
  return useMemo(
    () => ({
      resource: operatesResource,
      rowName: (operate) => names.operateName(operate),
      addLabel: 'modules.addOperate',
      columns: [
        {
          key: 'Name',
          title: 'modules.operateName',
          render: (operate) => <TranslatedName shown={names.operateName(operate)} stored={operate.Name} />,
        },
        { key: 'Code', title: 'modules.code', render: (operate) => <Typography.Text code>{operate.Code}</Typography.Text> },
      ],
      form: {
        createSchema: addOperateRequest,
        updateSchema: updateOperateRequest,
        createTitle: 'modules.addOperate',
        editTitle: 'modules.editOperate',
        fields: [
          { name: 'ModuleId', label: 'modules.moduleName', kind: 'hidden' },
          { name: 'Name', label: 'modules.operateName', kind: 'text' },
          { name: 'Code', label: 'modules.code', kind: 'text' },
        ],
      },
    }),
    [names],
  );
}

function ModuleOperates({ module }: { module: ModuleDto }) {
  const { t } = useTranslation();
  const config = useOperatesConfig();
  const params = useMemo(() => ({ ModuleId: module.Id }), [module.Id]);
  return (
    <ResourceTable config={config} title={t('modules.operates')} headingLevel={2} compact params={params} createPreset={params} />
  );
}

/** /jurisdiction/permission/module: permission modules, each with its operates. */
export function PermissionModulePage() {
  const { t } = useTranslation();
  const names = usePermissionNames();
  const config = useMemo<ResourceTableConfig<ModuleDto>>(
    () => ({
      resource: modulesResource,
      rowName: (module) => names.moduleName(module),
      search: { placeholder: 'modules.searchPlaceholder' },
      addLabel: 'modules.add',
      defaultSort: { key: 'Id', order: 'asc' },
      columns: [
        {
          key: 'ModuleName',
          title: 'modules.moduleName',
          sortKey: 'ModuleName',
          render: (module) => <TranslatedName shown={names.moduleName(module)} stored={module.ModuleName} />,
        },
        {
          key: 'Code',
          title: 'modules.code',
          sortKey: 'Code',
          render: (module) => <Typography.Text code>{module.Code}</Typography.Text>,
        },
      ],
      expandedRow: { label: 'modules.operates', render: (module) => <ModuleOperates module={module} /> },
      form: {
        createSchema: addModuleRequest,
        updateSchema: updateModuleRequest,
        createTitle: 'modules.add',
        editTitle: 'modules.edit',
        fields: [
          { name: 'ModuleName', label: 'modules.moduleName', kind: 'text' },
          { name: 'Code', label: 'modules.code', kind: 'text' },
        ],
      },
    }),
    [names],
  );
  return <ResourceTable config={config} title={t('routes.permissionModule')} syncUrl />;
}
