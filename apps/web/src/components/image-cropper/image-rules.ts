/** Which local images the cropper accepts (spec §5 image upload, §9 upload limits). */
export type ImageKind = 'png' | 'jpeg' | 'bmp';

const MIME: Record<ImageKind, readonly string[]> = {
  png: ['image/png'],
  jpeg: ['image/jpeg', 'image/jpg', 'image/pjpeg'],
  bmp: ['image/bmp', 'image/x-ms-bmp', 'image/x-bmp'],
};

const EXTENSIONS: Record<ImageKind, readonly string[]> = {
  png: ['png'],
  jpeg: ['jpg', 'jpeg'],
  bmp: ['bmp'],
};

export function acceptAttribute(kinds: readonly ImageKind[]): string {
  return kinds.flatMap((k) => [...MIME[k], ...EXTENSIONS[k].map((e) => `.${e}`)]).join(',');
}

/** The kind of a file by its type (or, when the browser gives none, its extension), if allowed. */
export function imageKindOf(file: { name: string; type: string }, kinds: readonly ImageKind[]): ImageKind | undefined {
  const type = file.type.toLowerCase();
  const ext = file.name.toLowerCase().split('.').pop() ?? '';
  return kinds.find((k) => (type ? MIME[k].includes(type) : EXTENSIONS[k].includes(ext)));
}

export function formatLimit(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${String(Math.round((bytes / 1024 / 1024) * 10) / 10)} MB`
    : `${String(Math.round(bytes / 1024))} KB`;
}

export type ImageProblem = { kind: 'wrongType'; types: string } | { kind: 'tooLarge'; limit: string };

/** Why a file cannot be used, or undefined when it can. */
export function checkImage(
  file: { name: string; type: string; size: number },
  kinds: readonly ImageKind[],
  maxBytes: number,
): ImageProblem | undefined {
  if (!imageKindOf(file, kinds)) return { kind: 'wrongType', types: kinds.join(', ') };
  if (file.size > maxBytes) return { kind: 'tooLarge', limit: formatLimit(maxBytes) };
  return undefined;
}
