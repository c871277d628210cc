/** reusableQuery: compiled once per database, run again with other values in their places. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, type TestApp } from './harness.ts';
import { buildClient } from './factories.ts';
import { reusableQuery } from '../src/db/reusable-query.ts';

describe.each(databaseKinds)('reusableQuery on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers as the query built anew would, for every value and in every place, keeping the values it was built with', async () => {
    const { db } = t.app.ctx;
    for (const name of ['Alpha', 'Beta', 'Gamma']) await buildClient(db, { groupId: 1, name });
    const other = await buildClient(db, { groupId: 1, name: 'Alpha' });
    const named = reusableQuery((d, name: string, notId: number) =>
      d
        .selectFrom('clients')
        .select(['id', 'client_name'])
        .where('client_name', '=', name)
        .where('id', '<>', notId)
        .where('group_id', '=', 1)
        .orderBy('id'),
    );
    const fresh = (name: string, notId: number) =>
      db
        .selectFrom('clients')
        .select(['id', 'client_name'])
        .where('client_name', '=', name)
        .where('id', '<>', notId)
        .where('group_id', '=', 1)
        .orderBy('id')
        .execute();
    for (const [name, notId] of [
      ['Alpha', other],
      ['Alpha', -1],
      ['Beta', -1],
      ['Nobody', -1],
    ] as const) {
      expect(await named(db, name, notId)).toEqual(await fresh(name, notId));
    }
    expect((await named(db, 'Alpha', -1)).length).toBe(2);
    expect(await named(db, 'Alpha', other)).not.toContainEqual(expect.objectContaining({ id: other }));
  });
});
