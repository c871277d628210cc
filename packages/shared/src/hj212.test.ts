import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  Hj212Framer,
  buildHj212Packet,
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
