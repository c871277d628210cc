/**
 * Scoping of a type's parts: the type (or module) in the path must be the caller group's, and
 * the ids a part refers to (data points, classes, modules, controls) must be the group's or the
 * same type's.
 */
import type { TypePartKey } from '@sluice/shared/device-type-parts';
import { idRef } from '@sluice/shared/schema-fields';
import { AppError } from '../../http/errors.ts';
import type { ResourceSpec } from '../../http/resource.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import type { DeviceTypesRepository } from './device-types.repository.ts';
import { partTable, type TypePartTable } from './type-parts.ts';

type Row = Record<string, unknown>;
type Parent = NonNullable<ResourceSpec<never, never, never>['parent']>;

const param = (name: string) => (request: { params: unknown }) => (request.params as Record<string, unknown> | undefined)?.[name];

const unknown = (field: string, id: unknown) => new AppError(400, 'ref.unknown', { what: field, id: String(id) }, field);

export class TypeScope {
  private readonly types: DeviceTypesRepository;

  constructor(types: DeviceTypesRepository) {
    this.types = types;
  }

  /** The device type of the path (type/{typeId}/…), which must be the caller's group's. */
  async ownType(raw: unknown, groupId: number): Promise<number> {
    const id = idRef.safeParse(raw);
    if (!id.success) throw new AppError(404, 'error.notFound');
    const row = await this.types.one(id.data, groupId);
    if (!row) throw new AppError(404, 'error.notFound');
    return row.id;
  }

  /** The generic resource's parent of a type's part: the type of the path. */
  typeParent(): Parent {
    return {
      column: 'type_id',
      from: param('typeId'),
      resolve: (raw: unknown, user: CurrentUser) => this.ownType(raw, user.groupId),
    };
  }

  /** The generic resource's parent of a module's part: the module of the path, which must be the group's. */
  moduleParent(): Parent {
    return {
      column: 'module_id',
      from: param('moduleId'),
      resolve: async (raw: unknown, user: CurrentUser) => {
        const id = idRef.safeParse(raw);
        if (!id.success) throw new AppError(404, 'error.notFound');
        const own = await this.types.ownModule(id.data, user.groupId);
        if (own === undefined) throw new AppError(404, 'error.notFound');
        return own;
      },
    };
  }

  /** A library data point of the group; returns its key. */
  async dataDefineKey(groupId: number, id: unknown, field = 'DataDefineId'): Promise<string> {
    const parsed = idRef.safeParse(id);
    if (!parsed.success) throw unknown(field, id);
    const key = await this.types.dataDefineKey(parsed.data, groupId);
    if (key === undefined) throw unknown(field, id);
    return key;
  }

  /** A part of the same type (a module, class, control, type data point or schema node). */
  async requireInType(table: TypePartTable, id: unknown, typeId: number, field: string): Promise<void> {
    const parsed = idRef.safeParse(id);
    if (!parsed.success || !(await this.types.inType(table, parsed.data, typeId))) throw unknown(field, id);
  }

  /**
   * Hooks for a type's part: `derive` fills columns from the row alone (a data point's key) on
   * every write; `inType` checks references against the row's type, which a new row carries and
   * an updated one is looked up for.
   */
  partHooks(
    part: TypePartKey,
    hooks: {
      derive?: (row: Row, user: CurrentUser) => Promise<Row>;
      inType?: (row: Row, typeId: number, user: CurrentUser, selfId?: number) => Promise<void>;
    },
  ) {
    return {
      beforeWrite: async (row: Row, user: CurrentUser): Promise<Row> => {
        const next = hooks.derive ? await hooks.derive(row, user) : row;
        if (typeof next.type_id === 'number') await hooks.inType?.(next, next.type_id, user);
        return next;
      },
      beforeUpdate: async (id: number, row: Row, user: CurrentUser): Promise<void> => {
        if (!hooks.inType) return;
        await hooks.inType(row, await this.types.typeOf(partTable(part), id), user, id);
      },
    };
  }
}
