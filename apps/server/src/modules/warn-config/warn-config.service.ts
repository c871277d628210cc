/**
 * The rules of a group's alarm configuration: warn codes are unique in the group and addressed
 * by their code under their warn type; a code linked to data points stays; a warn type holding
 * codes stays.
 */
import type { WarnCodeDto } from '@sluice/shared/warn.schema';
import { AppError } from '../../http/errors.ts';
import type { WarnConfigRepository, WarnCodeRow } from './warn-config.repository.ts';

export class WarnConfigService {
  readonly repository: WarnConfigRepository;

  constructor(repository: WarnConfigRepository) {
    this.repository = repository;
  }

  /** Adds each code row's warn type name and colour (type_name, color), in one query. */
  async withTypeNames<R extends Record<string, unknown>>(
    groupId: number,
    rows: R[],
  ): Promise<(R & { type_name: string; color: string })[]> {
    const types = await this.repository.typeNames(groupId, [...new Set(rows.map((r) => Number(r.warn_type_id)))]);
    return rows.map((r) => ({
      ...r,
      type_name: types.get(Number(r.warn_type_id))?.type_name ?? '',
      color: types.get(Number(r.warn_type_id))?.color ?? '',
    }));
  }

  /** Refuses deleting a warn type that still holds codes. */
  async checkTypeRemovable(groupId: number, type: { Id: number; TypeName: string }): Promise<void> {
    if (await this.repository.typeHasCodes(groupId, type.Id)) throw new AppError(409, 'warnType.inUse', { name: type.TypeName });
  }

  /** The group's warn type `id`; 404 otherwise. */
  async type(groupId: number, id: number): Promise<number> {
    if (!(await this.repository.typeExists(groupId, id))) throw new AppError(404, 'error.notFound');
    return id;
  }

  /** The code `code` of warn type `typeId` (or of the group when no type is given); 404 otherwise. */
  async code(groupId: number, code: string, typeId?: number): Promise<WarnCodeRow> {
    const row = await this.repository.code(groupId, code, typeId);
    if (!row) throw new AppError(404, 'warnCode.unknown', { code });
    return row;
  }

  async dto(groupId: number, id: number): Promise<WarnCodeDto> {
    const row = await this.repository.codeById(id);
    const [named] = await this.withTypeNames(groupId, [row as unknown as Record<string, unknown>]);
    return {
      Id: row.id,
      Code: row.code,
      Description: row.description,
      WarnTypeId: row.warn_type_id,
      TypeName: named?.type_name ?? '',
      Color: named?.color ?? '',
    };
  }

  async addCode(groupId: number, typeId: number, code: string, description: string): Promise<WarnCodeDto> {
    await this.type(groupId, typeId);
    if (await this.repository.code(groupId, code)) throw new AppError(409, 'warnCode.exists', { code }, 'Code');
    return this.dto(groupId, await this.repository.insertCode(groupId, typeId, code, description));
  }

  /** Changes a code's description, and moves it to warn type `moveTo` when given. */
  async updateCode(groupId: number, typeId: number, code: string, description: string, moveTo?: number): Promise<WarnCodeDto> {
    await this.type(groupId, typeId);
    const row = await this.code(groupId, code, typeId);
    const target =
      moveTo === undefined
        ? typeId
        : await this.type(groupId, moveTo).catch(() => {
            throw new AppError(400, 'ref.unknown', { what: 'WarnTypeId', id: moveTo }, 'WarnTypeId');
          });
    await this.repository.updateCode(row.id, description, target);
    return this.dto(groupId, row.id);
  }

  /** Deletes a code, refused while data points are linked to it. */
  async deleteCode(groupId: number, typeId: number, code: string): Promise<void> {
    await this.type(groupId, typeId);
    const row = await this.code(groupId, code, typeId);
    if (await this.repository.codeLinked(groupId, row.code)) throw new AppError(409, 'warnCode.inUse', { code: row.code });
    await this.repository.deleteCode(row.id);
  }
}
