/**
 * The generic resource: registers the list / get / create / update / delete calls of a
 * group-scoped table from its shared zod schemas. Paging, search, sorting, tenant scoping,
 * permission checks, uniqueness and DTO mapping are done here once.
 *
 *   registerResource(app, {
 *     table: 'clients', tags: ['Clients'],
 *     access: { read: { operate: 'client.view' }, write: { operate: 'client.manage' } },
 *     dto: clientDto, create: addClientRequest, update: updateClientRequest,
 *     sortable: ['ClientName', 'ClientSn'], searchable: ['ClientName', 'Linkman'],
 *     routes: { list: 'GET /Client', get: 'GET /Client/Get?id', create: 'POST /Client/Add',
 *               update: 'PUT /Client/Update', remove: 'POST /Client/Delete#Id' },
 *   });
 *
 * A route is 'METHOD /path'; the record's id comes from ':id' in the path, from a query
 * parameter ('?id'), or from a body field ('#Id').
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { z } from 'zod';
import { pageQuery } from '@sluice/shared/paging.schema';
import { normalizeSearch } from '@sluice/shared/rules';
import { reorderRequest, type ReorderRequest, idRef } from '@sluice/shared/schema-fields';
import type { MessageKey } from '@sluice/shared/i18n';
import type { AuditAction, AuditKind } from '@sluice/shared/audit.schema';
import { currentUser, type Access } from '../auth/access.ts';
import type { CurrentUser } from '../auth/current-user.ts';
import type { Db } from '../db/database.ts';
import { AppError } from './errors.ts';
import { envelopeOf, ok } from './envelope.ts';
import { noteAudit, type AuditedCall, type AuditRef, type AuditSubject } from '../modules/audit/audit-trail.ts';
import { beginNow } from '../db/request-transaction.ts';

type Row = Record<string, unknown>;
/** Table and column names of a resource are data here, so the query builder sees loose rows. */
type LooseDb = Kysely<Record<string, Row>>;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type RouteSpec = `${Method} /${string}`;

type DtoShape = z.ZodObject<{ Id: z.ZodNumber } & z.ZodRawShape>;

export interface ResourceSpec<Dto extends DtoShape, Create extends z.ZodType, Update extends z.ZodType> {
  table: string;
  tags: string[];
  access: { read: Access; write: Access };
  /**
   * The audit trail's name for the records (their writes' entries hold the record before and
   * after, as `dto`), and the page-level record a row belongs to (a type's parts:
   * `ownerColumn('deviceType', 'type_id')`).
   */
  audit: { kind: AuditKind; owner?: (row: Row) => AuditRef | undefined };
  dto: Dto;
  create: Create;
  update: Update;
  /** DTO keys computed from the row rather than read from a column of their own. */
  computed?: Partial<Record<keyof Dto['shape'] & string, (row: Row) => unknown>>;
  /** DTO keys whose column is not the snake_case of the key. */
  columns?: Partial<Record<Exclude<keyof Dto['shape'], 'Id'>, string>>;
  sortable: (keyof Dto['shape'] & string)[];
  searchable: (keyof Dto['shape'] & string)[];
  /**
   * Extra list filters: query parameter → DTO key, matched exactly, or as one item of a
   * comma-joined list column (`match: 'listItem'`).
   */
  filters?: Record<string, { key: keyof Dto['shape'] & string; schema: z.ZodType; match?: 'equals' | 'listItem' }>;
  /** Other names of list query parameters (sortData → OrderBy, TempName → Search). */
  queryAliases?: Record<string, string>;
  /** Adds fields to fetched rows in one batch (names from another table, say) before DTO mapping. */
  enrich?: (rows: Row[], user: CurrentUser) => Promise<Row[]>;
  /** A bulk reorder call: `{ Items: [{ Id, Sn }] }` sets `key` of each listed row (within the parent). */
  reorder?: { route: RouteSpec; key: keyof Dto['shape'] & string };
  /** Fields (or sets of fields) unique within the group, text case-insensitively. */
  unique?: { key: (keyof Dto['shape'] & string) | (keyof Dto['shape'] & string)[]; message: MessageKey }[];
  defaultOrder?: { key: keyof Dto['shape'] & string; direction: 'asc' | 'desc' };
  routes: Partial<Record<'list' | 'all' | 'get' | 'create' | 'update' | 'remove', RouteSpec>>;
  /** Refuses a delete by throwing an AppError (a record still in use, say). */
  beforeRemove?: (db: Db, row: z.infer<Dto>, user: CurrentUser) => Promise<void>;
  /** Refuses an update by throwing an AppError. */
  beforeUpdate?: (id: number, row: Row, user: CurrentUser) => Promise<void>;
  /** Adjusts a row before it is written (derived columns, say). */
  beforeWrite?: (row: Row, user: CurrentUser) => Row | Promise<Row>;
  summary?: string;
  /** Legacy calls the spec lists with `account` and `token` parameters (auth/access.ts). */
  legacyToken?: boolean;
  /**
   * A parent the records hang on (a project's affiliates, a device's configs). `from` reads it
   * from the request (undefined when the request does not name one); `resolve` checks that the
   * caller may reach it, throwing 404 or 403, and returns the value of `column`. Lists and new
   * records take the named parent; a record reached by id must belong to the named parent, or,
   * when none is named, its own parent is resolved.
   */
  parent?: {
    column: string;
    from: (request: FastifyRequest) => unknown;
    resolve: (raw: unknown, user: CurrentUser, mode: 'read' | 'write') => Promise<string | number>;
  };
}

/** An owner in the audit trail: the record of that kind a field of a row (or of a DTO) names, if it names one. */
export const ownerColumn =
  (kind: AuditKind, column: string) =>
  (row: Row): AuditRef | undefined => {
    const value = row[column];
    return typeof value === 'number' || (typeof value === 'string' && value !== '') ? { kind, id: value } : undefined;
  };

/** The LIKE pattern of a list's Search (§5: full-width commas normalised), or undefined when empty. */
export function searchPattern(search: string | undefined | null): string | undefined {
  const text = normalizeSearch(search);
  if (!text) return undefined;
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Any of the columns contains the pattern, case-insensitively. */
export function likeAny(columns: string[], pattern: string): RawBuilder<SqlBool> {
  const parts = columns.map((c) => sql<SqlBool>`lower(${sql.ref(c)}) like ${pattern} escape '\\'`);
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

/** The column and direction of OrderBy/OrderType, checked against the sortable keys (key → column). */
export function pickOrder(
  query: { OrderBy?: string | undefined; OrderType?: string | undefined },
  sortable: Record<string, string>,
  fallback: { key: string; direction: 'asc' | 'desc' },
): { column: string; direction: 'asc' | 'desc' } {
  const key = query.OrderBy ?? fallback.key;
  const match = Object.keys(sortable).find((k) => k.toLowerCase() === key.toLowerCase());
  if (match === undefined) throw new AppError(400, 'rule.sortable', { columns: Object.keys(sortable).join(', ') }, 'OrderBy');
  const type = query.OrderType ?? (query.OrderBy ? 'asc' : fallback.direction);
  return { column: sortable[match] ?? 'id', direction: type.toLowerCase() === 'desc' ? 'desc' : 'asc' };
}

/** The column of a DTO key, unless a resource says otherwise: `DataDefineId` → `data_define_id`. */
export const snake = (key: string) =>
  key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();

function parseRoute(spec: RouteSpec): {
  method: Method;
  url: string;
  idFrom: 'params' | 'query' | 'body' | 'none';
  idName: string;
} {
  const [method = 'GET', rawUrl = '/'] = spec.split(' ');
  const query = /\?(\w+)$/.exec(rawUrl);
  const body = /#(\w+)$/.exec(rawUrl);
  const url = rawUrl.replace(/[?#]\w+$/, '');
  if (url.includes(':id')) return { method: method as Method, url, idFrom: 'params', idName: 'id' };
  if (query) return { method: method as Method, url, idFrom: 'query', idName: query[1] ?? 'id' };
  if (body) return { method: method as Method, url, idFrom: 'body', idName: body[1] ?? 'Id' };
  return { method: method as Method, url, idFrom: 'none', idName: '' };
}

const idSchema = idRef;

/** Registers the resource's calls; answers its audit subject, for its other calls' declarations. */
export function registerResource<Dto extends DtoShape, Create extends z.ZodType, Update extends z.ZodType>(
  root: FastifyInstance,
  spec: ResourceSpec<Dto, Create, Update>,
): AuditSubject {
  // Handlers here are generic over the resource, so routes use the untyped provider; the
  // schemas still validate every request and describe every response.
  const app = root;
  const computed: Record<string, ((row: Row) => unknown) | undefined> = spec.computed ?? {};
  const keys = Object.keys(spec.dto.shape).filter((k) => k !== 'Id' && !computed[k]);
  const columnOf = (key: string): string => (spec.columns as Record<string, string> | undefined)?.[key] ?? snake(key);
  const booleans = new Set(keys.filter((k) => spec.dto.shape[k] instanceof z.ZodBoolean));
  const db = (): LooseDb => app.ctx.db as unknown as LooseDb;

  const toDto = (row: Row): z.infer<Dto> => {
    const dto: Row = { Id: row.id };
    for (const key of keys) {
      const value = row[columnOf(key)];
      dto[key] = booleans.has(key) ? value === 1 || value === true : value;
    }
    for (const [key, compute] of Object.entries(computed)) dto[key] = compute?.(row);
    return dto as z.infer<Dto>;
  };

  /**
   * The columns a request body sets. A field the body leaves out (undefined) is not touched; an
   * optional text field sent as '' or null arrives here as '' (rules.ts `optional`) and clears
   * the column, and a clearable reference sent as null sets it to null.
   */
  const toRow = (input: Row): Row => {
    const row: Row = {};
    for (const key of keys) {
      if (!(key in input) || input[key] === undefined) continue;
      const value = input[key];
      row[columnOf(key)] = typeof value === 'boolean' ? Number(value) : value;
    }
    return row;
  };

  const findRow = async (id: number, groupId: number) =>
    db().selectFrom(spec.table).selectAll().where('id', '=', id).where('group_id', '=', groupId).executeTakeFirst();

  const checkUnique = async (row: Row, groupId: number, selfId?: number) => {
    for (const { key, message } of spec.unique ?? []) {
      const fields = [key].flat();
      const values = fields.map((k) => row[columnOf(k)]);
      if (values.some((v) => (typeof v !== 'string' && typeof v !== 'number') || v === '')) continue;
      let query = db().selectFrom(spec.table).select('id').where('group_id', '=', groupId);
      for (const [i, field] of fields.entries()) {
        const value = values[i];
        query =
          typeof value === 'string'
            ? query.where(sql`lower(${sql.ref(columnOf(field))})`, '=', value.toLowerCase())
            : query.where(columnOf(field), '=', value);
      }
      if (selfId !== undefined) query = query.where('id', '!=', selfId);
      if (await query.executeTakeFirst())
        throw new AppError(409, message, { name: values.map(String).join(' / ') }, fields.at(-1));
    }
  };

  /** The record a call names, or undefined. */
  const recordIdOf = (request: FastifyRequest, route: ReturnType<typeof parseRoute>): number | undefined => {
    const source = route.idFrom === 'params' ? request.params : route.idFrom === 'query' ? request.query : request.body;
    const raw = (source as Row | undefined)?.[route.idName] ?? (source as Row | undefined)?.[route.idName.toLowerCase()];
    const parsed = idSchema.safeParse(raw);
    return parsed.success ? parsed.data : undefined;
  };
  const idOf = (request: FastifyRequest, route: ReturnType<typeof parseRoute>): number => {
    const id = recordIdOf(request, route);
    if (id === undefined) throw new AppError(400, 'rule.required', {}, route.idName);
    return id;
  };

  /** An update without an id in its path names its record by the body's Id. */
  const updateRoute = (route: ReturnType<typeof parseRoute>): ReturnType<typeof parseRoute> =>
    route.idFrom === 'none' ? { ...route, idFrom: 'body', idName: 'Id' } : route;

  const parentValue = async (request: FastifyRequest, user: CurrentUser, mode: 'read' | 'write') => {
    if (!spec.parent) return undefined;
    const raw = spec.parent.from(request);
    if (raw === undefined || raw === '') throw new AppError(400, 'rule.required', {}, spec.parent.column);
    return spec.parent.resolve(raw, user, mode);
  };

  /** A record reached by id: its parent must be the named one, or reachable when none is named. */
  const checkParent = async (request: FastifyRequest, row: Row, user: CurrentUser, mode: 'read' | 'write') => {
    if (!spec.parent) return;
    const raw = spec.parent.from(request);
    const own = row[spec.parent.column];
    if (raw === undefined || raw === '') {
      await spec.parent.resolve(own, user, mode);
      return;
    }
    if ((await spec.parent.resolve(raw, user, mode)) !== own) throw new AppError(404, 'error.notFound');
  };

  const enrichRows = async (rows: Row[], user: CurrentUser): Promise<Row[]> =>
    spec.enrich && rows.length > 0 ? spec.enrich(rows, user) : rows;
  /** The row each DTO came from, for its audit owner (a column the DTO may not show). */
  const rowOfDto = new WeakMap<object, Row>();
  const dtoOf = async (row: Row | undefined, user: CurrentUser) => {
    const dto = toDto((await enrichRows(row ? [row] : [], user))[0] ?? row ?? {});
    if (row) rowOfDto.set(dto, row);
    return dto;
  };

  const owner = spec.audit.owner;
  const subject: AuditSubject = {
    kind: spec.audit.kind,
    load: async (_ctx, user, id) => {
      const row = user ? await findRow(Number(id), user.groupId) : undefined;
      if (!row || !user) return null;
      return dtoOf(row, user);
    },
    ...(owner
      ? {
          owner: (record: Row) => {
            const row = rowOfDto.get(record);
            return row ? owner(row) : undefined;
          },
        }
      : {}),
  };
  /** The audit declaration of a write: its action, and the record it names (from the route's id). */
  const audited = (action: AuditAction, route?: ReturnType<typeof parseRoute>, handlerNotes = false): AuditedCall => ({
    subject,
    action,
    ...(route ? { id: (request: FastifyRequest) => recordIdOf(request, route) } : {}),
    ...(handlerNotes ? { handlerNotes: true } : {}),
  });

  const filterShape = Object.fromEntries(Object.entries(spec.filters ?? {}).map(([name, f]) => [name, f.schema.optional()]));
  const aliases = spec.queryAliases ?? {};
  const listQuery = z.preprocess(
    (q) => {
      if (!q || typeof q !== 'object' || Object.keys(aliases).length === 0) return q;
      const v = { ...(q as Row) };
      for (const [alias, target] of Object.entries(aliases))
        if (v[target] === undefined && v[alias] !== undefined) v[target] = v[alias];
      return v;
    },
    z.intersection(pageQuery, z.object(filterShape)),
  );

  const list = async (
    request: FastifyRequest,
    query: Row & { PageNo: number; PageSize: number; Search?: string; OrderBy?: string; OrderType?: string },
    all: boolean,
  ) => {
    const user = currentUser(request);
    let q = db().selectFrom(spec.table).where('group_id', '=', user.groupId);
    const parent = await parentValue(request, user, 'read');
    if (spec.parent && parent !== undefined) q = q.where(spec.parent.column, '=', parent);
    const pattern = searchPattern(query.Search);
    if (pattern && spec.searchable.length > 0) q = q.where(likeAny(spec.searchable.map(columnOf), pattern));
    for (const [name, filter] of Object.entries(spec.filters ?? {})) {
      const value = query[name];
      if (value === undefined || value === '') continue;
      if (filter.match === 'listItem') {
        const item = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
        q = q.where(
          sql<SqlBool>`(',' || ${sql.ref(columnOf(filter.key))} || ',') like ${`%,${item.replace(/[\\%_]/g, (c) => `\\${c}`)},%`} escape '\\'`,
        );
      } else {
        q = q.where(columnOf(filter.key), '=', typeof value === 'boolean' ? Number(value) : value);
      }
    }
    const orderKey = query.OrderBy ?? spec.defaultOrder?.key ?? 'Id';
    const sortable = new Set<string>(['Id', ...spec.sortable]);
    const orderMatch = [...sortable].find((k) => k.toLowerCase() === orderKey.toLowerCase());
    if (!orderMatch) throw new AppError(400, 'rule.sortable', { columns: [...sortable].join(', ') }, 'OrderBy');
    const direction =
      (query.OrderType ?? (query.OrderBy ? 'asc' : (spec.defaultOrder?.direction ?? 'asc'))).toLowerCase() === 'desc'
        ? 'desc'
        : 'asc';
    const { count } = await q.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    let rowsQuery = q
      .selectAll()
      .orderBy(orderMatch === 'Id' ? 'id' : columnOf(orderMatch), direction)
      .orderBy('id', direction);
    if (!all) rowsQuery = rowsQuery.limit(query.PageSize).offset((query.PageNo - 1) * query.PageSize);
    const rows = await rowsQuery.execute();
    return ok(request, (await enrichRows(rows, user)).map(toDto), { count });
  };

  const { routes } = spec;
  const listSchema = envelopeOf(z.array(spec.dto));
  type Route = ReturnType<typeof parseRoute>;
  /** Registers one call of the resource when the spec names it. */
  const register = (
    at: RouteSpec | undefined,
    access: Access,
    schema: Omit<FastifySchema, 'tags'>,
    handler: (request: FastifyRequest, reply: FastifyReply, route: Route) => unknown,
    audit?: (route: Route) => AuditedCall,
  ) => {
    if (!at) return;
    const route = parseRoute(at);
    app.route({
      method: route.method,
      url: route.url,
      config: { access, ...(audit ? { audit: audit(route) } : {}), ...(spec.legacyToken ? { legacyToken: true } : {}) },
      schema: { tags: spec.tags, ...schema },
      handler: (request, reply) => handler(request, reply, route),
    });
  };
  const { read, write } = spec.access;

  register(
    routes.list,
    read,
    {
      summary: `List (paged, searchable by ${spec.searchable.join(', ')})`,
      querystring: listQuery,
      response: { 200: listSchema },
    },
    (request) => list(request, request.query as Parameters<typeof list>[1], false),
  );

  register(
    routes.all,
    read,
    { summary: 'All records (searchable, sorted)', querystring: listQuery, response: { 200: listSchema } },
    (request) => list(request, request.query as Parameters<typeof list>[1], true),
  );

  register(
    routes.get,
    read,
    { summary: 'One record', response: { 200: envelopeOf(spec.dto) } },
    async (request, _reply, route) => {
      const user = currentUser(request);
      const row = await findRow(idOf(request, route), user.groupId);
      if (!row) throw new AppError(404, 'error.notFound');
      await checkParent(request, row, user, 'read');
      return ok(request, await dtoOf(row, user));
    },
  );

  register(
    routes.create,
    write,
    { summary: 'Create', body: spec.create, response: { 201: envelopeOf(spec.dto) } },
    async (request, reply) => {
      const user = currentUser(request);
      let row = toRow(request.body as Row);
      const parent = await parentValue(request, user, 'write');
      if (spec.parent && parent !== undefined) row[spec.parent.column] = parent;
      if (spec.beforeWrite) row = await spec.beforeWrite(row, user);
      await checkUnique(row, user.groupId);
      const inserted = await db()
        .insertInto(spec.table)
        .values({ ...row, group_id: user.groupId })
        .returning('id')
        .executeTakeFirstOrThrow();
      const created = await findRow(Number(inserted.id), user.groupId);
      const dto = await dtoOf(created, user);
      noteAudit(request, { id: Number(inserted.id), before: null, after: dto });
      return reply.status(201).send(ok(request, dto, { message: 'created' }));
    },
    () => audited('create', undefined, true),
  );

  register(
    routes.update,
    write,
    { summary: 'Update', body: spec.update, response: { 200: envelopeOf(spec.dto) } },
    async (request, _reply, route) => {
      const user = currentUser(request);
      const id = idOf(request, updateRoute(route));
      // The record as it was, read in the call's transaction: the audit's "before".
      await beginNow(app.ctx.db);
      const existing = await findRow(id, user.groupId);
      if (!existing) throw new AppError(404, 'error.notFound');
      await checkParent(request, existing, user, 'write');
      let row = toRow(request.body as Row);
      const parentColumn = spec.parent?.column;
      if (parentColumn) row = Object.fromEntries(Object.entries(row).filter(([column]) => column !== parentColumn));
      if (spec.beforeWrite) row = await spec.beforeWrite(row, user);
      await checkUnique(row, user.groupId, id);
      await spec.beforeUpdate?.(id, row, user);
      const before = await dtoOf(existing, user);
      if (Object.keys(row).length > 0) {
        await db().updateTable(spec.table).set(row).where('id', '=', id).where('group_id', '=', user.groupId).execute();
      }
      const saved = await findRow(id, user.groupId);
      const after = await dtoOf(saved, user);
      noteAudit(request, { before, after });
      return ok(request, after, { message: 'saved' });
    },
    (route) => audited('update', updateRoute(route), true),
  );

  register(
    routes.remove,
    write,
    { summary: 'Delete' },
    async (request, _reply, route) => {
      const user = currentUser(request);
      const id = idOf(request, route);
      await beginNow(app.ctx.db);
      const row = await findRow(id, user.groupId);
      if (!row) throw new AppError(404, 'error.notFound');
      await checkParent(request, row, user, 'write');
      const before = await dtoOf(row, user);
      await spec.beforeRemove?.(app.ctx.db, toDto(row), user);
      await db().deleteFrom(spec.table).where('id', '=', id).where('group_id', '=', user.groupId).execute();
      noteAudit(request, { before, after: null });
      return ok(request, null, { message: 'deleted' });
    },
    (route) => audited('delete', route, true),
  );

  const reorder = spec.reorder;
  if (reorder) {
    const column = columnOf(reorder.key);
    register(
      reorder.route,
      write,
      { summary: `Reorder: set ${reorder.key} of each listed record`, body: reorderRequest },
      async (request) => {
        const user = currentUser(request);
        const { Items } = request.body as ReorderRequest;
        const ids = [...new Set(Items.map((i) => i.Id))];
        let q = db().selectFrom(spec.table).select('id').where('group_id', '=', user.groupId).where('id', 'in', ids);
        const parent = spec.parent ? await parentValue(request, user, 'write') : undefined;
        if (spec.parent && parent !== undefined) q = q.where(spec.parent.column, '=', parent);
        if ((await q.execute()).length !== ids.length) throw new AppError(404, 'error.notFound');
        await db()
          .transaction()
          .execute(async (trx) => {
            for (const item of Items) {
              await trx
                .updateTable(spec.table)
                .set({ [column]: item.Sn })
                .where('id', '=', item.Id)
                .where('group_id', '=', user.groupId)
                .execute();
            }
          });
        return ok(request, null, { message: 'saved' });
      },
      () => ({
        ...audited('reorder'),
        id: (request) => (request.body as Partial<ReorderRequest> | undefined)?.Items?.map((i) => i.Id),
      }),
    );
  }
  return subject;
}
