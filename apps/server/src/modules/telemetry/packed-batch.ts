/**
 * A batch packed for the hop to the SQLite writer's thread: the messages' columns in typed
 * arrays (their buffers transferred, not copied), each data key once. Posting the batch as
 * points and latest records — an object of seven properties a point, a record of 50 values a
 * device — made postMessage's structured clone the largest cost left on the main thread (4 s of
 * a 60 s fleet run of 3,000 devices, 15,000 points/s, in a CPU profile); packing those objects
 * then cost the main thread more than the post (about 35 µs of 50 for a batch of three 50-point
 * messages). The messages are packed as they are, and the writer's thread makes the points and
 * latest records (batchOf, ingest-writer.ts).
 */
import type { IngestMessage } from './ingest-writer.ts';

export interface PackedBatch {
  /** Per message: its device, group, and where its points end. */
  sns: string[];
  group: Int32Array;
  end: Uint32Array;
  /** Data keys, each once; points refer to them by index. */
  keys: string[];
  /** Per point. */
  key: Uint32Array;
  ts: Float64Array;
  /** NaN when the point holds a text. */
  num: Float64Array;
  defined: Uint8Array;
  /** Texts of the points that have one, by point index. */
  txt: Record<number, string>;
}

export function packMessages(messages: IngestMessage[]): PackedBatch {
  let n = 0;
  for (const m of messages) n += m.keys.length;
  const keys: string[] = [];
  const keyIndex = new Map<string, number>();
  const packed: PackedBatch = {
    sns: messages.map((m) => m.deviceSn),
    group: new Int32Array(messages.length),
    end: new Uint32Array(messages.length),
    keys,
    key: new Uint32Array(n),
    ts: new Float64Array(n),
    num: new Float64Array(n),
    defined: new Uint8Array(n),
    txt: {},
  };
  let at = 0;
  for (const [i, m] of messages.entries()) {
    packed.group[i] = m.groupId;
    for (let j = 0; j < m.keys.length; j++, at++) {
      const key = m.keys[j] ?? '';
      let k = keyIndex.get(key);
      if (k === undefined) {
        k = keys.length;
        keys.push(key);
        keyIndex.set(key, k);
      }
      packed.key[at] = k;
      packed.ts[at] = m.ts[j] ?? 0;
      packed.num[at] = m.num[j] ?? NaN;
      packed.defined[at] = m.defined[j] ?? 0;
      const txt = m.txt?.[j];
      if (txt !== undefined && txt !== null) packed.txt[at] = txt;
    }
    packed.end[i] = at;
  }
  return packed;
}

/** The buffers to transfer with postMessage (the packed batch is not used after). */
export function transferables(packed: PackedBatch): ArrayBuffer[] {
  return [packed.group, packed.end, packed.key, packed.ts, packed.num, packed.defined].map((a) => a.buffer as ArrayBuffer);
}

export function unpackMessages(packed: PackedBatch): IngestMessage[] {
  const messages: IngestMessage[] = [];
  let start = 0;
  for (const [i, deviceSn] of packed.sns.entries()) {
    const end = packed.end[i] ?? start;
    const message: IngestMessage = {
      groupId: packed.group[i] ?? 0,
      deviceSn,
      keys: [],
      ts: Array.from(packed.ts.subarray(start, end)),
      num: Array.from(packed.num.subarray(start, end)),
      txt: undefined,
      defined: Array.from(packed.defined.subarray(start, end)),
      bytes: 0,
    };
    for (let j = start; j < end; j++) {
      message.keys.push(packed.keys[packed.key[j] ?? 0] ?? '');
      const txt = packed.txt[j];
      if (txt !== undefined) {
        message.txt ??= new Array<string | null>(end - start).fill(null);
        message.txt[j - start] = txt;
      }
    }
    messages.push(message);
    start = end;
  }
  return messages;
}
