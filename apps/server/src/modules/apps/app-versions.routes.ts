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
  updateAppVersionRequest,
} from '@sluice/shared/app-version.schema';
import { currentUser } from '../../auth/access.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { registerResource } from '../../http/resource.ts';
import { RequestValidationError } from '../../http/validation.ts';
import { isAndroidPackage } from '../../storage/file-types.ts';
import { receiveUpload, type UploadRule } from '../../storage/upload.ts';
import { flag } from '@sluice/shared/schema-fields';
import { appFileUrl, toAppVersionDto } from './app-versions.service.ts';
import { fromBody, noteAudit } from '../audit/audit-trail.ts';

const tags = ['Mobile app'];
const manage = { operate: 'system.manage' } as const;
const APK_RULE: UploadRule = {
  folder: 'apps',
  limit: APP_FILE_LIMIT,
  kinds: ['apk'],
  verify: { tailBytes: 8 * 1024 * 1024, test: isAndroidPackage, message: 'upload.notApk' },
};

export function appVersionsRoutes(root: FastifyInstance): void {
  const { storage, appVersions } = root.ctx;

  const versions = registerResource(root, {
    table: 'app_versions',
    audit: { kind: 'appVersion' },
    tags,
    access: { read: 'session', write: manage },
    dto: appVersionDto,
    create: z.object({}),
    update: updateAppVersionRequest,
    columns: { Type: 'app_type' },
    computed: { url: (row) => appFileUrl(row.storage_key) },
    sortable: ['VersionNo', 'Type', 'State', 'CreatedAt'],
    searchable: ['VersionNo', 'Description', 'Type', 'FileName'],
    filters: { Type: { key: 'Type', schema: z.string().max(32) }, State: { key: 'State', schema: flag } },
    defaultOrder: { key: 'CreatedAt', direction: 'desc' },
    routes: { list: 'GET /appVersion', get: 'GET /appVersion/:id', remove: 'DELETE /appVersion/:id' },
    beforeRemove: (_database, version) => appVersions.removeFile(version.Id),
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
          replaceId = await appVersions.own(user, Number(fields.Id));
          noteAudit(request, { id: replaceId });
        }
      },
    });
    if (!meta) throw new AppError(400, 'rule.required', {}, 'VersionNo');
    return appVersions.saveUpload(user, meta, stored, replaceId);
  };

  app.post(
    '/appVersion',
    {
      config: { access: manage, audit: { subject: versions } },
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
      config: { access: manage, audit: { subject: versions, id: fromBody('Id') } },
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
      return ok(request, await appVersions.edit(user, parsed.data), { message: 'saved' });
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
      const row = await appVersions.latest(user.groupId, request.query.Type);
      if (!row) throw new AppError(404, 'app.noVersion', { type: request.query.Type });
      return ok(request, toAppVersionDto(row));
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
      const row = await appVersions.latestOfGroupCode(request.query.Group, request.query.Type);
      if (!row) throw new AppError(404, 'app.noVersion', { type: request.query.Type });
      return reply.redirect(appFileUrl(row.storage_key), 302);
    },
  );
}
