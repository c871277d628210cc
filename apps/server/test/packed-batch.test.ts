/** The batch packed for the SQLite writer's thread comes out as it went in. */
import { describe, expect, it } from 'vitest';
import { batchOf, type IngestMessage } from '../src/modules/telemetry/ingest-writer.ts';
import { packMessages, transferables, unpackMessages } from '../src/modules/telemetry/packed-batch.ts';

describe('packed batch', () => {
  it('keeps every message and point: numbers, no number, texts, undefined keys, several devices and groups', () => {
    const messages: IngestMessage[] = [
      {
        groupId: 1,
        deviceSn: 'SL0000000001',
        keys: ['Level', 'Mode', 'Level'],
        ts: [1_764_000_000_123, 1_764_000_000_123, 1_764_000_001_000],
        num: [2.5, NaN, 3],
        txt: [null, 'auto\ttab', null],
        defined: [1, 1, 1],
        bytes: 120,
      },
      {
        groupId: 7,
        deviceSn: 'SL0000000002',
        keys: ['Level', 'Odd'],
        ts: [1_764_000_010_000, 1_764_000_010_000],
        num: [-0.125, NaN],
        txt: [null, ''],
        defined: [0, 0],
        bytes: 80,
      },
      { groupId: 7, deviceSn: 'SL0000000003', keys: [], ts: [], num: [], txt: undefined, defined: [], bytes: 2 },
      {
        groupId: 1,
        deviceSn: 'SL0000000001',
        keys: ['Level'],
        ts: [1_764_000_000_500],
        num: [4],
        txt: undefined,
        defined: [1],
        bytes: 30,
      },
    ];
    const packed = packMessages(messages);
    expect(packed.keys).toEqual(['Level', 'Mode', 'Odd']);
    expect(transferables(packed).every((b) => b instanceof ArrayBuffer)).toBe(true);
    const unpacked = unpackMessages(structuredClone(packed));
    // What a message's payload weighed stays behind: the thread does not count it.
    expect(unpacked).toEqual(messages.map((m) => ({ ...m, bytes: 0 })));
    // The points and latest records the thread makes of them are those of the messages.
    expect(batchOf(unpacked)).toEqual(batchOf(messages));
    expect(batchOf(messages).latest).toEqual([
      { groupId: 1, deviceSn: 'SL0000000001', ts: 1_764_000_001_000, data: { Level: 3, Mode: 'auto\ttab' } },
      { groupId: 7, deviceSn: 'SL0000000002', ts: 1_764_000_010_000, data: { Level: -0.125, Odd: '' } },
    ]);
  });

  it('packs an empty batch', () => {
    expect(unpackMessages(packMessages([]))).toEqual([]);
  });
});
