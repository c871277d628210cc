import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  HJ212_FLAG_SPLIT,
  HJ212_MAX_DATA_LENGTH,
  Hj212Framer,
  buildHj212Data,
  buildHj212Packet,
  buildHj212Packets,
  cpValue,
  hj212AnswerCn,
  formatHj212Time,
  hj212Crc,
  hj212CrcHex,
  hj212DataAnswer,
  parseHj212Packet,
  parseHj212Time,
  readHj212Upload,
  wantsAnswer,
  type Hj212PacketInput,
} from './hj212.ts';

/** The standard's own example (HJ 212-2017, 6.3 and appendix): set the real-time interval to 30 s. */
const STANDARD_EXAMPLE =
  '##0101QN=20160801085857223;ST=32;CN=1062;PW=100000;MN=010000A8900016F000169DC0;Flag=5;CP=&&RtdInterval=30&&1C80\r\n';

const bytes = (text: string) => Array.from({ length: text.length }, (_, i) => text.charCodeAt(i));

describe('HJ 212 CRC', () => {
  it('is worked by hand for one byte', () => {
    // '1' = 0x31. Register 0xFFFF >> 8 = 0x00FF; XOR 0x31 = 0x00CE. Eight shifts (LSB out; 1 → XOR 0xA001):
    // CE→0067 (0), 0067→A032 (1), A032→5019 (0), 5019→880D (1), 880D→E407 (1), E407→D202 (1),
    // D202→6901 (0), 6901→9481 (1).
    expect(hj212Crc(bytes('1'))).toBe(0x9481);
    // An empty segment leaves the initial value.
    expect(hj212CrcHex('')).toBe('FFFF');
  });

  // Packets published with public HJ 212 implementations (their test data, not their code), each
  // with the length and CRC its sender wrote: a 2005-style minute upload without QN and Flag,
  // and 2017 real-time uploads.
  it.each([
    [
      '##0245ST=32;CN=2051;PW=123456;MN=12091200160055;CP=&&DataTime=20150430135700;B01-Min=895.13,B01-Avg=909.87,B01-Max=932.28,B01-Cou=54.59;011-Min=999.99,011-Avg=999.99,011-Max=999.99,011-Cou=54.59;060-Min=30.18,060-Avg=30.18,060-Max=30.18,060-Cou=1.65&&7640',
    ],
    [
      '##0240QN=20180703105956001;ST=31;CN=2011;PW=123456;MN=12345678901235;Flag=5;CP=&&DataTime=20180703105900;TEM-Rtd=34.3,TEM-Flag=N;RH-Rtd=43.5,RH-Flag=N;PA-Rtd=21.000,PA-Flag=N;WS-Rtd=1.5,WS-Flag=N;WD-Rtd=245,WD-Flag=N;TVOC-Rtd=0.0000,TVOC-Flag=N&&5500',
    ],
    [
      '##0325QN=20190816173300001;ST=43;CN=2011;PW=123456;MN=2019051703100020;Flag=5;CP=&&DataTime=20190816173300;a34004-Rtd=26.0,a34004-Flag=N;a34002-Rtd=27.0,a34002-Flag=N;LA-Rtd=0.0,LA-Flag=N;a01007-Rtd=0.0,a01007-Flag=N;a01008-Rtd=0.0,a01008-Flag=N;a01001-Rtd=26.0,a01001-Flag=N;H01-Rtd=52.7,H01-Flag=N;a01006-Rtd=50.0,a01006-Flag=N&&4980',
    ],
  ])('agrees with the length and CRC of a published packet (%#)', (packet) => {
    const data = packet.slice(6, -4);
    expect(String(data.length).padStart(4, '0')).toBe(packet.slice(2, 6));
    expect(hj212CrcHex(data)).toBe(packet.slice(-4));
    expect(parseHj212Packet(`${packet}\r\n`).ok).toBe(true);
  });

  it('reads the published minute upload’s values, totals included', () => {
    const parsed = parseHj212Packet(
      '##0245ST=32;CN=2051;PW=123456;MN=12091200160055;CP=&&DataTime=20150430135700;B01-Min=895.13,B01-Avg=909.87,B01-Max=932.28,B01-Cou=54.59;011-Min=999.99,011-Avg=999.99,011-Max=999.99,011-Cou=54.59;060-Min=30.18,060-Avg=30.18,060-Max=30.18,060-Cou=1.65&&7640\r\n',
    );
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(parsed.value).toMatchObject({ qn: undefined, flag: undefined, st: '32', cn: '2051', mn: '12091200160055' });
    const upload = readHj212Upload(parsed.value);
    expect(upload.ok && upload.value.readings[2]).toEqual({
      code: '060',
      values: { Min: 30.18, Avg: 30.18, Max: 30.18, Cou: 1.65 },
      flag: undefined,
    });
  });

  it('differs from CRC-16/MODBUS, which XORs into the low byte', () => {
    // Modbus gives 0x0759 for the standard's example data; HJ 212 gives 0x1C80.
    const data = STANDARD_EXAMPLE.slice(6, -6);
    expect(hj212CrcHex(data)).toBe('1C80');
    expect(data).toHaveLength(101);
  });
});

describe('HJ 212 packets', () => {
  it("parses the standard's example", () => {
    const parsed = parseHj212Packet(STANDARD_EXAMPLE);
    expect(parsed).toEqual({
      ok: true,
      value: {
        qn: '20160801085857223',
        st: '32',
        cn: '1062',
        pw: '100000',
        mn: '010000A8900016F000169DC0',
        flag: 5,
        pnum: undefined,
        pno: undefined,
        cp: [{ key: 'RtdInterval', value: '30', group: 0 }],
      },
    });
    if (parsed.ok) expect(wantsAnswer(parsed.value)).toBe(true);
  });

  it('builds the same bytes back', () => {
    expect(
      buildHj212Packet({
        qn: '20160801085857223',
        st: '32',
        cn: '1062',
        pw: '100000',
        mn: '010000A8900016F000169DC0',
        flag: 5,
        cp: [[['RtdInterval', '30']]],
      }),
    ).toBe(STANDARD_EXAMPLE);
  });

  it('reads a minute upload: values, flags and DataTime', () => {
    const packet = buildHj212Packet({
      qn: '20260122103000000',
      st: '32',
      cn: '2051',
      pw: '123456',
      mn: 'LOGGER01',
      flag: 5,
      cp: [
        [['DataTime', '20260122103000']],
        [
          ['w01018-Avg', '28.6'],
          ['w01018-Min', '27.0'],
          ['w01018-Max', '30.1'],
          ['w01018-Flag', 'N'],
        ],
        [
          ['w21003-Avg', '1.25'],
          ['w21003-Flag', 'M'],
        ],
        [['w00000-Cou', '12.5']],
      ],
    });
    const parsed = parseHj212Packet(packet);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const upload = readHj212Upload(parsed.value);
    expect(upload).toEqual({
      ok: true,
      value: {
        kind: 'minute',
        dataTime: '20260122103000',
        readings: [
          { code: 'w01018', values: { Avg: 28.6, Min: 27, Max: 30.1 }, flag: 'N' },
          { code: 'w21003', values: { Avg: 1.25 }, flag: 'M' },
          { code: 'w00000', values: { Cou: 12.5 }, flag: undefined },
        ],
      },
    });
  });

  it('answers an upload with 9014 and the same QN', () => {
    const answer = hj212DataAnswer({ qn: '20260122103000000', pw: '123456', mn: 'LOGGER01' });
    expect(answer).toBe(
      `##0071QN=20260122103000000;ST=91;CN=9014;PW=123456;MN=LOGGER01;Flag=4;CP=&&&&${hj212CrcHex(
        'QN=20260122103000000;ST=91;CN=9014;PW=123456;MN=LOGGER01;Flag=4;CP=&&&&',
      )}\r\n`,
    );
    const parsed = parseHj212Packet(answer);
    expect(parsed.ok && parsed.value.cp).toEqual([]);
  });

  it.each([
    ['no ##', STANDARD_EXAMPLE.slice(1), 'header'],
    ['length not digits', STANDARD_EXAMPLE.replace('0101', '01a1'), 'length'],
    ['length wrong', STANDARD_EXAMPLE.replace('0101', '0100'), 'length'],
    ['CRC wrong', STANDARD_EXAMPLE.replace('1C80', '1C81'), 'crc'],
    ['CRC not hex', STANDARD_EXAMPLE.replace('1C80', '1CZ0'), 'crc'],
    ['data altered (CRC catches it)', STANDARD_EXAMPLE.replace('RtdInterval=30', 'RtdInterval=31'), 'crc'],
    ['too short', '##0000\r\n', 'length'],
  ])('refuses a packet with %s', (_name, text, kind) => {
    const parsed = parseHj212Packet(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.kind).toBe(kind);
  });

  it.each([
    ['no CP', 'QN=20260122103000000;ST=32;CN=2051;MN=A1;Flag=5;', 'format'],
    ['CP not closed', 'ST=32;CN=2051;MN=A1;CP=&&DataTime=20260122103000', 'format'],
    ['no MN', 'ST=32;CN=2051;CP=&&DataTime=20260122103000&&', 'field'],
    ['no CN', 'ST=32;MN=A1;CP=&&DataTime=20260122103000&&', 'field'],
    ['a field twice', 'ST=32;ST=32;CN=2051;MN=A1;CP=&&&&', 'field'],
    ['an unknown field', 'ST=32;XX=1;CN=2051;MN=A1;CP=&&&&', 'field'],
    ['a short QN', 'QN=2026;ST=32;CN=2051;MN=A1;CP=&&&&', 'field'],
    ['a CP field without =', 'ST=32;CN=2051;MN=A1;CP=&&DataTime&&', 'format'],
    ['a Flag that is no number', 'ST=32;CN=2051;MN=A1;Flag=x;CP=&&&&', 'field'],
  ])('refuses a data segment with %s', (_name, data, kind) => {
    const text = `##${String(data.length).padStart(4, '0')}${data}${hj212CrcHex(data)}\r\n`;
    const parsed = parseHj212Packet(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.kind).toBe(kind);
  });

  it('refuses uploads without a time or with values that are not numbers', () => {
    const read = (cp: [string, string][][]) => {
      const parsed = parseHj212Packet(buildHj212Packet({ st: '32', cn: '2051', mn: 'A1', flag: 4, cp }));
      if (!parsed.ok) throw new Error(parsed.reason);
      return readHj212Upload(parsed.value);
    };
    expect(read([[['w01018-Avg', '1']]])).toMatchObject({ ok: false, reason: 'the upload has no DataTime' });
    expect(read([[['DataTime', '20261322103000']]])).toMatchObject({ ok: false, kind: 'field' });
    expect(read([[['DataTime', '20260122103000']], [['w01018-Avg', '1e3']]])).toMatchObject({
      ok: false,
      reason: 'w01018-Avg is not a number',
    });
    expect(read([[['DataTime', '20260122103000']], [['w01018-Flag', 'NN']]])).toMatchObject({ ok: false });
  });

  it('refuses to build a data segment longer than the standard allows', () => {
    const cp: [string, string][][] = [Array.from({ length: 120 }, (_, i): [string, string] => [`a${String(i)}-Rtd`, '1.000'])];
    expect(() => buildHj212Packet({ cn: '2011', mn: 'A1', cp })).toThrow(RangeError);
  });
});

describe('HJ 212 split packets (PNUM/PNO)', () => {
  const pollutants = (n: number): [string, string][][] =>
    Array.from({ length: n }, (_, i) => [
      [`w${String(10000 + i)}-Avg`, '123.4567'],
      [`w${String(10000 + i)}-Min`, '100.0001'],
      [`w${String(10000 + i)}-Max`, '150.9999'],
      [`w${String(10000 + i)}-Flag`, 'N'],
    ]);
  const input = (n: number): Hj212PacketInput => ({
    qn: '20260122103000123',
    st: '32',
    cn: '2051',
    pw: '123456',
    mn: 'LOGGER01',
    flag: 5,
    cp: [[['DataTime', '20260122103000']], ...pollutants(n)],
  });

  it('sends a message that fits as one packet, unchanged', () => {
    expect(buildHj212Packets(input(3))).toEqual([buildHj212Packet(input(3))]);
  });

  it('spreads a long message over parts that each fit, keep its QN and DataTime, and number themselves', () => {
    const long = input(30);
    expect(buildHj212Data(long).length).toBeGreaterThan(HJ212_MAX_DATA_LENGTH);
    const packets = buildHj212Packets(long);
    expect(packets.length).toBeGreaterThan(1);
    const parts = packets.map((text) => {
      const parsed = parseHj212Packet(text);
      if (!parsed.ok) throw new Error(parsed.reason);
      expect(text.length - 12).toBeLessThanOrEqual(HJ212_MAX_DATA_LENGTH);
      return parsed.value;
    });
    parts.forEach((part, i) => {
      expect(part).toMatchObject({ qn: long.qn, cn: '2051', pnum: parts.length, pno: i + 1 });
      // Flag keeps its answer bit and version and gains D.
      expect(part.flag).toBe(5 | HJ212_FLAG_SPLIT);
      expect(cpValue(part, 'DataTime')).toBe('20260122103000');
    });
    // Every pollutant whole, in order, once.
    const fields = parts.flatMap((p) => p.cp.filter((f) => f.key !== 'DataTime').map((f) => [f.key, f.value]));
    expect(fields).toEqual(pollutants(30).flat());
    for (const part of parts) {
      const upload = readHj212Upload(part);
      expect(upload.ok && upload.value.readings.every((r) => r.flag === 'N' && r.values.Avg === 123.4567)).toBe(true);
    }
  });

  it('refuses a group that cannot fit in any part', () => {
    const huge: [string, string][] = Array.from({ length: 120 }, (_, i) => [`w01018-X${String(i)}`, '1.000']);
    expect(() => buildHj212Packets({ ...input(0), cp: [[['DataTime', '20260122103000']], huge] })).toThrow(RangeError);
  });

  it('reads a later part without DataTime with the DataTime of an earlier one', () => {
    const parsed = parseHj212Packet(
      buildHj212Packet({ qn: '20260122103000123', cn: '2051', mn: 'A1', flag: 7, pnum: 2, pno: 2, cp: [[['w01018-Avg', '1']]] }),
    );
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(readHj212Upload(parsed.value)).toMatchObject({ ok: false, reason: 'the upload has no DataTime' });
    expect(readHj212Upload(parsed.value, '20260122103000')).toMatchObject({ ok: true, value: { dataTime: '20260122103000' } });
  });
});

describe('HJ 212 answers', () => {
  it('answers data with 9014 and notifications with 9013, never an answer', () => {
    expect(['2011', '2051', '2061', '2031', '2081'].map(hj212AnswerCn)).toEqual(Array(5).fill('9014'));
    expect(['1013', '9015', '3020'].map(hj212AnswerCn)).toEqual(Array(3).fill('9013'));
    expect(['9011', '9012', '9013', '9014'].map(hj212AnswerCn)).toEqual(Array(4).fill(undefined));
  });
});

describe('HJ 212 times', () => {
  it('reads DataTime in the stations’ zone (UTC+8) and writes it back', () => {
    expect(parseHj212Time('20260122103000')).toBe(Date.UTC(2026, 0, 22, 2, 30, 0));
    expect(formatHj212Time(Date.UTC(2026, 0, 22, 2, 30, 0))).toBe('20260122103000');
    expect(formatHj212Time(Date.UTC(2026, 0, 22, 2, 30, 0, 7), 480, true)).toBe('20260122103000007');
    expect(parseHj212Time('20260230103000')).toBeUndefined();
    expect(parseHj212Time('20260122246000')).toBeUndefined();
  });
});

const fieldText = fc.stringMatching(/^[0-9A-Za-z.]{1,8}$/);
const packetInput: fc.Arbitrary<Hj212PacketInput> = fc.record({
  qn: fc.option(fc.stringMatching(/^\d{17}$/), { nil: undefined }),
  st: fc.option(fc.stringMatching(/^\d{2}$/), { nil: undefined }),
  cn: fc.stringMatching(/^\d{4}$/),
  pw: fc.option(fc.stringMatching(/^[0-9A-Za-z]{0,12}$/), { nil: undefined }),
  mn: fc.stringMatching(/^[0-9A-Za-z]{1,24}$/),
  flag: fc.option(fc.integer({ min: 0, max: 255 }), { nil: undefined }),
  cp: fc.array(fc.array(fc.tuple(fc.stringMatching(/^[A-Za-z][0-9A-Za-z-]{0,10}$/), fieldText), { minLength: 1, maxLength: 4 }), {
    maxLength: 6,
  }),
});

describe('HJ 212 fuzz', () => {
  it('parses every packet it builds back to the same fields', () => {
    fc.assert(
      fc.property(packetInput, (input) => {
        const parsed = parseHj212Packet(buildHj212Packet(input));
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        expect(parsed.value.mn).toBe(input.mn);
        expect(parsed.value.cn).toBe(input.cn);
        expect(parsed.value.qn).toBe(input.qn);
        expect(parsed.value.flag).toBe(input.flag);
        expect(parsed.value.cp.map((f) => [f.key, f.value])).toEqual(input.cp.flat());
      }),
    );
  });

  it('never throws on any text, and any one changed character is refused', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        expect(() => parseHj212Packet(text)).not.toThrow();
        expect(() => new Hj212Framer().push(text)).not.toThrow();
      }),
    );
    fc.assert(
      fc.property(packetInput, fc.nat(), fc.integer({ min: 0x21, max: 0x7e }), (input, at, code) => {
        const packet = buildHj212Packet(input);
        const i = at % (packet.length - 2);
        const same = packet[i]?.toUpperCase() === String.fromCharCode(code).toUpperCase();
        // The CRC's hex digits are read in either case.
        fc.pre(packet.charCodeAt(i) !== code && !(i >= packet.length - 6 && same));
        const changed = `${packet.slice(0, i)}${String.fromCharCode(code)}${packet.slice(i + 1)}`;
        expect(parseHj212Packet(changed).ok).toBe(false);
      }),
    );
  });

  it('frames a stream cut anywhere into the packets sent, skipping noise between them', () => {
    fc.assert(
      fc.property(fc.array(packetInput, { minLength: 1, maxLength: 5 }), fc.array(fc.nat(), { maxLength: 8 }), (inputs, cuts) => {
        const packets = inputs.map((input) => buildHj212Packet(input));
        const stream = packets.join('noise');
        const points = [...new Set(cuts.map((c) => c % stream.length))].sort((a, b) => a - b);
        const framer = new Hj212Framer();
        const out: string[] = [];
        let problems = 0;
        let from = 0;
        for (const to of [...points, stream.length]) {
          for (const r of framer.push(stream.slice(from, to))) {
            if (r.ok) out.push(r.packet);
            else problems += 1;
          }
          from = to;
        }
        expect(out).toEqual(packets);
        expect(problems).toBeGreaterThanOrEqual(packets.length - 1);
      }),
    );
  });

  it('resynchronises after a packet whose length lies', () => {
    const framer = new Hj212Framer();
    const bad = STANDARD_EXAMPLE.replace('##0101', '##0200');
    const results = framer.push(bad + STANDARD_EXAMPLE);
    expect(results.filter((r) => r.ok)).toEqual([{ ok: true, packet: STANDARD_EXAMPLE }]);
    expect(results.filter((r) => !r.ok)).toHaveLength(1);
  });
});
