/** A group's regions (spec §7 Areas and regions), on the generic resource. */
import type { FastifyInstance } from 'fastify';
import { addRegionRequest, regionDto, updateRegionRequest } from '@sluice/shared/region.schema';
import { AppError } from '../../http/errors.ts';
import { registerResource } from '../../http/resource.ts';

export function regionsRoutes(app: FastifyInstance): void {
  const { regions } = app.ctx;

  registerResource(app, {
    table: 'regions',
    audit: { kind: 'region' },
    tags: ['Regions'],
    access: { read: { operate: 'project.view' }, write: { operate: 'project.manage' } },
    dto: regionDto,
    create: addRegionRequest,
    update: updateRegionRequest,
    sortable: ['Name', 'RegionCode', 'ParentId'],
    searchable: ['Name', 'RegionCode'],
    routes: {
      all: 'GET /:g/Region',
      get: 'GET /:g/Region/:id',
      create: 'POST /:g/Region',
      update: 'PUT /:g/Region',
      remove: 'DELETE /:g/Region/:id',
    },
    // A region may not sit below itself: walk up from the new parent.
    beforeUpdate: async (id, row, user) => {
      const seen = new Set<number>();
      for (let at = Number(row.parent_id ?? 0); at > 0 && !seen.has(at);) {
        if (at === id) throw new AppError(400, 'region.badParent', {}, 'ParentId');
        seen.add(at);
        at = await regions.parentOf(at, user.groupId);
      }
    },
    beforeWrite: async (row, user) => {
      const parentId = row.parent_id;
      if (typeof parentId === 'number' && parentId > 0 && !(await regions.exists(parentId, user.groupId))) {
        throw new AppError(400, 'region.badParent', {}, 'ParentId');
      }
      return row;
    },
    beforeRemove: async (_database, region) => {
      if (await regions.inUse(region.Id)) throw new AppError(409, 'region.inUse', { name: region.Name });
    },
  });
}
