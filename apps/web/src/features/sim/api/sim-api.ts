/** SIM provider accounts (spec §7 SIM: simboss list, add, update, delete); secrets come back masked. */
import type { SimAccountDto } from '@sluice/shared/sim.schema';
import { defineResource } from '../../../components/resource-table/resource';

export const simAccountsResource = defineResource<SimAccountDto>({
  key: 'sim-accounts',
  operate: 'system.manage',
  list: 'GET /simboss',
  paging: 'none',
  create: 'POST /simboss',
  update: 'PUT /simboss',
  remove: 'DELETE /simboss/:id',
});
