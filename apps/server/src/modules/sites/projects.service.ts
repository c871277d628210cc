/** The rules of the tree: who may add what where, what a node's parent may be, and what blocks a delete. */
import { PROJECT_TYPE, type AddProjectRequest, type ProjectKind, type UpdateProjectRequest } from '@sluice/shared/project.schema';
import type { Db } from '../../db/database.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import { AppError } from '../../http/errors.ts';
import { ProjectsRepository } from './projects.repository.ts';
import type { SiteScope, ProjectRow } from './site-scope.ts';
import type { SiteRefsCheck } from './site-refs.ts';

/** The type a node's parent must have; none for a client. A project may also stand alone. */
const PARENT_TYPE: Record<ProjectKind, number | undefined> = {
  client: undefined,
  project: PROJECT_TYPE.client,
  station: PROJECT_TYPE.project,
};

export class ProjectsService {
  private readonly storage: FileStorage;
  readonly repository: ProjectsRepository;
  readonly scope: SiteScope;
  private readonly refs: SiteRefsCheck;

  constructor(deps: { db: Db; storage: FileStorage; scope: SiteScope; refs: SiteRefsCheck }) {
    this.storage = deps.storage;
    this.scope = deps.scope;
    this.refs = deps.refs;
    this.repository = new ProjectsRepository(deps.db);
  }

  /**
   * The parent must be a node of the group the user may change, of the type one level up; a
   * station always needs one. Types only go down the tree, so no cycle can form.
   */
  private async checkParent(
    user: CurrentUser,
    kind: ProjectKind,
    parentId: number | null | undefined,
    selfId?: number,
  ): Promise<number> {
    const wanted = PARENT_TYPE[kind];
    if (!parentId) {
      if (kind === 'station') throw new AppError(400, 'project.badParent', {}, 'ParentId');
      if (!user.isAdmin) throw new AppError(403, 'project.topLevel');
      return 0;
    }
    if (parentId === selfId || wanted === undefined) throw new AppError(400, 'project.badParent', {}, 'ParentId');
    const parent = await this.repository.node(parentId, user.groupId);
    if (!parent) throw new AppError(400, 'ref.unknown', { what: 'ParentId', id: parentId }, 'ParentId');
    if (parent.project_type !== wanted) throw new AppError(400, 'project.badParent', {}, 'ParentId');
    await this.scope.project(user, parentId, 'write');
    return parentId;
  }

  async create(user: CurrentUser, body: AddProjectRequest, now = Date.now()): Promise<number> {
    const parentId = await this.checkParent(user, body.Kind, body.ParentId);
    await this.refs.check(user.groupId, body);
    if (await this.repository.nameTaken(user.groupId, parentId, body.Name))
      throw new AppError(409, 'project.exists', { name: body.Name }, 'Name');
    return this.repository.insert({
      group_id: user.groupId,
      name: body.Name,
      project_type: PROJECT_TYPE[body.Kind],
      parent_id: parentId,
      client_id: body.ClientId ?? null,
      region_id: body.RegionId ?? null,
      area_id: body.AreaId ?? null,
      address: body.Address ?? '',
      position: body.Position ?? '',
      created_at: now,
      updated_at: now,
    });
  }

  async update(user: CurrentUser, body: UpdateProjectRequest, now = Date.now()): Promise<void> {
    const current = await this.scope.project(user, body.Id, 'write');
    const kind: ProjectKind =
      current.project_type === PROJECT_TYPE.client
        ? 'client'
        : current.project_type === PROJECT_TYPE.station
          ? 'station'
          : 'project';
    let parentId = current.parent_id;
    if (body.ParentId !== undefined && (body.ParentId ?? 0) !== current.parent_id) {
      parentId = await this.checkParent(user, kind, body.ParentId, current.id);
    }
    await this.refs.check(user.groupId, body);
    if (await this.repository.nameTaken(user.groupId, parentId, body.Name, current.id))
      throw new AppError(409, 'project.exists', { name: body.Name }, 'Name');
    await this.repository.update(current.id, user.groupId, {
      name: body.Name,
      parent_id: parentId,
      ...(body.ClientId !== undefined ? { client_id: body.ClientId } : {}),
      ...(body.RegionId !== undefined ? { region_id: body.RegionId } : {}),
      ...(body.AreaId !== undefined ? { area_id: body.AreaId } : {}),
      ...(body.Address !== undefined ? { address: body.Address } : {}),
      ...(body.Position !== undefined ? { position: body.Position } : {}),
      updated_at: now,
    });
  }

  /** Refused while the node holds stations, projects or devices; its images, details and grants go with it. */
  async remove(user: CurrentUser, id: number): Promise<ProjectRow> {
    const row = await this.scope.project(user, id, 'write');
    const held = await this.repository.contents(user.groupId, id);
    if (held.children > 0 || held.devices > 0) {
      throw new AppError(409, 'project.notEmpty', { name: row.name, stations: held.children, devices: held.devices });
    }
    const keys = await this.repository.removeWithDetails(id, user.groupId);
    for (const key of keys) await this.storage.remove(key);
    return row;
  }
}
