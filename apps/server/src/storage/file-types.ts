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
