/** The group's regions as a resource (spec §7 Areas and regions); lib/areas.ts reads them as reference data. */
import type { RegionDto } from '@sluice/shared/region.schema';
import { defineResource } from '../../../components/resource-table/resource';

/** The group's regions on the resource table of /sys/areaset (the whole list: it is not paged). */
export const regionsResource = defineResource<RegionDto>({
  key: 'regions',
  operate: 'project.manage',
  list: 'GET /{g}/Region',
  paging: 'none',
  create: 'POST /{g}/Region',
  update: 'PUT /{g}/Region',
  remove: 'DELETE /{g}/Region/:id',
});
