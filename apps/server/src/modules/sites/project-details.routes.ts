/** Project affiliates and principals (spec §3, §7 Projects), on the generic resource. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  addAffiliateRequest,
  addPrincipalRequest,
  affiliateDto,
  principalDto,
  updateAffiliateRequest,
  updatePrincipalRequest,
} from '@sluice/shared/project.schema';
import { deviceSn } from '@sluice/shared/device.schema';
import { AppError } from '../../http/errors.ts';
import { registerResource, ownerColumn } from '../../http/resource.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import type { AuditRef } from '../audit/audit-trail.ts';
import type { ScopeMode } from './site-scope.ts';
import { checkGroupSegment } from './path-group.ts';
import { idRef } from '@sluice/shared/schema-fields';

const view = { operate: 'project.view' } as const;
const manage = { operate: 'project.manage' } as const;
const projectId = idRef;

const field = (request: FastifyRequest, part: 'query' | 'body' | 'params', name: string): unknown => {
  const source = request[part];
  return source && typeof source === 'object' ? (source as Record<string, unknown>)[name] : undefined;
};

/** A person in charge belongs to the project, station or device its parent_ref names ('project:7', 'device:SL…'). */
const principalOwner = (row: Record<string, unknown>): AuditRef | undefined => {
  const [kind, id] = (typeof row.parent_ref === 'string' ? row.parent_ref : '').split(':');
  if (!id) return undefined;
  return kind === 'device' ? { kind: 'device', id } : { kind: 'project', id: Number(id) };
};

export function projectDetailsRoutes(app: FastifyInstance): void {
  const { scope } = app.ctx;

  const reachProject = async (raw: unknown, user: CurrentUser, mode: ScopeMode) => {
    const parsed = projectId.safeParse(raw);
    if (!parsed.success) throw new AppError(400, 'rule.required', {}, 'ProjectId');
    return (await scope.project(user, parsed.data, mode)).id;
  };

  registerResource(app, {
    table: 'project_affiliates',
    audit: { kind: 'projectAffiliate', owner: ownerColumn('project', 'project_id') },
    tags: ['Projects'],
    access: { read: view, write: manage },
    legacyToken: true,
    dto: affiliateDto,
    create: addAffiliateRequest,
    update: updateAffiliateRequest,
    sortable: ['AffiliateName'],
    searchable: ['AffiliateName', 'AffiliateValue'],
    filters: { ProjectId: { key: 'ProjectId', schema: projectId } },
    defaultOrder: { key: 'Id', direction: 'asc' },
    routes: {
      all: 'GET /ProjectAffiliate',
      create: 'POST /ProjectAffiliate',
      update: 'PUT /ProjectAffiliate',
      remove: 'POST /ProjectAffiliate/Remove#Id',
    },
    parent: {
      column: 'project_id',
      from: (request) => field(request, 'query', 'ProjectId') ?? field(request, 'body', 'ProjectId'),
      resolve: reachProject,
    },
  });

  /** A principal's parent: a project or station by id, or a device by serial number. */
  const reachParent = async (raw: unknown, user: CurrentUser, mode: ScopeMode): Promise<string> => {
    if (typeof raw === 'string') {
      // A stored reference, when a record is reached without naming its parent.
      const [kind = '', ref = ''] = raw.split(':', 2);
      return reachParent({ kind, id: ref }, user, mode);
    }
    const { kind, id } = z.object({ kind: z.string(), id: z.string() }).parse(raw);
    checkGroupSegment(kind, user);
    const k = kind.toLowerCase();
    if (k === 'device') {
      const sn = deviceSn.safeParse(id);
      if (!sn.success) throw new AppError(404, 'error.notFound');
      return `device:${(await scope.device(user, sn.data, mode)).device_sn}`;
    }
    if (!/^\d+$/.test(k) && !['project', 'station', 'site', 'client'].includes(k))
      throw new AppError(400, 'rule.parentKind', {}, 'parentKind');
    return `project:${String(await reachProject(id, user, mode))}`;
  };

  registerResource(app, {
    table: 'principals',
    audit: { kind: 'principal', owner: principalOwner },
    tags: ['Projects'],
    access: { read: view, write: manage },
    dto: principalDto,
    create: addPrincipalRequest,
    update: updatePrincipalRequest,
    sortable: ['Name'],
    searchable: ['Name', 'Phone'],
    routes: {
      all: 'GET /:parentKind/:parentId/ProjectPrincipals',
      create: 'POST /:parentKind/:parentId/ProjectPrincipals',
      update: 'PUT /:parentKind/:parentId/ProjectPrincipals/:id',
      remove: 'DELETE /:parentKind/:parentId/ProjectPrincipals/:id',
    },
    parent: {
      column: 'parent_ref',
      from: (request) => ({ kind: field(request, 'params', 'parentKind'), id: field(request, 'params', 'parentId') }),
      resolve: reachParent,
    },
  });
}
