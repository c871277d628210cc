/**
 * A type's images (TypeImage: 200 MB, png/jpeg/bmp/gif/mp4, ordered by Sn) and upgrade files
 * (TypeUpdateFile: firmware up to 3 MB, any bytes, with a version by the file-version rule and a
 * role). Uploads go through the one upload pipeline.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  FIRMWARE_LIMIT,
  TYPE_IMAGE_KINDS,
  TYPE_IMAGE_LIMIT,
  typeImageDto,
  typeImageSaveRequest,
  typeUpdateFileDto,
  typeUpdateFileFields,
  updateTypeUpdateFileRequest,
} from '@sluice/shared/device-type.schema';
import { currentUser } from '../../auth/access.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { registerResource } from '../../http/resource.ts';
import { RequestValidationError } from '../../http/validation.ts';
import { receiveUpload } from '../../storage/upload.ts';
import { ownType, typeParent } from './type-scope.ts';

const tags = ['Device types'];
const manage = { operate: 'system.manage' } as const;
const fileUrl = (key: unknown) => `/uploads/${String(key)}`;
const typeIdParam = (request: FastifyRequest) => (request.params as Record<string, unknown> | undefined)?.typeId;

export function typeFilesRoutes(root: FastifyInstance): void {
  const { db, storage } = root.ctx;
  const removeStored = async (database: Db, table: 'type_images' | 'type_update_files', id: number) => {
    const row = await database.selectFrom(table).select('storage_key').where('id', '=', id).executeTakeFirst();
    if (row) await storage.remove(row.storage_key);
  };

  registerResource(root, {
    table: 'type_images',
    tags,
    access: { read: 'session', write: manage },
    dto: typeImageDto,
    create: z.object({}),
    update: z.object({}),
    computed: { url: (row) => fileUrl(row.storage_key) },
    sortable: ['Sn', 'ImageName'],
    searchable: ['ImageName'],
    defaultOrder: { key: 'Sn', direction: 'asc' },
    parent: typeParent(db),
    routes: {
      all: 'GET /type/:typeId/TypeImage',
      get: 'GET /type/:typeId/TypeImage/:id',
      remove: 'DELETE /type/:typeId/TypeImage/:id',
    },
    beforeRemove: (database, image) => removeStored(database, 'type_images', image.Id),
  });

  registerResource(root, {
    table: 'type_update_files',
    tags,
    access: { read: 'session', write: manage },
    dto: typeUpdateFileDto,
    create: z.object({}),
    update: updateTypeUpdateFileRequest,
    computed: { url: (row) => fileUrl(row.storage_key) },
    sortable: ['Version', 'Role', 'CreatedAt', 'FileName'],
    searchable: ['Version', 'FileName', 'Description'],
    filters: { Role: { key: 'Role', schema: z.string().max(16) } },
    defaultOrder: { key: 'CreatedAt', direction: 'desc' },
    parent: typeParent(db),
    routes: {
      all: 'GET /type/:typeId/TypeUpdateFile',
      get: 'GET /type/:typeId/TypeUpdateFile/:id',
      update: 'PUT /type/:typeId/TypeUpdateFile',
      remove: 'DELETE /type/:typeId/TypeUpdateFile/:id',
    },
    beforeRemove: (database, file) => removeStored(database, 'type_update_files', file.Id),
  });

  const app = root.withTypeProvider<ZodTypeProvider>();

  /** The type an upload is for: type/{typeId}/… in the path, or TypeId among the fields. */
  const uploadType = (request: FastifyRequest, fields: Record<string, string>) =>
    typeIdParam(request) ?? fields.TypeId ?? fields.typeId;

  const addImage = async (request: FastifyRequest) => {
    const user = currentUser(request);
    let typeId = 0;
    const stored = await receiveUpload(
      request,
      storage,
      { folder: 'type-images', limit: TYPE_IMAGE_LIMIT, kinds: [...TYPE_IMAGE_KINDS] },
      {
        fields: async (fields) => {
          typeId = await ownType(db, uploadType(request, fields), user.groupId);
        },
      },
    );
    const last = await db
      .selectFrom('type_images')
      .select((eb) => eb.fn.max('sn').as('sn'))
      .where('type_id', '=', typeId)
      .executeTakeFirst();
    const imageName = (stored.fields.ImageName ?? stored.fileName).slice(0, 128);
    const { id } = await db
      .insertInto('type_images')
      .values({
        group_id: user.groupId,
        type_id: typeId,
        image_name: imageName,
        sn: (last?.sn ?? 0) + 1,
        storage_key: stored.key,
        kind: stored.kind,
        created_at: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const row = await db.selectFrom('type_images').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return {
      Id: row.id,
      TypeId: row.type_id,
      ImageName: row.image_name,
      Sn: row.sn,
      url: fileUrl(row.storage_key),
      Kind: row.kind,
    };
  };

  const imageUpload = {
    config: { access: manage },
    schema: {
      tags,
      summary:
        'Upload a type image or video (multipart "file"; TypeId as a field before it or in the query; ≤ 200 MB; png, jpeg, bmp, gif, mp4 by their bytes)',
      response: { 201: envelopeOf(typeImageDto) },
    },
  };
  app.post('/type/:typeId/TypeImage', imageUpload, async (request, reply) =>
    reply.status(201).send(ok(request, await addImage(request), { message: 'created' })),
  );
  app.post('/TypeImagesAdd', imageUpload, async (request, reply) =>
    reply.status(201).send(ok(request, await addImage(request), { message: 'created' })),
  );

  app.put(
    '/TypeImages/TypeImageSave',
    {
      config: { access: manage },
      schema: {
        tags,
        summary: "Save the order (Sn) and names of a type's images",
        body: typeImageSaveRequest,
        response: { 200: envelopeOf(z.array(typeImageDto)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const typeId = await ownType(db, request.body.TypeId, user.groupId);
      const ids = request.body.Images.map((i) => i.Id);
      const owned = await db
        .selectFrom('type_images')
        .select('id')
        .where('type_id', '=', typeId)
        .where('id', 'in', ids)
        .execute();
      if (owned.length !== new Set(ids).size) throw new AppError(404, 'error.notFound');
      await db.transaction().execute(async (trx) => {
        for (const image of request.body.Images) {
          await trx
            .updateTable('type_images')
            .set({ sn: image.Sn, ...(image.ImageName === undefined ? {} : { image_name: image.ImageName }) })
            .where('id', '=', image.Id)
            .execute();
        }
      });
      const rows = await db
        .selectFrom('type_images')
        .selectAll()
        .where('type_id', '=', typeId)
        .orderBy('sn')
        .orderBy('id')
        .execute();
      return ok(
        request,
        rows.map((r) => ({
          Id: r.id,
          TypeId: r.type_id,
          ImageName: r.image_name,
          Sn: r.sn,
          url: fileUrl(r.storage_key),
          Kind: r.kind,
        })),
        { message: 'saved' },
      );
    },
  );

  const addFirmware = async (request: FastifyRequest) => {
    const user = currentUser(request);
    let meta: z.infer<typeof typeUpdateFileFields> | undefined;
    const stored = await receiveUpload(
      request,
      storage,
      // Firmware is opaque bytes: one that happens to start like an image or a ZIP file is firmware all the same.
      { folder: 'firmware', limit: FIRMWARE_LIMIT, kinds: ['bin'] },
      {
        fields: async (fields) => {
          const typeId = await ownType(db, uploadType(request, fields), user.groupId);
          const parsed = typeUpdateFileFields.safeParse({ ...fields, TypeId: typeId });
          if (!parsed.success) throw new RequestValidationError(parsed.error.issues, 'body');
          meta = parsed.data;
        },
      },
    );
    if (!meta) throw new AppError(400, 'rule.required', {}, 'Version');
    const { id } = await db
      .insertInto('type_update_files')
      .values({
        group_id: user.groupId,
        type_id: meta.TypeId,
        file_name: stored.fileName.slice(0, 200),
        version: meta.Version,
        role: meta.Role,
        description: meta.Description ?? '',
        size: stored.size,
        sha256: stored.sha256,
        storage_key: stored.key,
        created_at: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const r = await db.selectFrom('type_update_files').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return typeUpdateFileDto.parse({
      Id: r.id,
      TypeId: r.type_id,
      FileName: r.file_name,
      Version: r.version,
      Role: r.role,
      Description: r.description,
      Size: r.size,
      Sha256: r.sha256,
      url: fileUrl(r.storage_key),
      CreatedAt: r.created_at,
    });
  };

  const firmwareUpload = {
    config: { access: manage },
    schema: {
      tags,
      summary:
        'Upload a firmware file (multipart: TypeId, Version, Role, Description as fields before "file", or in the query; ≤ 3 MB)',
      response: { 201: envelopeOf(typeUpdateFileDto) },
    },
  };
  app.post('/type/:typeId/TypeUpdateFile', firmwareUpload, async (request, reply) =>
    reply.status(201).send(ok(request, await addFirmware(request), { message: 'created' })),
  );
  app.post('/TypeUpdateFileAdd', firmwareUpload, async (request, reply) =>
    reply.status(201).send(ok(request, await addFirmware(request), { message: 'created' })),
  );
}
