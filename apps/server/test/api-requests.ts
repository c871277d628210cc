/**
 * Requests made from the server's own route table and OpenAPI document, for the security suite
 * (routes-access.test.ts, api-fuzz.test.ts): every API route, what it declares about access, and
 * a request to it whose body and parameters fit its schema (json-schema-faker, seeded) with the
 * ids a test chooses put wherever a parameter or field names a record.
 */
import type { FastifyInstance, InjectOptions } from 'fastify';
import { generateSync, type JsonSchema } from 'json-schema-faker';
import type { Access } from '../src/auth/access.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS';

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

export interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export interface ApiRoute {
  method: Method;
  /** Fastify's form: /api/type/:typeId/TypeModule/:id */
  url: string;
  access: Access | undefined;
  /** The route's operation in the OpenAPI document; undefined for a route the document hides. */
  operation: Operation | undefined;
}

/** `METHOD /url`, as the suites name a route. */
export const routeName = (route: { method: string; url: string }) => `${route.method} ${route.url}`;

/** Every API route (not the docs), one per method; HEAD routes only when `withHead`. */
export function apiRoutes(app: FastifyInstance, withHead = false): ApiRoute[] {
  const doc = app.swagger() as { paths: Record<string, Record<string, Operation>> };
  const routes: ApiRoute[] = [];
  for (const record of app.routeTable) {
    const lower = record.url.toLowerCase();
    if (!lower.startsWith('/api/') || lower.startsWith('/api/docs')) continue;
    for (const method of record.method.split(',') as Method[]) {
      if (method === 'HEAD' && !withHead) continue;
      const path = record.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      const operation = doc.paths[path]?.[(method === 'HEAD' ? 'GET' : method).toLowerCase()];
      routes.push({ method, url: record.url, access: record.access(), operation });
    }
  }
  return routes;
}

/** What a request puts where a parameter or field names a record. */
export interface Ids {
  /** The caller's own group, for group segments (g, groupId, …). */
  ownGroup: number;
  /** Any other record id. */
  id: number;
  deviceSn: string;
  warnCode: string;
}

/** Path segments that name no record but a kind of call, and what they take. */
const SEGMENTS: Record<string, string> = {
  parentKind: 'station',
  kind: 'device',
  module: 'api',
  scope: 'sys',
};

const GROUP_NAMES = new Set(['g', 'group', 'groupid']);

/** What a parameter or field of this name takes, when it names a record; undefined when it does not. */
function idFor(name: string, ids: Ids, type: 'string' | 'number'): string | number | undefined {
  const lower = name.toLowerCase();
  if (GROUP_NAMES.has(lower)) return ids.ownGroup;
  if (type === 'string' && (lower === 'sn' || lower.endsWith('devicesn'))) return ids.deviceSn;
  if (type === 'string' && lower === 'code') return ids.warnCode;
  if (lower === 'id' || /[a-z]Id$|_id$/.test(name)) return ids.id;
  return undefined;
}

function schemaType(schema: JsonSchema | undefined): 'string' | 'number' | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'integer' || type === 'number') return 'number';
  if (type === 'string') return 'string';
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) {
    const inner = schemaType(branch);
    if (inner) return inner;
  }
  return undefined;
}

/** Puts the ids into a generated value wherever a field names a record (objects and arrays, at any depth). */
function withIds(value: unknown, schema: JsonSchema | undefined, ids: Ids): unknown {
  if (Array.isArray(value)) {
    const items = schema && typeof schema === 'object' ? schema.items : undefined;
    return value.map((item) => withIds(item, items, ids));
  }
  if (value === null || typeof value !== 'object') return value;
  const properties = schema && typeof schema === 'object' ? (schema.properties ?? {}) : {};
  const out: Record<string, unknown> = {};
  // Fields that name a record are always sent, optional or not.
  for (const [key, field] of Object.entries(properties)) {
    const type = schemaType(field);
    const id = type ? idFor(key, ids, type) : undefined;
    if (id !== undefined && typeof id === type) out[key] = id;
  }
  for (const [key, inner] of Object.entries(value)) {
    const type = typeof inner === 'number' ? 'number' : typeof inner === 'string' ? 'string' : undefined;
    const id = type ? idFor(key, ids, schemaType(properties[key]) ?? type) : undefined;
    out[key] = id !== undefined && typeof id === typeof inner ? id : withIds(inner, properties[key], ids);
  }
  return out;
}

/** A value fitting the schema, the same for the same seed. */
export function sample(schema: JsonSchema, seed: number): unknown {
  return generateSync(schema, { seed, maxLength: 24, maxItems: 3, optionalsProbability: 0.5 });
}

export function jsonBodySchema(operation: Operation | undefined): JsonSchema | undefined {
  return operation?.requestBody?.content?.['application/json']?.schema;
}

/** The route's path with these values for its parameters. */
export function pathOf(url: string, value: (name: string) => string | number): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(String(value(name))));
}

/** A one-pixel PNG, the file of an upload. */
export const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from(
    '0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4f70000000049454e44ae426082',
    'hex',
  ),
]);

/** A multipart form of these fields and a file. */
export function multipart(fields: Record<string, string>, file: { name: string; type: string; content: Buffer }) {
  const boundary = 'sluice-suite-boundary';
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(parts.join('') + head), file.content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/**
 * A request to the route fitting its schema (the same for the same seed), with `ids` wherever a
 * path parameter, query parameter or body field names a record. A route whose document gives no
 * query parameters gets `id` and `Id`; one that takes a body the document does not describe gets
 * `{ Id }`, or, as `upload`, a multipart form with a PNG and id fields.
 */
export function requestFor(route: ApiRoute, ids: Ids, seed: number, upload = false): InjectOptions {
  const parameters = route.operation?.parameters ?? [];
  const url = pathOf(route.url, (name) => {
    if (SEGMENTS[name]) return SEGMENTS[name];
    const id = idFor(name, ids, 'string');
    return id ?? ids.id;
  });
  const query: Record<string, string> = {};
  const queried = parameters.filter((p) => p.in === 'query');
  if (queried.length === 0) Object.assign(query, { id: String(ids.id), Id: String(ids.id) });
  for (const [i, parameter] of queried.entries()) {
    const id = idFor(parameter.name, ids, schemaType(parameter.schema) ?? 'string');
    if (id !== undefined) query[parameter.name] = String(id);
    else if (parameter.required && parameter.schema) query[parameter.name] = String(sample(parameter.schema, seed + i));
  }
  const schema = jsonBodySchema(route.operation);
  const takesBody = route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH';
  if (upload) {
    const id = String(ids.id);
    return {
      method: route.method,
      url,
      query,
      ...multipart({ Id: id, TypeId: id, TempId: id }, { name: 'a.png', type: 'image/png', content: PNG }),
    };
  }
  const payload = schema ? withIds(sample(schema, seed), schema, ids) : takesBody ? { Id: ids.id } : undefined;
  return {
    method: route.method,
    url,
    query,
    ...(payload === undefined ? {} : { payload: payload as object }),
  };
}

/** Whether an answer says the call wants an uploaded file (so it is an upload route). */
export const wantsFile = (res: { statusCode: number; body: string }) =>
  res.statusCode === 400 && res.body.includes('"field":"file"');
