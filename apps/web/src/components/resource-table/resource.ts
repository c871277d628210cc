/**
 * A REST resource of the console: its calls, written like the server's registerResource routes
 * ('GET /Client', 'PUT /Client/Update', 'POST /Client/Delete#Id'), a small query-key factory,
 * fetchers and query options. Features define one per entity in their api file:
 *
 *   export const clientsResource = defineResource<ClientDto>({
 *     key: 'clients',
 *     list: 'GET /Client',
 *     create: 'POST /Client/Add',
 *     update: 'PUT /Client/Update',
 *     remove: 'POST /Client/Delete#Id',
 *   });
 *
 * In a path, {g} is the signed-in user's group id. A record's id goes where the call wants it:
 * ':id' in the path, '?id' a query parameter, '#Id' a body field.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, request, type ApiResponse, type QueryParams } from '../../lib/api-client';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type CallSpec = `${Method} /${string}`;

/** What paths may refer to: the signed-in user's group. */
export interface ResourceContext {
  groupId: number;
}

export interface ResourceDefinition<Row> {
  /** The query-key root, unique per resource ('clients', 'users'). */
  key: string;
  /** The list call. Paged lists take PageNo, PageSize, Search, OrderBy, OrderType. */
  list: CallSpec;
  /** 'server' (default) pages through the list; 'none' loads it whole (short lists, trees). */
  paging?: 'server' | 'none';
  create?: CallSpec;
  update?: CallSpec;
  remove?: CallSpec;
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

/** Fills {g} with the group id and ':id' with the record's id. */
export function fillPath(path: string, ctx: ResourceContext, id?: number): string {
  let filled = path.replace(/\{g\}/g, String(ctx.groupId));
  if (id !== undefined) filled = filled.replace(':id', String(id));
  return filled;
}

const defaultRows = (data: unknown): unknown[] => (Array.isArray(data) ? (data as unknown[]) : []);

export function defineResource<Row extends { Id: number }>(definition: ResourceDefinition<Row>) {
  const readRows = definition.readRows ?? ((data: unknown) => defaultRows(data) as Row[]);
  const paging = definition.paging ?? 'server';

  const keys = {
    all: [definition.key] as const,
    lists: () => [definition.key, 'list'] as const,
    list: (ctx: ResourceContext, params: QueryParams) => [definition.key, 'list', ctx.groupId, params] as const,
    detail: (id: number) => [definition.key, 'detail', id] as const,
  };

  async function fetchPage(ctx: ResourceContext, params: QueryParams, signal?: AbortSignal): Promise<Page<Row>> {
    const call = parseCall(definition.list);
    const response = await api.get<unknown>(fillPath(call.path, ctx), params, { signal });
    const rows = readRows(response.data);
    return { rows, count: response.count ?? rows.length };
  }

  /** A write call for a record: the id placed where the call wants it, the body as given. */
  function write(spec: CallSpec | undefined, ctx: ResourceContext, body: Record<string, unknown>, id?: number): Promise<ApiResponse<unknown>> {
    if (!spec) return Promise.reject(new Error(`${definition.key}: this call is not defined`));
    const call = parseCall(spec);
    const path = fillPath(call.path, ctx, call.idIn === 'path' ? id : undefined);
    const params = call.idIn === 'query' && id !== undefined ? { [call.idName]: id } : undefined;
    const payload = call.idIn === 'body' && id !== undefined ? { ...body, [call.idName]: id } : body;
    const hasBody = call.method !== 'GET' && call.method !== 'DELETE';
    return request<unknown>(call.method, path, { params, body: hasBody ? payload : undefined });
  }

  return {
    key: definition.key,
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
    create: (ctx: ResourceContext, body: Record<string, unknown>) => write(definition.create, ctx, body),
    update: (ctx: ResourceContext, id: number, body: Record<string, unknown>) => write(definition.update, ctx, { Id: id, ...body }, id),
    remove: (ctx: ResourceContext, id: number) => write(definition.remove, ctx, {}, id),
  };
}

export type Resource<Row extends { Id: number }> = ReturnType<typeof defineResource<Row>>;
