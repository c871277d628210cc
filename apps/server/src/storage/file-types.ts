/** File types recognised by their first bytes, never by their names. */
export type FileKind = 'png' | 'jpeg' | 'bmp' | 'gif' | 'mp4' | 'apk' | 'bin';

export const CONTENT_TYPES: Record<FileKind, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  bmp: 'image/bmp',
  gif: 'image/gif',
  mp4: 'video/mp4',
  apk: 'application/vnd.android.package-archive',
  bin: 'application/octet-stream',
};

const startsWith = (head: Uint8Array, bytes: number[], offset = 0) =>
  head.length >= offset + bytes.length && bytes.every((b, i) => head[offset + i] === b);

/** The kind of a file from its head (the first 16 bytes suffice), or undefined. */
export function sniff(head: Uint8Array): Exclude<FileKind, 'bin'> | undefined {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(head, [0x42, 0x4d])) return 'bmp';
  if (startsWith(head, [0x47, 0x49, 0x46, 0x38])) return 'gif';
  if (startsWith(head, [0x66, 0x74, 0x79, 0x70], 4)) return 'mp4';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return 'apk';
  return undefined;
}

/** Little-endian readers that tolerate short buffers (reading 0 past the end). */
const u16 = (b: Uint8Array, at: number) => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
const u32 = (b: Uint8Array, at: number) => (u16(b, at) + u16(b, at + 2) * 0x10000) >>> 0;

/** One entry of a ZIP file's central directory, as it declares it. */
export interface ZipEntry {
  name: string;
  /** Uncompressed size (declared: the data may inflate to more). */
  size: number;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedSize: number;
  /** Where its local header starts in the file. */
  offset: number;
}

/**
 * The entries a ZIP file's central directory lists, read from the end of the file (`tail` being
 * its last bytes and `size` its length), or undefined when it is no ZIP file we accept (none,
 * broken, or ZIP64).
 */
export function zipEntries(tail: Uint8Array, size: number): ZipEntry[] | undefined {
  const EOCD = 0x06054b50;
  const ENTRY = 0x02014b50;
  const tailStart = size - tail.length;
  for (let at = tail.length - 22; at >= Math.max(0, tail.length - 22 - 0xffff); at--) {
    if (u32(tail, at) !== EOCD) continue;
    if (at + 22 + u16(tail, at + 20) !== tail.length) continue;
    const count = u16(tail, at + 10);
    const cdSize = u32(tail, at + 12);
    const cdOffset = u32(tail, at + 16);
    if (cdOffset === 0xffffffff || count === 0xffff) return undefined; // ZIP64
    let p = cdOffset - tailStart;
    if (p < 0 || p + cdSize > at) return undefined;
    const entries: ZipEntry[] = [];
    for (let i = 0; i < count; i++) {
      if (u32(tail, p) !== ENTRY) return undefined;
      const nameLength = u16(tail, p + 28);
      const name = new TextDecoder().decode(tail.subarray(p + 46, p + 46 + nameLength));
      entries.push({
        name,
        size: u32(tail, p + 24),
        method: u16(tail, p + 10),
        compressedSize: u32(tail, p + 20),
        offset: u32(tail, p + 42),
      });
      p += 46 + nameLength + u16(tail, p + 30) + u16(tail, p + 32);
      if (p > at) return undefined;
    }
    return entries;
  }
  return undefined;
}

/**
 * Whether a ZIP file is an Android package: its central directory lists AndroidManifest.xml.
 * A file that merely starts like a ZIP, or a ZIP without a manifest, is not one.
 */
export function isAndroidPackage(tail: Uint8Array, size: number): boolean {
  return zipEntries(tail, size)?.some((e) => e.name === 'AndroidManifest.xml') ?? false;
}

/** Where an entry's data starts in a ZIP file held whole (after its local header), or undefined when there is no local header. */
export function zipDataStart(file: Uint8Array, entry: ZipEntry): number | undefined {
  const at = entry.offset;
  if (u32(file, at) !== 0x04034b50) return undefined;
  return at + 30 + u16(file, at + 26) + u16(file, at + 28);
}
