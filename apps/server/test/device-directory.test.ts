/** The live directory's lookups: devices and definitions asked for together are read together, each device once. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import { createTestApp, databaseKinds, type TestApp } from './harness.ts';
import { buildDevice, buildType, unique } from './factories.ts';
import { DeviceDirectory } from '../src/modules/telemetry/device-directory.ts';

describe.each(databaseKinds)('device directory on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers devices asked for in the same turn with one query, and the same device asked twice with it', async () => {
    const { db } = t.app.ctx;
    const type = await buildType(db, { groupId: 1, points: [{ key: unique('Lvl') }, { key: unique('Flow') }] });
    const devices = await Promise.all(
      Array.from({ length: 3 }, (_, i) =>
        buildDevice(t.app.ctx, { groupId: 1, sn: unique(`DD${String(i)}`).slice(0, 12), typeId: type.id }),
      ),
    );
    let queries = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        queries += 1;
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    };
    const directory = new DeviceDirectory(db.withPlugin(counting));
    const [first, second, third, firstAgain, unknown] = await Promise.all([
      ...devices.map((d) => directory.device(d.sn)),
      directory.device(devices[0]?.sn ?? ''),
      directory.device('NOSUCHDEV001'),
    ]);
    expect(queries).toBe(1);
    expect([first?.deviceSn, second?.deviceSn, third?.deviceSn]).toEqual(devices.map((d) => d.sn));
    expect(first?.typeId).toBe(type.id);
    expect(firstAgain).toBe(first);
    expect(unknown).toBeUndefined();
    expect((await directory.credential(devices[1]?.sn ?? ''))?.device).toBe(second);
    expect(queries).toBe(1);

    // Definitions: the devices' own data points in one query, their type's in one more.
    queries = 0;
    const known = [first, second, third].flatMap((d) => (d ? [d] : []));
    const definitions = await Promise.all(known.map((d) => directory.definitionsOf(d)));
    expect(queries).toBe(2);
    expect(definitions.map((d) => [...d.byKey.keys()].sort())).toEqual(
      Array.from({ length: 3 }, () => [...(definitions[0]?.byKey.keys() ?? [])].sort()),
    );
    expect(definitions[0]?.byKey.size).toBe(2);
  });
});
