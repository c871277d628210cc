import { EyeOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { addClientRequest, updateClientRequest, type ClientDto } from '@sluice/shared/client.schema';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../components/resource-table/resource-types';
import { homePath } from '../../../lib/paths';
import { clientsResource } from '../api/clients-api';

/** Opens the client's page (its projects, stations, devices, people and numbers). */
function OpenClient({ client }: { client: ClientDto }) {
  const { t } = useTranslation();
  return (
    <Link
      to={homePath('client', client.Id)}
      aria-label={t('client.openOf', { name: client.ClientName })}
      style={{ paddingInline: 7 }}
    >
      <EyeOutlined aria-hidden /> {t('client.open')}
    </Link>
  );
}

const config: ResourceTableConfig<ClientDto> = {
  resource: clientsResource,
  rowName: (row) => row.ClientName,
  search: { placeholder: 'clients.searchPlaceholder' },
  addLabel: 'clients.add',
  columns: [
    { key: 'ClientName', title: 'clients.clientName', sortKey: 'ClientName' },
    { key: 'ClientSn', title: 'clients.clientSn', sortKey: 'ClientSn' },
    { key: 'Linkman', title: 'clients.linkman', sortKey: 'Linkman' },
    { key: 'Telephone', title: 'clients.telephone' },
    { key: 'Mobile', title: 'clients.mobile' },
    { key: 'Address', title: 'clients.address', ellipsis: true, width: 220 },
    { key: 'Description', title: 'clients.description', ellipsis: true, width: 220, onCards: false },
  ],
  rowActions: (row) => <OpenClient client={row} />,
  form: {
    createSchema: addClientRequest,
    updateSchema: updateClientRequest,
    createTitle: 'clients.add',
    editTitle: 'clients.edit',
    fields: [
      { name: 'ClientName', label: 'clients.clientName', kind: 'text', autoComplete: 'organization' },
      { name: 'ClientSn', label: 'clients.clientSn', kind: 'text' },
      { name: 'Linkman', label: 'clients.linkman', kind: 'text', autoComplete: 'name' },
      {
        name: 'Telephone',
        label: 'clients.telephone',
        kind: 'text',
        autoComplete: 'tel',
        placeholder: 'clients.telephonePlaceholder',
      },
      { name: 'Mobile', label: 'clients.mobile', kind: 'text', autoComplete: 'tel', placeholder: 'clients.mobilePlaceholder' },
      { name: 'Address', label: 'clients.address', kind: 'text', autoComplete: 'street-address' },
      { name: 'Description', label: 'clients.description', kind: 'textarea' },
    ],
  },
};

/** /user/clientList: the group's clients. */
export function ClientListPage() {
  const { t } = useTranslation();
  return <ResourceTable config={config} title={t('routes.clientList')} syncUrl />;
}
