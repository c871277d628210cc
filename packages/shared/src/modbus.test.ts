import { describe, expect, it } from 'vitest';
import { crc16Modbus, crc16ModbusHex, parseHexBytes, readFrame } from './modbus.ts';

describe('CRC16 Modbus', () => {
  it('matches known RTU frames, low byte first', () => {
    expect(crc16ModbusHex([0x01, 0x03, 0x00, 0x00, 0x00, 0x01])).toBe('840A');
    expect(crc16Modbus([0x01, 0x03, 0x00, 0x00, 0x00, 0x01])).toBe(0x0a84);
    // Read 3 holding registers from 0x006B of slave 17 (the Modbus over serial line guide's example).
    expect(crc16ModbusHex([0x11, 0x03, 0x00, 0x6b, 0x00, 0x03])).toBe('7687');
    expect(crc16ModbusHex(parseHexBytes('01 06 00 01 00 03') ?? [])).toBe('980B');
    // The check value of CRC-16/MODBUS over '123456789'.
    expect(crc16Modbus(Array.from({ length: 9 }, (_, i) => 0x31 + i))).toBe(0x4b37);
  });

  it('always gives 4 hex digits', () => {
    expect(crc16ModbusHex([])).toBe('FFFF');
    expect(crc16ModbusHex([0x01, 0x01, 0x00, 0x00, 0x00, 0x01])).toMatch(/^[0-9A-F]{4}$/);
  });

  it('builds a read frame with its CRC, and none for write codes', () => {
    expect(readFrame(1, 3, 0, 1)).toEqual({ frame: '01 03 00 00 00 01 84 0A', crc: '840A' });
    expect(readFrame(1, 6, 0, 1)).toBeUndefined();
  });

  it('parses hex text', () => {
    expect(parseHexBytes('0103')).toEqual([1, 3]);
    expect(parseHexBytes('01 0')).toBeUndefined();
    expect(parseHexBytes('zz')).toBeUndefined();
  });
});
