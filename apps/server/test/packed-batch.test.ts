/** The batch packed for the SQLite writer's thread comes out as it went in. */
import { describe, expect, it } from 'vitest';
import { packBatch, transferables, unpackBatch } from '../src/modules/telemetry/packed-batch.ts';
import type { BatchPoint, LatestUpdate } from '../src/modules/telemetry/telemetry-write.repository.ts';

describe('packed batch', () => {
  it('keeps every point and latest record: numbers, no number, texts, undefined keys, several devices and groups', () => {
    const points: BatchPoint[] = [
      { groupId: 1, deviceSn: 'SL0000000001', key: 'Level', defined: true, ts: 1_764_000_000_123, num: 2.5, txt: null },
      { groupId: 1, deviceSn: 'SL0000000001', key: 'Mode', defined: true, ts: 1_764_000_000_123, num: null, txt: 'auto\ttab' },
      { groupId: 7, deviceSn: 'SL0000000002', key: 'Level', defined: false, ts: 1_764_000_010_000, num: -0.125, txt: null },
      { groupId: 7, deviceSn: 'SL0000000002', key: 'Odd', defined: false, ts: 1_764_000_010_000, num: 0, txt: '' },
    ];
    const latest: LatestUpdate[] = [
      { groupId: 1, deviceSn: 'SL0000000001', ts: 1_764_000_000_123, data: { Level: 2.5, Mode: 'auto\ttab' } },
      { groupId: 7, deviceSn: 'SL0000000002', ts: 1_764_000_010_000, data: {} },
      { groupId: 7, deviceSn: 'SL0000000003', ts: 1_764_000_010_001, data: { Odd: '' } },
    ];
    const packed = packBatch(points, latest);
    expect(packed.sns).toEqual(['SL0000000001', 'SL0000000002', 'SL0000000003']);
    expect(transferables(packed).every((b) => b instanceof ArrayBuffer)).toBe(true);
    expect(unpackBatch(structuredClone(packed))).toEqual({ points, latest });
  });

  it('packs an empty batch', () => {
    expect(unpackBatch(packBatch([], []))).toEqual({ points: [], latest: [] });
  });
});
