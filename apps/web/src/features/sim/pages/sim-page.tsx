import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { SECRET_MASK, addSimAccountRequest, updateSimAccountRequest, type SimAccountDto } from '@sluice/shared/sim.schema';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../components/resource-table/resource-types';
import { simAccountsResource } from '../api/sim-api';

const masked = (value: string) => <Typography.Text type="secondary">{value || SECRET_MASK}</Typography.Text>;

const config: ResourceTableConfig<SimAccountDto> = {
  resource: simAccountsResource,
  rowName: (row) => row.SimAccount,
  search: { placeholder: 'sim.searchPlaceholder' },
  addLabel: 'sim.add',
  columns: [
    { key: 'SimAccount', title: 'sim.simAccount', sortKey: 'SimAccount' },
    { key: 'SimPassword', title: 'sim.simPassword', render: (row) => masked(row.SimPassword) },
    { key: 'AppId', title: 'sim.appId', sortKey: 'AppId' },
    { key: 'AppSecret', title: 'sim.appSecret', render: (row) => masked(row.AppSecret) },
  ],
  form: {
    createSchema: addSimAccountRequest,
    updateSchema: updateSimAccountRequest,
    createTitle: 'sim.add',
    editTitle: 'sim.edit',
    // The secrets are never sent back; an edit starts with them empty, and empty keeps them.
    toValues: (row) => ({ SimAccount: row.SimAccount, AppId: row.AppId, SimPassword: '', AppSecret: '' }),
    toBody: (values, mode) => {
      if (mode === 'create') return values;
      return Object.fromEntries(
        Object.entries(values).filter(([name, value]) => !(name === 'SimPassword' || name === 'AppSecret') || Boolean(value)),
      );
    },
    adjustFields: (fields, mode) =>
      mode === 'edit'
        ? fields.map((field) =>
            field.kind === 'password' ? { ...field, placeholder: 'sim.keepSecret', help: 'sim.keepSecretHelp' } : field,
          )
        : fields,
    fields: [
      { name: 'SimAccount', label: 'sim.simAccount', kind: 'text', autoComplete: 'off' },
      { name: 'SimPassword', label: 'sim.simPassword', kind: 'password' },
      { name: 'AppId', label: 'sim.appId', kind: 'text', autoComplete: 'off' },
      { name: 'AppSecret', label: 'sim.appSecret', kind: 'password' },
    ],
  },
};

/** /sys/simboss: the SIM provider accounts device cards are looked up with. */
export function SimPage() {
  const { t } = useTranslation();
  return <ResourceTable config={config} title={t('routes.simboss')} description={t('sim.pageDescription')} syncUrl />;
}
