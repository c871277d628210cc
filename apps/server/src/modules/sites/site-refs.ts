/** Checks that a record's references (region, client, area) are the caller's group's and exist. */
import { AppError } from '../../http/errors.ts';
import { areaExists } from '../areas/areas.service.ts';
import type { ClientsRepository } from '../clients/clients.repository.ts';
import type { RegionsRepository } from '../regions/regions.repository.ts';

export interface SiteRefs {
  RegionId?: number | null | undefined;
  ClientId?: number | null | undefined;
  AreaId?: string | null | undefined;
}

export class SiteRefsCheck {
  private readonly regions: RegionsRepository;
  private readonly clients: ClientsRepository;

  constructor(deps: { regions: RegionsRepository; clients: ClientsRepository }) {
    this.regions = deps.regions;
    this.clients = deps.clients;
  }

  async check(groupId: number, refs: SiteRefs): Promise<void> {
    if (typeof refs.RegionId === 'number' && !(await this.regions.exists(refs.RegionId, groupId))) {
      throw new AppError(400, 'ref.unknown', { what: 'RegionId', id: refs.RegionId }, 'RegionId');
    }
    if (typeof refs.ClientId === 'number' && !(await this.clients.exists(refs.ClientId, groupId))) {
      throw new AppError(400, 'ref.unknown', { what: 'ClientId', id: refs.ClientId }, 'ClientId');
    }
    if (typeof refs.AreaId === 'string' && !(await areaExists(refs.AreaId))) {
      throw new AppError(400, 'area.unknown', { code: refs.AreaId }, 'AreaId');
    }
  }
}
