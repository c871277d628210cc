/**
 * The console and the server agree: every call the console makes (its resource definitions and
 * every api file) is an operation of the server's OpenAPI document, with that method and path;
 * every field of a resource form is a field of the shared schema its rules come from (a field
 * the schema does not have would silently go unchecked).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TYPE_PART_KEYS, typePart, typePartPath } from '@sluice/shared/device-type-parts';
import { objectShape } from '@sluice/shared/schema-shape';
import { createTestApp, type TestApp } from './harness.ts';
import { ANY, consoleCalls, consoleForms, type ConsoleForm, type SchemaRef } from './console-source.ts';

type Operations = Map<string, string[][]>;

/** The operations of the OpenAPI document by method, each path as its segments under /api. */
function operationsOf(doc: { paths: Record<string, Record<string, unknown>> }): Operations {
  const operations: Operations = new Map();
  for (const [url, methods] of Object.entries(doc.paths)) {
    if (!url.toLowerCase().startsWith('/api/')) continue;
    for (const method of Object.keys(methods)) {
      const list = operations.get(method.toUpperCase()) ?? [];
      list.push(url.slice('/api'.length).split('/'));
      operations.set(method.toUpperCase(), list);
    }
  }
  return operations;
}

const isParameter = (segment: string) => /^\{\w+\}$/.test(segment);

/**
 * Whether a console call has an operation: the same number of segments, a word where the server
 * has that word (paths are case-insensitive), a value where it has a parameter.
 */
function hasOperation(operations: Operations, method: string, path: string): boolean {
  const segments = path.replace(/\/$/, '').split('/');
  return (operations.get(method) ?? []).some(
    (operation) =>
      operation.length === segments.length &&
      operation.every((part, index) => {
        const mine = segments[index] ?? '';
        return isParameter(part) ? mine === ANY : !mine.includes(ANY) && mine.toLowerCase() === part.toLowerCase();
      }),
  );
}

describe('the console’s calls', () => {
  let t: TestApp;
  let operations: Operations;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    operations = operationsOf(t.app.swagger() as { paths: Record<string, Record<string, unknown>> });
  });
  afterAll(async () => {
    await t.close();
  });

  it('are read whole from the console’s source', () => {
    const { calls, unreadable } = consoleCalls();
    expect(unreadable).toEqual([]);
    // Every feature's api file and the resource definitions: well over a hundred calls.
    expect(calls.length).toBeGreaterThan(100);
    expect(calls).toContainEqual(expect.objectContaining({ method: 'POST', path: '/Client/Add' }));
    expect(calls).toContainEqual(expect.objectContaining({ method: 'GET', path: `/${ANY}/Device/MyDevice` }));
  });

  it('each have an operation of that method and path in the OpenAPI document', () => {
    const missing = consoleCalls()
      .calls.filter((call) => !hasOperation(operations, call.method, call.path))
      .map((call) => `${call.method} ${call.path.replaceAll(ANY, '{…}')} (${call.where})`);
    expect(missing).toEqual([]);
  });

  it('include the calls of every device-type part, as the console derives them from their description', () => {
    const missing: string[] = [];
    for (const key of TYPE_PART_KEYS) {
      const base = typePartPath(key).replace(/\{\w+\}/g, ANY);
      const calls = [`GET ${base}`, `POST ${base}`, `PUT ${base}`, `DELETE ${base}/${ANY}`];
      if (typePart(key).order) calls.push(`PUT ${base}/Sort`);
      for (const call of calls) {
        const [method = '', path = ''] = call.split(' ');
        if (!hasOperation(operations, method, path)) missing.push(`${key}: ${call.replaceAll(ANY, '{…}')}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('would notice a misspelled or misplaced call', () => {
    expect(hasOperation(operations, 'POST', '/Client/Add')).toBe(true);
    expect(hasOperation(operations, 'post', '/client/add')).toBe(false); // methods are upper case here
    expect(hasOperation(operations, 'POST', '/Client/Ad')).toBe(false);
    expect(hasOperation(operations, 'GET', '/Client/Add')).toBe(false);
    expect(hasOperation(operations, 'GET', `/${ANY}/Device/MyDevice`)).toBe(true);
    expect(hasOperation(operations, 'GET', '/1/Device/MyDevice')).toBe(false);
    expect(hasOperation(operations, 'GET', `/${ANY}/Device/MyDevice/${ANY}`)).toBe(false);
  });
});

/** The field names of a shared schema, read as the console's forms read them. */
async function fieldNames(ref: SchemaRef): Promise<string[] | undefined> {
  const module = (await import(ref.module)) as Record<string, unknown>;
  const shape = objectShape(module[ref.name]);
  return shape && Object.keys(shape);
}

/** What is wrong with a form: fields its dialog checks that its schema does not have. */
async function formProblems(form: ConsoleForm): Promise<string[]> {
  const problems: string[] = [];
  const schemas = { create: form.createSchema, edit: form.updateSchema };
  for (const mode of ['create', 'edit'] as const) {
    const names = await fieldNames(schemas[mode]);
    if (!names) {
      problems.push(`${schemas[mode].module} ${schemas[mode].name} is not an object schema (${form.where})`);
      continue;
    }
    for (const field of form.fields) {
      if (field.ownRules || !field.modes.includes(mode) || names.includes(field.name)) continue;
      if (mode === 'edit' && field.readOnlyInEdit) continue;
      problems.push(`${field.name} is not a field of ${schemas[mode].name} (${field.where})`);
    }
  }
  return problems;
}

describe('the console’s resource forms', () => {
  it('are read whole from the console’s source', () => {
    const { forms, unreadable } = consoleForms();
    expect(unreadable).toEqual([]);
    expect(forms.length).toBeGreaterThan(30);
    const users = forms.find((form) => form.createSchema.name === 'addUserRequest');
    expect(users?.fields).toContainEqual(expect.objectContaining({ name: 'Password', modes: ['create'], ownRules: false }));
    expect(users?.fields).toContainEqual(expect.objectContaining({ name: 'PasswordAgain', ownRules: true }));
  });

  it('name only fields of their shared schemas, or bring their own rules', async () => {
    const problems = (await Promise.all(consoleForms().forms.map(formProblems))).flat();
    expect(problems).toEqual([]);
  });

  it('would notice a misspelled field', async () => {
    const schema = { module: '@sluice/shared/client.schema', name: 'addClientRequest' };
    const form = (name: string, more = {}): ConsoleForm => ({
      createSchema: schema,
      updateSchema: { ...schema, name: 'updateClientRequest' },
      fields: [{ name, modes: ['create', 'edit'], ownRules: false, readOnlyInEdit: false, where: 'here', ...more }],
      where: 'here',
    });
    expect(await formProblems(form('ClientName'))).toEqual([]);
    expect(await formProblems(form('ClientNmae'))).toEqual([
      'ClientNmae is not a field of addClientRequest (here)',
      'ClientNmae is not a field of updateClientRequest (here)',
    ]);
    expect(await formProblems(form('ClientNmae', { ownRules: true }))).toEqual([]);
  });
});
