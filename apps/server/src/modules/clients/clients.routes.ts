/** Clients (spec §7 Menus and clients), on the generic resource. */
import type { FastifyInstance } from 'fastify';
import { addClientRequest, clientDto, updateClientRequest } from '@sluice/shared/client.schema';
import { registerResource } from '../../http/resource.ts';

export function clientsRoutes(app: FastifyInstance): void {
  registerResource(app, {
    table: 'clients',
    audit: { kind: 'client' },
    tags: ['Clients'],
    access: { read: { operate: 'client.view' }, write: { operate: 'client.manage' } },
    dto: clientDto,
    create: addClientRequest,
    update: updateClientRequest,
    sortable: ['ClientName', 'ClientSn', 'Linkman'],
    searchable: ['ClientName', 'ClientSn', 'Linkman', 'Mobile', 'Telephone', 'Address'],
    unique: [{ key: 'ClientSn', message: 'client.exists' }],
    routes: {
      list: 'GET /Client',
      all: 'GET /Client/GetAll',
      get: 'GET /Client/Get?id',
      create: 'POST /Client/Add',
      update: 'PUT /Client/Update',
      remove: 'POST /Client/Delete#Id',
    },
  });
}
