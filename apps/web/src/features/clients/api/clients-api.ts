/** Clients (spec §7 Menus and clients): the paged list, add, edit and delete. */
import type { ClientDto } from '@sluice/shared/client.schema';
import { defineResource } from '../../../components/resource-table/resource';

export const clientsResource = defineResource<ClientDto>({
  key: 'clients',
  operate: 'client.manage',
  list: 'GET /Client',
  create: 'POST /Client/Add',
  update: 'PUT /Client/Update',
  remove: 'POST /Client/Delete#Id',
});
