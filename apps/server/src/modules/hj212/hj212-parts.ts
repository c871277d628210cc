/**
 * Split uploads (HJ 212-2017 6.3.3): a logger whose data does not fit one packet sends it as
 * PNUM parts numbered PNO 1…PNUM under one QN, Flag's D bit set, each a whole packet whose CP
 * holds some of the pollutants. Loggers put DataTime in every part, or only in the first.
 *
 * Each part is stored as it arrives and answered once stored, like any upload: a logger that
 * waits for each part's answer before the next goes on, and nothing answered is held only in
 * memory. The parts join again in storage — one DataTime's values are one record, whichever
 * part brought them (history is per data point and time; the latest values merge). What is
 * kept here is what a later part needs from an earlier one: the DataTime it left out.
 */
import { HJ212_FLAG_SPLIT, cpValue, type Hj212Packet, type Hj212Parsed } from '@sluice/shared/hj212';

interface Split {
  dataTime: string;
  pnum: number;
  seen: Set<number>;
  at: number;
}

/** How long a split upload's DataTime is kept for its later parts, and how many a logger may have open. */
const KEEP_MS = 10 * 60_000;
const MAX_OPEN = 32;

export class SplitParts {
  private readonly byLogger = new Map<string, Map<string, Split>>();

  /** The DataTime a packet is read with: its own, or for a later part its split's; or why the part is refused. */
  read(deviceSn: string, packet: Hj212Packet, now: number): Hj212Parsed<string | undefined> {
    const own = cpValue(packet, 'DataTime');
    const { pnum, pno } = packet;
    if (pnum === undefined && pno === undefined) {
      if (packet.flag !== undefined && (packet.flag & HJ212_FLAG_SPLIT) !== 0) {
        return { ok: false, kind: 'field', reason: 'Flag says the packet is a part, but PNUM and PNO are missing' };
      }
      return { ok: true, value: own };
    }
    if (pnum === undefined || pno === undefined) return { ok: false, kind: 'field', reason: 'PNUM and PNO come together' };
    if (pno < 1 || pno > pnum)
      return { ok: false, kind: 'field', reason: `PNO ${String(pno)} is not from 1 to PNUM ${String(pnum)}` };
    if (own !== undefined) return { ok: true, value: own };
    const split = this.open(deviceSn, now).get(keyOf(packet));
    if (split?.pnum === pnum) return { ok: true, value: split.dataTime };
    return {
      ok: false,
      kind: 'field',
      reason: `part ${String(pno)} of ${String(pnum)} has no DataTime, and no earlier part of QN ${packet.qn ?? '(none)'} gave one`,
    };
  }

  /** Notes a stored part; once every part of its split was stored, the split is forgotten. */
  stored(deviceSn: string, packet: Hj212Packet, dataTime: string, now: number): void {
    const { pnum, pno } = packet;
    if (pnum === undefined || pno === undefined) return;
    const open = this.open(deviceSn, now);
    const key = keyOf(packet);
    const split = open.get(key) ?? { dataTime, pnum, seen: new Set<number>(), at: now };
    // A part with a DataTime of its own sets it for the parts after it.
    split.dataTime = dataTime;
    split.seen.add(pno);
    split.at = now;
    open.delete(key);
    if (split.seen.size >= split.pnum) return;
    open.set(key, split);
    // The oldest split gives way when a logger has too many open (Map keeps insertion order).
    if (open.size > MAX_OPEN) open.delete(open.keys().next().value ?? '');
  }

  /** The logger's open splits, without those kept too long. */
  private open(deviceSn: string, now: number): Map<string, Split> {
    let open = this.byLogger.get(deviceSn);
    if (!open) {
      open = new Map();
      this.byLogger.set(deviceSn, open);
    }
    for (const [key, split] of open) if (now - split.at > KEEP_MS) open.delete(key);
    return open;
  }
}

const keyOf = (packet: Hj212Packet) => `${packet.cn}:${packet.qn ?? ''}`;
