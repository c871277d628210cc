/**
 * Modbus helpers for hardware configuration (spec §3 Hardware config, §9 CRC16): the CRC16
 * of Modbus RTU, a read request frame with its checksum, and the limits a row must respect.
 */

/** Modbus RTU station addresses; 0 is broadcast and 248–255 are reserved. */
export const MODBUS_SLAVE_MIN = 1;
export const MODBUS_SLAVE_MAX = 247;
export const REGISTER_MAX = 65535;
export const BIT_OFFSET_MAX = 15;

/** Function codes, and how many items one read may ask for (Modbus application protocol §6). */
export const READ_FUNCTIONS: Record<number, { name: string; maxQuantity: number }> = {
  1: { name: 'Read Coils', maxQuantity: 2000 },
  2: { name: 'Read Discrete Inputs', maxQuantity: 2000 },
  3: { name: 'Read Holding Registers', maxQuantity: 125 },
  4: { name: 'Read Input Registers', maxQuantity: 125 },
};
export const WRITE_FUNCTIONS: Record<number, { name: string; maxQuantity: number }> = {
  5: { name: 'Write Single Coil', maxQuantity: 1 },
  6: { name: 'Write Single Register', maxQuantity: 1 },
  15: { name: 'Write Multiple Coils', maxQuantity: 1968 },
  16: { name: 'Write Multiple Registers', maxQuantity: 123 },
};
export const FUNCTION_CODES = [...Object.keys(READ_FUNCTIONS), ...Object.keys(WRITE_FUNCTIONS)].map(Number);

/** The register value types a hardware row reads. */
export const REGISTER_TYPES = ['bit', 'int16', 'uint16', 'int32', 'uint32', 'float32'] as const;

/** CRC-16/MODBUS (polynomial 0xA001 reflected, initial 0xFFFF) of the bytes. */
export function crc16Modbus(bytes: ArrayLike<number>): number {
  let crc = 0xffff;
  for (let i = 0; i < bytes.length; i++) {
    crc ^= (bytes[i] ?? 0) & 0xff;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

const hex2 = (n: number) => n.toString(16).toUpperCase().padStart(2, '0');

/**
 * The CRC as the 4 hex digits it is sent in: low byte first, as appended to a frame
 * (01 03 00 00 00 01 → '840A').
 */
export function crc16ModbusHex(bytes: ArrayLike<number>): string {
  const crc = crc16Modbus(bytes);
  return hex2(crc & 0xff) + hex2(crc >>> 8);
}

/** Parses '01 03 00 00 00 01' or '010300000001' into bytes; undefined when it is not hex. */
export function parseHexBytes(text: string): number[] | undefined {
  const compact = text.replace(/[\s,:-]/g, '');
  if (compact.length === 0 || compact.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(compact)) return undefined;
  return Array.from({ length: compact.length / 2 }, (_, i) => parseInt(compact.slice(i * 2, i * 2 + 2), 16));
}

export interface ReadFrame {
  /** The request with its CRC, as spaced hex: '01 03 00 00 00 01 84 0A'. */
  frame: string;
  /** The CRC's 4 hex digits in sending order. */
  crc: string;
}

/** The RTU request that reads `quantity` items from `address` of `slave`, for read function codes 1–4. */
export function readFrame(slave: number, functionCode: number, address: number, quantity: number): ReadFrame | undefined {
  if (!READ_FUNCTIONS[functionCode]) return undefined;
  const body = [slave & 0xff, functionCode, (address >> 8) & 0xff, address & 0xff, (quantity >> 8) & 0xff, quantity & 0xff];
  const crc = crc16ModbusHex(body);
  return { frame: [...body.map(hex2), crc.slice(0, 2), crc.slice(2)].join(' '), crc };
}
