/** A project's or station's images; Sn 0 is the cover. Every query is scoped by group. */
import type { ProjectImageDto } from '@sluice/shared/project.schema';
import type { Db } from '../../db/database.ts';
import { imageUrl } from './projects.repository.ts';

export class ProjectImagesRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async list(groupId: number, projectId: number): Promise<ProjectImageDto[]> {
    const rows = await this.db
      .selectFrom('project_images')
      .select(['id', 'project_id', 'storage_key', 'sn'])
      .where('group_id', '=', groupId)
      .where('project_id', '=', projectId)
      .orderBy('sn')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ Id: r.id, ProjectId: r.project_id, url: imageUrl(r.storage_key), Sn: r.sn }));
  }

  /**
   * Adds an image: as the cover when asked (Sn 0) or when it is the first, moving the old cover
   * behind the others; else at the asked Sn or after the last.
   */
  async add(
    groupId: number,
    projectId: number,
    key: string,
    askedSn: number | undefined,
    now = Date.now(),
  ): Promise<ProjectImageDto> {
    return this.db.transaction().execute(async (trx) => {
      const top = await trx
        .selectFrom('project_images')
        .select((eb) => [eb.fn.max<number | null>('sn').as('max'), eb.fn.countAll<number>().as('n')])
        .where('group_id', '=', groupId)
        .where('project_id', '=', projectId)
        .executeTakeFirstOrThrow();
      const next = (top.max ?? 0) + 1;
      const cover = askedSn === 0 || top.n === 0;
      if (cover) {
        await trx
          .updateTable('project_images')
          .set({ sn: next })
          .where('group_id', '=', groupId)
          .where('project_id', '=', projectId)
          .where('sn', '=', 0)
          .execute();
      }
      const sn = cover ? 0 : (askedSn ?? next);
      const row = await trx
        .insertInto('project_images')
        .values({ group_id: groupId, project_id: projectId, storage_key: key, sn, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { Id: row.id, ProjectId: projectId, url: imageUrl(key), Sn: sn };
    });
  }

  /** Deletes one image of the project; answers its storage key, or undefined when there is none. */
  async remove(groupId: number, projectId: number, id: number): Promise<string | undefined> {
    const image = await this.db
      .deleteFrom('project_images')
      .where('id', '=', id)
      .where('project_id', '=', projectId)
      .where('group_id', '=', groupId)
      .returning('storage_key')
      .executeTakeFirst();
    return image?.storage_key;
  }
}
