import { constants, crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/errors.ts';
import { UNPACKED_LIMIT, readXlsx, writeXlsx } from './xlsx.ts';

interface Part {
  name: string;
  /** Deflated data. */
  packed: Buffer;
  /** The uncompressed size the ZIP file declares (true or not). */
  declared: number;
  crc: number;
}

/** A ZIP file of deflated parts, declaring the sizes given. */
function zipOf(parts: Part[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(part.crc, 14);
    local.writeUInt32LE(part.packed.length, 18);
    local.writeUInt32LE(part.declared, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(part.crc, 16);
    central.writeUInt32LE(part.packed.length, 20);
    central.writeUInt32LE(part.declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, part.packed);
    centrals.push(central, name);
    offset += local.length + name.length + part.packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const part = (name: string, text: string): Part => {
  const data = Buffer.from(text);
  return { name, packed: deflateRawSync(data), declared: data.length, crc: crc32(data) };
};

/**
 * Deflated data that inflates to `megabytes` MB of spaces: one megabyte compressed with a full
 * flush (so that each copy stands alone), repeated, then an empty final block.
 */
function bomb(megabytes: number): Buffer {
  const block = deflateRawSync(Buffer.alloc(1024 * 1024, 0x20), { finishFlush: constants.Z_FULL_FLUSH });
  return Buffer.concat([...Array<Buffer>(megabytes).fill(block), Buffer.from([0x03, 0x00])]);
}

describe('Excel workbooks', () => {
  it('reads back what it writes', async () => {
    const bytes = await writeXlsx('Sheet', ['DataKey', 'DataName'], [['Inflow', '进水流量']]);
    expect(await readXlsx(bytes)).toEqual([
      { row: 1, fields: ['DataKey', 'DataName'] },
      { row: 2, fields: ['Inflow', '进水流量'] },
    ]);
  });

  it('stops inflating a workbook whose parts unpack to more than the limit, whatever sizes they declare', async () => {
    expect(inflateRawSync(bomb(3)).length).toBe(3 * 1024 * 1024);
    // About 1 MB that declares 100 bytes and unpacks to 1 GB.
    const packed = bomb(1024);
    expect(packed.length).toBeLessThan(1.1 * 1024 * 1024);
    const workbook = zipOf([
      part('[Content_Types].xml', '<Types/>'),
      part('xl/workbook.xml', '<workbook/>'),
      { name: 'xl/worksheets/sheet1.xml', packed, declared: 100, crc: 0 },
    ]);
    const refused = await readXlsx(workbook).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ statusCode: 413, key: 'import.workbookTooLarge', field: 'file' });
    expect(UNPACKED_LIMIT).toBeLessThan(1024 * 1024 * 1024);
  });

  it('counts the parts together: many parts each under the limit add up', async () => {
    const parts = [part('xl/workbook.xml', '<workbook/>')];
    const count = Math.ceil(UNPACKED_LIMIT / (8 * 1024 * 1024)) + 1;
    for (let i = 0; i < count; i++) parts.push({ name: `xl/media/p${String(i)}.bin`, packed: bomb(8), declared: 1, crc: 0 });
    await expect(readXlsx(zipOf(parts))).rejects.toMatchObject({ statusCode: 413 });
  });
});
