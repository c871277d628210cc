/**
 * Mobile app versions (/sys/appfile; spec §7: appVersion list, AppVersion/get, PUT appVersion,
 * DELETE appVersion/{id}). An upload is an Android package up to 100 MB, checked by its bytes
 * (a ZIP whose central directory lists AndroidManifest.xml). Files download without a session
 * from their /uploads URL; AppVersion/latest is a stable public link to a group's newest one.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  APP_FILE_LIMIT,
  appTypeQuery,
  appUploadFields,
  appVersionDto,
  compareVersions,
  updateAppVersionRequest,
  type AppVersionDto,
} from '@sluice/shared/app-version.schema';
import type { Selectable } from 'kysely';
import { currentUser } from '../../auth/access.ts';
import type { Db } from '../../db/database.ts';
import type { AppVersionTable } from '../../db/tables.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { registerResource } from '../../http/resource.ts';
import { RequestValidationError } from '../../http/validation.ts';
import { isAndroidPackage } from '../../storage/file-types.ts';
import { receiveUpload, type UploadRule } from '../../storage/upload.ts';
import { flag } from '@sluice/shared/schema-fields';

const tags = ['Mobile app'];
const manage = { operate: 'system.manage' } as const;
const fileUrl = (key: unknown) => `/uploads/${String(key)}`;

const APK_RULE: UploadRule = {
  folder: 'apps',
  limit: APP_FILE_LIMIT,
  kinds: ['apk'],
  verify: { tailBytes: 8 * 1024 * 1024, test: isAndroidPackage, message: 'upload.notApk' },
};

const toDto = (r: Selectable<AppVersionTable>): AppVersionDto => ({
  Id: r.id,
  Description: r.description,
  VersionNo: r.version_no,
  State: r.state === 1,
  Type: r.app_type,
  FileName: r.file_name,
  Size: r.size,
  Sha256: r.sha256,
  url: fileUrl(r.storage_key),
  CreatedAt: r.created_at,
});

/** The newest enabled version of an app type, by version number. */
async function latest(db: Db, groupId: number, type: string) {
  const rows = await db
    .selectFrom('app_versions')
    .selectAll()
    .where('group_id', '=', groupId)
    .where('app_type', '=', type)
    .where('state', '=', 1)
    .execute();
  return rows.sort((a, b) => compareVersions(b.version_no, a.version_no) || b.id - a.id)[0];
}

export function appVersionsRoutes(root: FastifyInstance): void {
  const { db, storage } = root.ctx;

  registerResource(root, {
    table: 'app_versions',
    tags,
    access: { read: 'session', write: manage },
    dto: appVersionDto,
    create: z.object({}),
    update: updateAppVersionRequest,
    columns: { Type: 'app_type' },
    computed: { url: (row) => fileUrl(row.storage_key) },
    sortable: ['VersionNo', 'Type', 'State', 'CreatedAt'],
    searchable: ['VersionNo', 'Description', 'Type', 'FileName'],
    filters: { Type: { key: 'Type', schema: z.string().max(32) }, State: { key: 'State', schema: flag } },
    defaultOrder: { key: 'CreatedAt', direction: 'desc' },
    routes: { list: 'GET /appVersion', get: 'GET /appVersion/:id', remove: 'DELETE /appVersion/:id' },
    beforeRemove: async (database, version) => {
      const row = await database.selectFrom('app_versions').select('storage_key').where('id', '=', version.Id).executeTakeFirst();
      if (row) await storage.remove(row.storage_key);
    },
  });

  const app = root.withTypeProvider<ZodTypeProvider>();

  /** Stores an uploaded package as a new version (no Id) or as the new file of version Id. */
  const upload = async (request: FastifyRequest) => {
    const user = currentUser(request);
    let meta: z.infer<typeof appUploadFields> | undefined;
    let replaceId: number | undefined;
    const stored = await receiveUpload(request, storage, APK_RULE, {
      fields: async (fields) => {
        const parsed = appUploadFields.safeParse(fields);
        if (!parsed.success) throw new RequestValidationError(parsed.error.issues, 'body');
        meta = parsed.data;
        if (fields.Id !== undefined && fields.Id !== '') {
          const own = await db
            .selectFrom('app_versions')
            .select('id')
            .where('id', '=', Number(fields.Id))
            .where('group_id', '=', user.groupId)
            .executeTakeFirst();
          if (!own) throw new AppError(404, 'error.notFound');
          replaceId = own.id;
        }
      },
    });
    if (!meta) throw new AppError(400, 'rule.required', {}, 'VersionNo');
    const values = {
      app_type: meta.Type,
      version_no: meta.VersionNo,
      description: meta.Description ?? '',
      state: meta.State ? 1 : 0,
      file_name: stored.fileName.slice(0, 200),
      size: stored.size,
      sha256: stored.sha256,
      storage_key: stored.key,
      created_at: Date.now(),
    };
    if (replaceId !== undefined) {
      const before = await db
        .selectFrom('app_versions')
        .select('storage_key')
        .where('id', '=', replaceId)
        .executeTakeFirstOrThrow();
      await db.updateTable('app_versions').set(values).where('id', '=', replaceId).execute();
      await storage.remove(before.storage_key);
      return toDto(await db.selectFrom('app_versions').selectAll().where('id', '=', replaceId).executeTakeFirstOrThrow());
    }
    const { id } = await db
      .insertInto('app_versions')
      .values({ group_id: user.groupId, ...values })
      .returning('id')
      .executeTakeFirstOrThrow();
    return toDto(await db.selectFrom('app_versions').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
  };

  app.post(
    '/appVersion',
    {
      config: { access: manage },
      schema: {
        tags,
        summary: 'Upload an Android package (multipart: VersionNo, Description, Type, State as fields before "file"; ≤ 100 MB)',
        response: { 201: envelopeOf(appVersionDto) },
      },
    },
    async (request, reply) => reply.status(201).send(ok(request, await upload(request), { message: 'created' })),
  );

  app.put(
    '/appVersion',
    {
      config: { access: manage },
      schema: {
        tags,
        summary:
          'Edit a version (JSON: Id, Description, VersionNo, State), or upload a package (multipart, as POST; an Id field replaces that version’s file)',
        response: { 200: envelopeOf(appVersionDto) },
      },
    },
    async (request) => {
      if (request.isMultipart()) return ok(request, await upload(request), { message: 'saved' });
      const user = currentUser(request);
      const parsed = updateAppVersionRequest.safeParse(request.body);
      if (!parsed.success) throw new RequestValidationError(parsed.error.issues, 'body');
      const { Id, VersionNo, Description, State } = parsed.data;
      const own = await db
        .selectFrom('app_versions')
        .select('id')
        .where('id', '=', Id)
        .where('group_id', '=', user.groupId)
        .executeTakeFirst();
      if (!own) throw new AppError(404, 'error.notFound');
      await db
        .updateTable('app_versions')
        .set({ version_no: VersionNo, state: State ? 1 : 0, ...(Description === undefined ? {} : { description: Description }) })
        .where('id', '=', Id)
        .execute();
      return ok(request, toDto(await db.selectFrom('app_versions').selectAll().where('id', '=', Id).executeTakeFirstOrThrow()), {
        message: 'saved',
      });
    },
  );

  app.get(
    '/AppVersion/get',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The newest enabled version of an app type (type, default android)',
        querystring: appTypeQuery,
        response: { 200: envelopeOf(appVersionDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const row = await latest(db, user.groupId, request.query.Type);
      if (!row) throw new AppError(404, 'app.noVersion', { type: request.query.Type });
      return ok(request, toDto(row));
    },
  );

  app.get(
    '/AppVersion/latest',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: "A stable download link: redirects to the newest enabled package of a group's app (Group is the group's code)",
        querystring: z.object({ Group: z.string().min(1).max(64), Type: z.string().max(32).default('android') }),
        security: [],
      },
    },
    async (request, reply) => {
      const group = await db.selectFrom('groups').select('id').where('code', '=', request.query.Group).executeTakeFirst();
      const row = group ? await latest(db, group.id, request.query.Type) : undefined;
      if (!row) throw new AppError(404, 'app.noVersion', { type: request.query.Type });
      return reply.redirect(fileUrl(row.storage_key), 302);
    },
  );
}
