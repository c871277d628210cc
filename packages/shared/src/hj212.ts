/**
 * HJ 212-2017 (data transmission standard for pollutant online monitoring systems): the
 * packet codec. A packet is `##`, the data segment's length in four decimal digits, the data
 * segment, its CRC in four hex digits and CR LF:
 *
 *   ##0101QN=20160801085857223;ST=32;CN=1062;PW=100000;MN=010000A8900016F000169DC0;Flag=5;CP=&&RtdInterval=30&&1C80\r\n
 *
 * The data segment is `QN=…;ST=…;CN=…;PW=…;MN=…;Flag=…;[PNUM=…;PNO=…;]CP=&&…&&`; inside CP,
 * fields are `key=value`, separated by `;` between groups and `,` within one pollutant's
 * group (`DataTime=20260122103000;w01018-Rtd=28.6,w01018-Flag=N;w21003-Rtd=1.2,w21003-Flag=N`).
 * Pure functions, no I/O: the server's listener and forwarder and the simulator share them.
 */

/** Commands (CN) Sluice reads and writes. */
export const HJ212_CN = {
  /** The platform sets the logger's clock (SystemTime). */
  setTime: '1012',
  /** A logger asks for its clock to be set (a notification). */
  timeCalibration: '1013',
  realtime: '2011',
  minute: '2051',
  hourly: '2061',
  daily: '2031',
  /** A reply to a request: QnRtn. */
  requestAnswer: '9011',
  /** The result of executing a request: ExeRtn. */
  executeResult: '9012',
  /** The answer to a notification whose Flag asked for one. */
  notificationAnswer: '9013',
  /** The answer to an upload whose Flag asked for one. */
  dataAnswer: '9014',
  /** Heartbeat (keep-alive) from a data logger. */
  heartbeat: '9015',
} as const;

/** The four uploads of monitoring data, by CN. */
export const HJ212_DATA_KINDS = ['realtime', 'minute', 'hourly', 'daily'] as const;
export type Hj212DataKind = (typeof HJ212_DATA_KINDS)[number];
export const HJ212_KIND_OF_CN: Record<string, Hj212DataKind> = {
  [HJ212_CN.realtime]: 'realtime',
  [HJ212_CN.minute]: 'minute',
  [HJ212_CN.hourly]: 'hourly',
  [HJ212_CN.daily]: 'daily',
};

/**
 * QnRtn of a request answer (9011): the request will be carried out, or why not. ExeRtn of an
 * execution result (9012): how it went (`noData`: nothing in the asked range).
 */
export const HJ212_QN_RTN = { ready: '1', refused: '2', password: '3', mn: '4', unknown: '100' } as const;
export const HJ212_EXE_RTN = { done: '1', failed: '2', badCondition: '3', noData: '100' } as const;

/** System code (ST) of surface-water pollution sources (the stations' effluent); 91 is system interaction. */
export const HJ212_ST_WATER = '32';
export const HJ212_ST_SYSTEM = '91';

/**
 * The data flags of the 2017 standard (table 5 / 6.6.4). N is normal; S is a value entered by
 * hand, T over the instrument's upper limit. The others mark a reading taken while the
 * instrument was stopped, maintained, faulty, calibrated or cut off: such readings are kept but
 * do not count as valid monitoring data (HJ 355/356's rule for averages and compliance).
 */
export const HJ212_FLAGS = ['N', 'F', 'M', 'S', 'D', 'C', 'T', 'B'] as const;
export type Hj212Flag = (typeof HJ212_FLAGS)[number];
export const HJ212_VALID_FLAGS: readonly string[] = ['N', 'T'];

/** Value suffixes of a pollutant's group in CP. */
export const HJ212_VALUE_SUFFIXES = ['Rtd', 'Avg', 'Min', 'Max', 'Cou', 'Flag'] as const;
export type Hj212ValueSuffix = (typeof HJ212_VALUE_SUFFIXES)[number];

/** The standard's largest data segment (6.3.1); longer data is split into packets (PNUM/PNO). */
export const HJ212_MAX_DATA_LENGTH = 1024;

/** Flag bits: A (bit 0) asks for an answer, D (bit 1) says PNUM and PNO follow; version 2017 is 1 in bits 2–7. */
export const HJ212_FLAG_ANSWER = 1;
export const HJ212_FLAG_SPLIT = 2;
export const HJ212_FLAG_V2017 = 4;

/**
 * The CRC of HJ 212 (appendix A): CRC-16 with the reflected polynomial 0xA001 and initial
 * value 0xFFFF, where each byte is XORed into the register after it is shifted right by 8
 * (not into its low byte as Modbus does). Over the data segment's bytes only.
 */
export function hj212Crc(bytes: ArrayLike<number>): number {
  let crc = 0xffff;
  for (let i = 0; i < bytes.length; i++) {
    crc = (crc >>> 8) ^ ((bytes[i] ?? 0) & 0xff);
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

export function hj212CrcHex(dataSegment: string): string {
  return hj212Crc(asciiBytes(dataSegment)).toString(16).toUpperCase().padStart(4, '0');
}

/** The bytes of packet text read as latin1 (one character per byte, as the listener decodes a stream). */
function asciiBytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  return bytes;
}

/** One `key=value` of CP, in the order sent; `group` counts the `;`-separated groups. */
export interface Hj212CpField {
  key: string;
  value: string;
  group: number;
}

export interface Hj212Packet {
  qn: string | undefined;
  st: string | undefined;
  cn: string;
  pw: string | undefined;
  mn: string;
  flag: number | undefined;
  pnum: number | undefined;
  pno: number | undefined;
  cp: Hj212CpField[];
}

/** Why a packet was refused, by kind (counted per kind), and a sentence. */
export type Hj212ProblemKind = 'header' | 'length' | 'crc' | 'format' | 'field';
export interface Hj212Problem {
  kind: Hj212ProblemKind;
  reason: string;
}
export type Hj212Parsed<T> = { ok: true; value: T } | ({ ok: false } & Hj212Problem);

const fail = (kind: Hj212ProblemKind, reason: string): { ok: false } & Hj212Problem => ({ ok: false, kind, reason });

const HEADER_KEYS = ['QN', 'ST', 'CN', 'PW', 'MN', 'Flag', 'PNUM', 'PNO'];
/** What a field's text may hold: printable ASCII without the separators. */
const FIELD_TEXT = /^[\x21-\x7e]*$/;

/** Parses one whole packet (with or without its CR LF). */
export function parseHj212Packet(text: string): Hj212Parsed<Hj212Packet> {
  const packet = text.endsWith('\r\n') ? text.slice(0, -2) : text;
  if (!packet.startsWith('##')) return fail('header', 'the packet does not start with ##');
  const lengthField = packet.slice(2, 6);
  if (!/^\d{4}$/.test(lengthField)) return fail('length', `the length field '${lengthField}' is not four digits`);
  if (packet.length < 10) return fail('length', 'the packet is shorter than its header and CRC');
  const length = Number(lengthField);
  const data = packet.slice(6, packet.length - 4);
  const crcField = packet.slice(packet.length - 4);
  if (data.length !== length) {
    return fail('length', `the length field says ${String(length)} but the data segment has ${String(data.length)}`);
  }
  if (!/^[0-9A-Fa-f]{4}$/.test(crcField)) return fail('crc', `the CRC field '${crcField}' is not four hex digits`);
  const crc = hj212CrcHex(data);
  if (crc !== crcField.toUpperCase()) return fail('crc', `CRC mismatch: the packet says ${crcField}, its data gives ${crc}`);
  return parseHj212Data(data);
}

/** Parses a data segment (`QN=…;…;CP=&&…&&`). */
export function parseHj212Data(data: string): Hj212Parsed<Hj212Packet> {
  const cpAt = data.indexOf('CP=&&');
  if (cpAt < 0) return fail('format', 'the data segment has no CP=&&…&&');
  if (!data.endsWith('&&') || data.length < cpAt + 7) return fail('format', 'CP does not end with &&');
  const head = data.slice(0, cpAt);
  if (head !== '' && !head.endsWith(';')) return fail('format', 'the field before CP does not end with ;');
  const fields = new Map<string, string>();
  for (const part of head.split(';').slice(0, -1)) {
    const eq = part.indexOf('=');
    if (eq <= 0) return fail('format', `'${part.slice(0, 40)}' is not key=value`);
    const key = part.slice(0, eq);
    const value = part.slice(eq + 1);
    if (!HEADER_KEYS.includes(key)) return fail('field', `unknown field ${key.slice(0, 20)}`);
    if (fields.has(key)) return fail('field', `${key} appears twice`);
    if (!FIELD_TEXT.test(value)) return fail('field', `${key} holds characters it may not`);
    fields.set(key, value);
  }
  const cp = parseCp(data.slice(cpAt + 5, -2));
  if (!cp.ok) return cp;
  const qn = fields.get('QN');
  if (qn !== undefined && !/^\d{17}$/.test(qn)) return fail('field', 'QN is not 17 digits (yyyyMMddHHmmssSSS)');
  const st = fields.get('ST');
  if (st !== undefined && !/^\d{2}$/.test(st)) return fail('field', 'ST is not two digits');
  const cn = fields.get('CN');
  if (cn === undefined) return fail('field', 'no CN');
  if (!/^\d{4}$/.test(cn)) return fail('field', 'CN is not four digits');
  const mn = fields.get('MN');
  if (mn === undefined || mn === '') return fail('field', 'no MN');
  if (!/^[0-9A-Za-z]{1,24}$/.test(mn)) return fail('field', 'MN is not 1–24 letters and digits');
  const pw = fields.get('PW');
  if (pw !== undefined && pw.length > 32) return fail('field', 'PW is longer than 32 characters');
  const number = (key: string, max: number): Hj212Parsed<number | undefined> => {
    const v = fields.get(key);
    if (v === undefined) return { ok: true, value: undefined };
    if (!/^\d{1,4}$/.test(v) || Number(v) > max) return fail('field', `${key} is not a number from 0 to ${String(max)}`);
    return { ok: true, value: Number(v) };
  };
  const flag = number('Flag', 255);
  if (!flag.ok) return flag;
  const pnum = number('PNUM', 9999);
  if (!pnum.ok) return pnum;
  const pno = number('PNO', 9999);
  if (!pno.ok) return pno;
  return {
    ok: true,
    value: { qn, st, cn, pw, mn, flag: flag.value, pnum: pnum.value, pno: pno.value, cp: cp.value },
  };
}

function parseCp(content: string): Hj212Parsed<Hj212CpField[]> {
  const fields: Hj212CpField[] = [];
  if (content === '') return { ok: true, value: fields };
  const groups = content.split(';');
  for (let group = 0; group < groups.length; group++) {
    const text = groups[group] ?? '';
    if (text === '') continue;
    for (const part of text.split(',')) {
      const eq = part.indexOf('=');
      if (eq <= 0) return fail('format', `CP's '${part.slice(0, 40)}' is not key=value`);
      const key = part.slice(0, eq);
      const value = part.slice(eq + 1);
      if (!/^[0-9A-Za-z_-]{1,40}$/.test(key)) return fail('field', `CP's key '${key.slice(0, 40)}' is not a field name`);
      if (value.includes('&') || !FIELD_TEXT.test(value)) return fail('field', `CP's ${key} holds characters it may not`);
      fields.push({ key, value, group });
    }
  }
  return { ok: true, value: fields };
}

/** A CP field's value by key (the first), e.g. DataTime or QnRtn. */
export function cpValue(packet: Pick<Hj212Packet, 'cp'>, key: string): string | undefined {
  return packet.cp.find((f) => f.key === key)?.value;
}

/** A pollutant's values in one upload: `w01018-Rtd=28.6,w01018-Flag=N` → { Rtd: 28.6, Flag: 'N' }. */
export interface Hj212Reading {
  code: string;
  values: Partial<Record<Exclude<Hj212ValueSuffix, 'Flag'>, number>>;
  flag: string | undefined;
}

export interface Hj212Upload {
  kind: Hj212DataKind;
  /** DataTime as written (yyyyMMddHHmmss, the station's local time). */
  dataTime: string;
  readings: Hj212Reading[];
}

/**
 * The monitoring data of an upload packet (2011, 2051, 2061, 2031); any other CN is not one.
 * `dataTime` stands in for a DataTime the packet lacks: the parts of a split upload (PNUM/PNO)
 * joined, whose first part carried it.
 */
export function readHj212Upload(
  packet: Pick<Hj212Packet, 'cn' | 'cp'>,
  dataTime = cpValue(packet, 'DataTime'),
): Hj212Parsed<Hj212Upload> {
  const kind = HJ212_KIND_OF_CN[packet.cn];
  if (!kind) return fail('field', `CN ${packet.cn} is not a data upload`);
  if (dataTime === undefined) return fail('field', 'the upload has no DataTime');
  if (parseHj212Time(dataTime) === undefined) return fail('field', 'DataTime is not a time (yyyyMMddHHmmss)');
  const byCode = new Map<string, Hj212Reading>();
  for (const { key, value } of packet.cp) {
    if (key === 'DataTime') continue;
    const dash = key.lastIndexOf('-');
    const code = key.slice(0, dash);
    const suffix = key.slice(dash + 1);
    if (dash <= 0 || !isSuffix(suffix)) continue; // other fields (SampleTime, EFlag, -Info…) are not values
    const reading = byCode.get(code) ?? { code, values: {}, flag: undefined };
    byCode.set(code, reading);
    if (suffix === 'Flag') {
      if (value.length !== 1) return fail('field', `${key} is not a one-letter data flag`);
      reading.flag = value;
      continue;
    }
    if (!/^-?\d+(\.\d+)?$/.test(value)) return fail('field', `${key} is not a number`);
    reading.values[suffix] = Number(value);
  }
  return { ok: true, value: { kind, dataTime, readings: [...byCode.values()] } };
}

function isSuffix(suffix: string): suffix is Hj212ValueSuffix {
  return (HJ212_VALUE_SUFFIXES as readonly string[]).includes(suffix);
}

/** yyyyMMddHHmmss (or with SSS: a QN) in a zone `offsetMinutes` east of UTC → epoch ms; undefined when not a time. */
export function parseHj212Time(text: string, offsetMinutes = 480): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{3})?$/.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s, ms] = m.slice(1).map((v: string | undefined) => Number(v ?? 0));
  const utc = Date.UTC(y ?? 0, (mo ?? 1) - 1, d, h, mi, s, ms);
  const back = new Date(utc);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== (mo ?? 1) - 1 || back.getUTCDate() !== d) return undefined;
  if ((h ?? 0) > 23 || (mi ?? 0) > 59 || (s ?? 0) > 59) return undefined;
  return utc - offsetMinutes * 60_000;
}

/** Epoch ms → yyyyMMddHHmmss in a zone `offsetMinutes` east of UTC (with milliseconds: a QN). */
export function formatHj212Time(ms: number, offsetMinutes = 480, withMillis = false): string {
  const d = new Date(ms + offsetMinutes * 60_000);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const text = `${p(d.getUTCFullYear(), 4)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
  return withMillis ? `${text}${p(d.getUTCMilliseconds(), 3)}` : text;
}

export interface Hj212PacketInput {
  qn?: string;
  st?: string;
  cn: string;
  pw?: string;
  mn: string;
  flag?: number;
  pnum?: number;
  pno?: number;
  /** CP's groups in order, each a list of [key, value] joined by `,`; groups joined by `;`. */
  cp: [string, string][][];
}

/** The data segment of a packet, fields in the standard's order. */
export function buildHj212Data(input: Hj212PacketInput): string {
  const head: string[] = [];
  if (input.qn !== undefined) head.push(`QN=${input.qn}`);
  if (input.st !== undefined) head.push(`ST=${input.st}`);
  head.push(`CN=${input.cn}`);
  if (input.pw !== undefined) head.push(`PW=${input.pw}`);
  head.push(`MN=${input.mn}`);
  if (input.flag !== undefined) head.push(`Flag=${String(input.flag)}`);
  if (input.pnum !== undefined) head.push(`PNUM=${String(input.pnum)}`);
  if (input.pno !== undefined) head.push(`PNO=${String(input.pno)}`);
  const cp = input.cp.map((group) => group.map(([k, v]) => `${k}=${v}`).join(',')).join(';');
  return `${head.join(';')};CP=&&${cp}&&`;
}

/** A whole packet: `##`, length, data segment, CRC, CR LF. Throws when the data segment is longer than the standard allows. */
export function buildHj212Packet(input: Hj212PacketInput): string {
  const data = buildHj212Data(input);
  return frameHj212Data(data);
}

/**
 * The packets of one message (6.3.3): one packet when its data segment fits the standard's 1024
 * bytes; else CP's groups after the first (DataTime) are spread over parts in order, each part a
 * whole packet with the same QN and that first group, Flag's D bit set, PNUM the number of parts
 * and PNO its own (from 1). Pollutants are never cut: a group is whole in one part. Throws when
 * one group alone does not fit.
 */
export function buildHj212Packets(input: Hj212PacketInput, maxLength = HJ212_MAX_DATA_LENGTH): string[] {
  if (buildHj212Data(input).length <= maxLength) return [buildHj212Packet(input)];
  const [head = [], ...groups] = input.cp;
  const split = { ...input, flag: (input.flag ?? HJ212_FLAG_V2017) | HJ212_FLAG_SPLIT };
  // Measured with the widest PNUM and PNO, so that numbering the parts cannot push one over.
  const fits = (cp: [string, string][][]) => buildHj212Data({ ...split, pnum: 9999, pno: 9999, cp }).length <= maxLength;
  const parts: [string, string][][][] = [];
  let current: [string, string][][] = [head];
  for (const group of groups) {
    if (fits([...current, group])) {
      current.push(group);
      continue;
    }
    if (current.length === 1) throw new RangeError(`An HJ 212 group does not fit in ${String(maxLength)} bytes`);
    parts.push(current);
    current = [head, group];
    if (!fits(current)) throw new RangeError(`An HJ 212 group does not fit in ${String(maxLength)} bytes`);
  }
  parts.push(current);
  return parts.map((cp, i) => buildHj212Packet({ ...split, pnum: parts.length, pno: i + 1, cp }));
}

export function frameHj212Data(data: string): string {
  const length = data.length;
  if (length > HJ212_MAX_DATA_LENGTH) {
    throw new RangeError(`An HJ 212 data segment is at most ${String(HJ212_MAX_DATA_LENGTH)} bytes (${String(length)})`);
  }
  return `##${String(length).padStart(4, '0')}${data}${hj212CrcHex(data)}\r\n`;
}

/** A reply to a packet: its QN, PW and MN, ST 91 (system interaction), no answer asked. */
export function hj212Reply(to: Pick<Hj212Packet, 'qn' | 'pw' | 'mn'>, cn: string, cp: [string, string][][] = []): string {
  return buildHj212Packet({ qn: to.qn, st: HJ212_ST_SYSTEM, cn, pw: to.pw, mn: to.mn, flag: HJ212_FLAG_V2017, cp });
}

/** The answer to an upload whose Flag asked for one (9014, same QN; `CP=&&&&`). */
export function hj212DataAnswer(packet: Pick<Hj212Packet, 'qn' | 'pw' | 'mn'>): string {
  return hj212Reply(packet, HJ212_CN.dataAnswer);
}

/**
 * The CN that answers a packet whose Flag asks for one: uploads of data (2xxx) get a data answer
 * (9014), notifications and other packets a notification answer (9013); answers (9011–9014) are
 * never answered.
 */
export function hj212AnswerCn(cn: string): string | undefined {
  if (/^901[1-4]$/.test(cn)) return undefined;
  return cn.startsWith('2') ? HJ212_CN.dataAnswer : HJ212_CN.notificationAnswer;
}

/** Whether a packet's Flag asks for an answer (bit A). */
export function wantsAnswer(packet: Pick<Hj212Packet, 'flag'>): boolean {
  return packet.flag !== undefined && (packet.flag & HJ212_FLAG_ANSWER) !== 0;
}

/**
 * Splits a TCP byte stream into packets. Bytes before a `##` are skipped (and reported once);
 * a packet is complete at its declared length plus CRC and CR LF. A declared length that is not
 * four digits, or that exceeds `maxLength`, or a packet not closed by CR LF, is reported and
 * the stream resynchronises at the next `##`. At most `maxBuffered` bytes are held while
 * waiting for the rest of a packet.
 */
export class Hj212Framer {
  private buffer = '';
  private readonly maxLength: number;

  constructor(maxLength = 9999) {
    this.maxLength = maxLength;
  }

  /** Feeds text received; returns whole packets (as text) and problems, in order. */
  push(chunk: string): ({ ok: true; packet: string } | ({ ok: false } & Hj212Problem))[] {
    this.buffer += chunk;
    const out: ({ ok: true; packet: string } | ({ ok: false } & Hj212Problem))[] = [];
    for (;;) {
      const start = this.buffer.indexOf('##');
      if (start < 0) {
        // Keep a trailing '#' that may start the next header; everything else is noise.
        const keep = this.buffer.endsWith('#') ? 1 : 0;
        if (this.buffer.length - keep > 0 && this.buffer.slice(0, this.buffer.length - keep).trim() !== '') {
          out.push(fail('header', 'bytes outside a packet (no ##)'));
        }
        this.buffer = this.buffer.slice(this.buffer.length - keep);
        return out;
      }
      if (start > 0) {
        if (this.buffer.slice(0, start).trim() !== '') out.push(fail('header', 'bytes outside a packet (no ##)'));
        this.buffer = this.buffer.slice(start);
      }
      if (this.buffer.length < 6) return out;
      const lengthField = this.buffer.slice(2, 6);
      if (!/^\d{4}$/.test(lengthField) || Number(lengthField) > this.maxLength) {
        out.push(fail('length', `the length field '${lengthField}' is not four digits up to ${String(this.maxLength)}`));
        this.skipPacket();
        continue;
      }
      const total = 6 + Number(lengthField) + 4 + 2;
      // Lengths count bytes; the text here is latin1 (one character per byte), so they agree.
      if (this.buffer.length < total) {
        const next = this.buffer.indexOf('##', 2);
        // A header inside what should be this packet's data, then a CR LF: the length lied.
        if (next > 0 && this.buffer.lastIndexOf('\r\n', next) > 0) {
          out.push(fail('length', 'the packet ended before its declared length'));
          this.buffer = this.buffer.slice(next);
          continue;
        }
        return out;
      }
      const packet = this.buffer.slice(0, total);
      if (!packet.endsWith('\r\n')) {
        out.push(fail('length', 'the packet does not end with CR LF at its declared length'));
        this.skipPacket();
        continue;
      }
      this.buffer = this.buffer.slice(total);
      out.push({ ok: true, packet });
    }
  }

  /** Drops the bad packet at the start of the buffer: up to the next `##`, or all but a trailing '#'. */
  private skipPacket(): void {
    const next = this.buffer.indexOf('##', 2);
    if (next >= 0) this.buffer = this.buffer.slice(next);
    else this.buffer = this.buffer.endsWith('#') ? '#' : '';
  }

  /** Bytes held while waiting for the rest of a packet. */
  get pending(): number {
    return this.buffer.length;
  }
}
