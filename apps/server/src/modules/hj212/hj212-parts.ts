/**
 * Split uploads (HJ 212-2017 6.3.3): a logger whose data does not fit one packet sends it as
 * PNUM parts numbered PNO 1…PNUM under one QN, Flag's D bit set, each a whole packet whose CP
 * holds some of the data. Loggers put DataTime in every part, or only in the first; some spread
 * one pollutant's fields over two parts (its value in one, its flag in the next).
 *
 * Each part is stored in the database as it arrives (hj212_split_parts) and answered once
 * stored: a logger that waits for each part's answer goes on, and nothing answered is held only
 * in memory. When the last part is in, the parts are joined (`joinParts`) into one upload per
 * DataTime, read as one packet, so a pollutant's fields join whichever part brought them. A
 * split left open (a part that never came) is joined with the parts that came once it has been
 * quiet for SPLIT_OPEN_MS.
 */
import { HJ212_FLAG_SPLIT, cpValue, type Hj212CpField, type Hj212Packet, type Hj212Parsed } from '@sluice/shared/hj212';
import type { SplitPart } from './hj212.repository.ts';

/** How long a split may wait for its other parts before what came of it is joined. */
export const SPLIT_OPEN_MS = 10 * 60_000;

/** Whether a packet is a part of a split (its PNUM and PNO), a whole packet (undefined), or why it is refused. */
export function partOf(packet: Hj212Packet): Hj212Parsed<{ pnum: number; pno: number } | undefined> {
  const { pnum, pno } = packet;
  if (pnum === undefined && pno === undefined) {
    if (packet.flag !== undefined && (packet.flag & HJ212_FLAG_SPLIT) !== 0) {
      return { ok: false, kind: 'field', reason: 'Flag says the packet is a part, but PNUM and PNO are missing' };
    }
    return { ok: true, value: undefined };
  }
  if (pnum === undefined || pno === undefined) return { ok: false, kind: 'field', reason: 'PNUM and PNO come together' };
  if (pno < 1 || pno > pnum)
    return { ok: false, kind: 'field', reason: `PNO ${String(pno)} is not from 1 to PNUM ${String(pnum)}` };
  return { ok: true, value: { pnum, pno } };
}

/** A part's CP fields as stored. */
export const cpPairs = (packet: Pick<Hj212Packet, 'cp'>): [string, string][] => packet.cp.map((f) => [f.key, f.value]);

/** Whether every part of a split (1…PNUM) is in. */
export function splitComplete(parts: SplitPart[]): boolean {
  const pnum = Math.max(0, ...parts.map((p) => p.pnum));
  return pnum > 0 && new Set(parts.map((p) => p.pno)).size >= pnum;
}

/** The parts of a split (PNUM) that never came. */
export function missingParts(parts: SplitPart[]): number[] {
  const pnum = Math.max(0, ...parts.map((p) => p.pnum));
  const seen = new Set(parts.map((p) => p.pno));
  return Array.from({ length: pnum }, (_, i) => i + 1).filter((n) => !seen.has(n));
}

export interface JoinedUpload {
  /** Undefined for parts before any DataTime (their first part never came). */
  dataTime: string | undefined;
  /** The joined packet: the split's CN and every field of its parts, in order. */
  packet: Pick<Hj212Packet, 'cn' | 'cp'>;
  /** The PNOs joined. */
  parts: number[];
}

/** The parts (by PNO) joined into one upload per DataTime: a part without DataTime takes the one before it. */
export function joinParts(parts: SplitPart[]): JoinedUpload[] {
  const joined = new Map<string, JoinedUpload>();
  let dataTime: string | undefined;
  for (const part of [...parts].sort((a, b) => a.pno - b.pno)) {
    const fields: Hj212CpField[] = part.cp.map(([key, value]) => ({ key, value, group: 0 }));
    dataTime = cpValue({ cp: fields }, 'DataTime') ?? dataTime;
    const key = dataTime ?? '';
    let upload = joined.get(key);
    if (!upload) {
      upload = { dataTime, packet: { cn: part.cn, cp: [] }, parts: [] };
      joined.set(key, upload);
    }
    upload.packet.cp.push(...fields.filter((f) => f.key !== 'DataTime'));
    upload.parts.push(part.pno);
  }
  return [...joined.values()];
}
