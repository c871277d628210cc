/**
 * A REST resource of the console: its calls, written like the server's registerResource routes
 * ('GET /Client', 'PUT /Client/Update', 'POST /Client/Delete#Id'), a small query-key factory,
 * fetchers and query options. Features define one per entity in their api file:
 *
 *   export const clientsResource = defineResource<ClientDto>({
 *     key: 'clients',
 *     operate: 'client.manage',
 *     list: 'GET /Client',
 *     create: 'POST /Client/Add',
 *     update: 'PUT /Client/Update',
 *     remove: 'POST /Client/Delete#Id',
 *   });
 *
 * In a path, {g} is the signed-in user's group id; any other {name} is a parent's value given
 * to the table (pathParams: 'GET /type/{typeId}/TypeModule'), else the record's field of that
 * name ('DELETE /{WarnTypeId}/warncode/{Code}'). A record's id goes where the call wants it:
 * ':id' in the path, '?id' a query parameter, '#Id' a body field. A write may also be a function
 * (a call whose body is not the form's values). `reorder` names the bulk sort call
 * ('PUT /type/{typeId}/TypeModule/Sort' taking { Items: [{ Id, Sn }] }) and the field it sets.
 * `operate` is the operate the server's write calls declare (their `config.access`): the table
 * shows add, edit, delete and reorder only to users who hold it.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { OperateCode } from '@sluice/shared/permissions';
import { api, fetchAllPages, request, type ApiResponse, type QueryParams } from '../../lib/api-client';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type CallSpec = `${Method} /${string}`;

/** What paths may refer to: the signed-in user's group, and the parents a table is given. */
export interface ResourceContext {
  groupId: number;
  /** Values of {name} placeholders other than {g} (a parent's id: { typeId: 5 }). */
  path?: Record<string, string | number>;
}

type RecordValues = Record<string, unknown>;
/** A write that is not one plain call: gets the values (with Id on updates) and the record, if any. */
export type WriteFunction = (
  ctx: ResourceContext,
  body: RecordValues,
  record: RecordValues | undefined,
) => Promise<ApiResponse<unknown>>;
export type WriteSpec = CallSpec | WriteFunction;

export interface ReorderItem {
  Id: number;
  Sn: number;
}

export interface ResourceDefinition<Row> {
  /** The query-key root, unique per resource ('clients', 'users'). */
  key: string;
  /** The operate the server requires of the create, update, delete and reorder calls. */
  operate: OperateCode;
  /** The list call. Paged lists take PageNo, PageSize, Search, OrderBy, OrderType. */
  list: CallSpec;
  /**
   * 'server' (default) pages through the list; 'none' loads it whole in one call (lists that are
   * not paged); 'all' loads a paged list whole, 100 rows a page (short lists that are reordered).
   */
  paging?: 'server' | 'none' | 'all';
  create?: WriteSpec;
  update?: WriteSpec;
  remove?: WriteSpec;
  /** A bulk reorder: the call, the row field holding the order, and the body if not { Items }. */
  reorder?: { call: CallSpec; field: string; body?: (items: ReorderItem[], ctx: ResourceContext) => unknown };
  /** How to read rows from the list's data (default: the array itself). */
  readRows?: (data: unknown) => Row[];
}

export interface Page<Row> {
  rows: Row[];
  count: number;
}

interface ParsedCall {
  method: Method;
  path: string;
  idIn: 'path' | 'query' | 'body' | 'none';
  idName: string;
}

function parseCall(spec: CallSpec): ParsedCall {
  const space = spec.indexOf(' ');
  const method = spec.slice(0, space) as Method;
  const raw = spec.slice(space + 1);
  const query = /\?(\w+)$/.exec(raw);
  const body = /#(\w+)$/.exec(raw);
  const path = raw.replace(/[?#]\w+$/, '');
  if (path.includes(':id')) return { method, path, idIn: 'path', idName: 'id' };
  if (query?.[1]) return { method, path, idIn: 'query', idName: query[1] };
  if (body?.[1]) return { method, path, idIn: 'body', idName: body[1] };
  return { method, path, idIn: 'none', idName: '' };
}

/** Fills {g} with the group id, other {name}s from the context's path or the record, and ':id' with the record's id. */
export function fillPath(path: string, ctx: ResourceContext, id?: number, record?: RecordValues): string {
  let filled = path.replace(/\{g\}/g, String(ctx.groupId));
  filled = filled.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = ctx.path?.[name] ?? record?.[name];
    return typeof value === 'string' || typeof value === 'number' ? encodeURIComponent(String(value)) : whole;
  });
  if (id !== undefined) filled = filled.replace(':id', String(id));
  return filled;
}

const recordOf = (row: object): RecordValues => Object.fromEntries(Object.entries(row));

const defaultRows = (data: unknown): unknown[] => (Array.isArray(data) ? (data as unknown[]) : []);

export function defineResource<Row extends { Id: number }>(definition: ResourceDefinition<Row>) {
  const readRows = definition.readRows ?? ((data: unknown) => defaultRows(data) as Row[]);
  const paging = definition.paging ?? 'server';

  const keys = {
    all: [definition.key] as const,
    lists: () => [definition.key, 'list'] as const,
    list: (ctx: ResourceContext, params: QueryParams) =>
      ctx.path
        ? ([definition.key, 'list', ctx.groupId, params, ctx.path] as const)
        : ([definition.key, 'list', ctx.groupId, params] as const),
    detail: (id: number) => [definition.key, 'detail', id] as const,
  };

  async function fetchPage(ctx: ResourceContext, params: QueryParams, signal?: AbortSignal): Promise<Page<Row>> {
    const call = parseCall(definition.list);
    if (paging === 'all') {
      const all = await fetchAllPages<unknown>(fillPath(call.path, ctx), params);
      const rows = readRows(all);
      return { rows, count: rows.length };
    }
    const response = await api.get<unknown>(fillPath(call.path, ctx), params, { signal });
    const rows = readRows(response.data);
    return { rows, count: response.count ?? rows.length };
  }

  /** A write call for a record: the id placed where the call wants it, the body as given. */
  function write(
    spec: WriteSpec | undefined,
    ctx: ResourceContext,
    body: RecordValues,
    id?: number,
    record?: RecordValues,
  ): Promise<ApiResponse<unknown>> {
    if (!spec) return Promise.reject(new Error(`${definition.key}: this call is not defined`));
    if (typeof spec === 'function') return spec(ctx, body, record);
    const call = parseCall(spec);
    const path = fillPath(call.path, ctx, call.idIn === 'path' ? id : undefined, record ?? body);
    const params = call.idIn === 'query' && id !== undefined ? { [call.idName]: id } : undefined;
    const payload = call.idIn === 'body' && id !== undefined ? { ...body, [call.idName]: id } : body;
    const hasBody = call.method !== 'GET' && call.method !== 'DELETE';
    return request<unknown>(call.method, path, { params, body: hasBody ? payload : undefined });
  }

  return {
    key: definition.key,
    operate: definition.operate,
    paging,
    keys,
    fetchPage,
    /** The list query; while another page loads, the previous one stays on screen. */
    listQueryOptions: (ctx: ResourceContext, params: QueryParams) =>
      queryOptions({
        queryKey: keys.list(ctx, params),
        queryFn: ({ signal }) => fetchPage(ctx, params, signal),
        placeholderData: keepPreviousData,
      }),
    canCreate: definition.create !== undefined,
    canUpdate: definition.update !== undefined,
    canRemove: definition.remove !== undefined,
    create: (ctx: ResourceContext, body: RecordValues) => write(definition.create, ctx, body),
    /** `row` (the record as listed) fills path placeholders the values do not. */
    update: (ctx: ResourceContext, id: number, body: RecordValues, row?: object) =>
      write(definition.update, ctx, { Id: id, ...body }, id, row ? recordOf(row) : undefined),
    remove: (ctx: ResourceContext, id: number, row?: object) =>
      write(definition.remove, ctx, {}, id, row ? recordOf(row) : undefined),
    /** The field a bulk reorder sets (Sn, Rank, SequenceIn), when the resource has one. */
    reorderField: definition.reorder?.field,
    /** Saves a new order: each row's new sort number. */
    reorder: (ctx: ResourceContext, items: ReorderItem[]): Promise<ApiResponse<unknown>> => {
      const spec = definition.reorder;
      if (!spec) return Promise.reject(new Error(`${definition.key}: no reorder call`));
      const call = parseCall(spec.call);
      const body = spec.body ? spec.body(items, ctx) : { Items: items };
      return request<unknown>(call.method, fillPath(call.path, ctx), { body });
    },
  };
}

export type Resource<Row extends { Id: number }> = ReturnType<typeof defineResource<Row>>;
