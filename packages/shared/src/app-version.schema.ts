/** Mobile app versions (spec §3 AppVersion, §7 apps, §9 app file 100 MB Android package). */
import { z } from 'zod';
import { fileVersion, messageRef } from './rules.ts';
import { flag, idRef, text } from './schema-fields.ts';

export const APP_FILE_LIMIT = 100 * 1024 * 1024;
export const APP_TYPE_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
export const DEFAULT_APP_TYPE = 'android';

export const appVersionDto = z.object({
  Id: z.number(),
  Description: z.string(),
  VersionNo: z.string(),
  /** Enabled: offered to the mobile app. */
  State: z.boolean(),
  Type: z.string(),
  FileName: z.string(),
  Size: z.number(),
  Sha256: z.string(),
  /** Where the package downloads from, without a session. */
  url: z.string(),
  CreatedAt: z.number(),
});
export type AppVersionDto = z.infer<typeof appVersionDto>;

const appType = z
  .string()
  .trim()
  .regex(APP_TYPE_PATTERN, { message: messageRef('rule.appType') });

/** Fields sent with an upload (multipart fields before the file, or the query). */
export const appUploadFields = z.object({
  VersionNo: fileVersion,
  Description: text(1000),
  Type: appType.default(DEFAULT_APP_TYPE),
  State: flag.default(true),
});
export const updateAppVersionRequest = z.object({
  Id: idRef,
  VersionNo: fileVersion,
  Description: text(1000),
  State: flag,
});
export const appTypeQuery = z.preprocess(
  (q) => (q && typeof q === 'object' ? { Type: (q as Record<string, unknown>).Type ?? (q as Record<string, unknown>).type } : q),
  z.object({ Type: appType.default(DEFAULT_APP_TYPE) }),
);

/**
 * Orders versions by major.minor.patch ('x' counts as 0); negative when a is older.
 * Both must follow the file-version rule.
 */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) =>
    v
      .slice(1)
      .split('.')
      .map((p) => (p === 'x' ? 0 : Number(p)));
  const [pa, pb] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
