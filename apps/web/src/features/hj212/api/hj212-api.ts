/** HJ 212 (issue 21): the group's pollutant code table and the forwarding links with their state. */
import type { Hj212CodeDto, Hj212ForwardDto } from '@sluice/shared/hj212.schema';
import { defineResource } from '../../../components/resource-table/resource';

export const hj212CodesResource = defineResource<Hj212CodeDto>({
  key: 'hj212-codes',
  operate: 'system.manage',
  list: 'GET /Hj212Code',
  create: 'POST /Hj212Code',
  update: 'PUT /Hj212Code',
  remove: 'DELETE /Hj212Code/:id',
});

export const hj212ForwardsResource = defineResource<Hj212ForwardDto>({
  key: 'hj212-forwards',
  operate: 'device.manage',
  list: 'GET /Hj212Forward',
  create: 'POST /Hj212Forward',
  update: 'PUT /Hj212Forward',
  remove: 'DELETE /Hj212Forward/:id',
});
