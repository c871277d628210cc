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
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { registerResource, ownerColumn } from '../../http/resource.ts';
import { RequestValidationError } from '../../http/validation.ts';
import { receiveUpload } from '../../storage/upload.ts';
import { typeFileUrl } from './type-files.service.ts';

const tags = ['Device types'];
const manage = { operate: 'system.manage' } as const;
const typeIdParam = (request: FastifyRequest) => (request.params as Record<string, unknown> | undefined)?.typeId;

export function typeFilesRoutes(root: FastifyInstance): void {
  const { storage, typeScope, typeFiles } = root.ctx;

  const images = registerResource(root, {
    table: 'type_images',
    audit: { kind: 'typeImage', owner: ownerColumn('deviceType', 'type_id') },
    tags,
    access: { read: 'session', write: manage },
    dto: typeImageDto,
    create: z.object({}),
    update: z.object({}),
    computed: { url: (row) => typeFileUrl(row.storage_key) },
    sortable: ['Sn', 'ImageName'],
    searchable: ['ImageName'],
    defaultOrder: { key: 'Sn', direction: 'asc' },
    parent: typeScope.typeParent(),
    routes: {
      all: 'GET /type/:typeId/TypeImage',
      get: 'GET /type/:typeId/TypeImage/:id',
      remove: 'DELETE /type/:typeId/TypeImage/:id',
    },
    beforeRemove: (_database, image) => typeFiles.removeStored('type_images', image.Id),
  });

  const firmware = registerResource(root, {
    table: 'type_update_files',
    audit: { kind: 'typeUpdateFile', owner: ownerColumn('deviceType', 'type_id') },
    tags,
    access: { read: 'session', write: manage },
    dto: typeUpdateFileDto,
    create: z.object({}),
    update: updateTypeUpdateFileRequest,
    computed: { url: (row) => typeFileUrl(row.storage_key) },
    sortable: ['Version', 'Role', 'CreatedAt', 'FileName'],
    searchable: ['Version', 'FileName', 'Description'],
    filters: { Role: { key: 'Role', schema: z.string().max(16) } },
    defaultOrder: { key: 'CreatedAt', direction: 'desc' },
    parent: typeScope.typeParent(),
    routes: {
      all: 'GET /type/:typeId/TypeUpdateFile',
      get: 'GET /type/:typeId/TypeUpdateFile/:id',
      update: 'PUT /type/:typeId/TypeUpdateFile',
      remove: 'DELETE /type/:typeId/TypeUpdateFile/:id',
    },
    beforeRemove: (_database, file) => typeFiles.removeStored('type_update_files', file.Id),
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
          typeId = await typeScope.ownType(uploadType(request, fields), user.groupId);
        },
      },
    );
    return typeFiles.addImage(user, typeId, stored, stored.fields.ImageName);
  };

  const imageUpload = {
    config: { access: manage, audit: { subject: images, action: 'create' as const } },
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
      config: {
        access: manage,
        audit: {
          subject: images,
          action: 'update',
          id: (request) => (request.body as { Images?: { Id: number }[] } | undefined)?.Images?.map((i) => i.Id),
        },
      },
      schema: {
        tags,
        summary: "Save the order (Sn) and names of a type's images",
        body: typeImageSaveRequest,
        response: { 200: envelopeOf(z.array(typeImageDto)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const typeId = await typeScope.ownType(request.body.TypeId, user.groupId);
      return ok(request, await typeFiles.saveImages(typeId, request.body.Images), { message: 'saved' });
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
          const typeId = await typeScope.ownType(uploadType(request, fields), user.groupId);
          const parsed = typeUpdateFileFields.safeParse({ ...fields, TypeId: typeId });
          if (!parsed.success) throw new RequestValidationError(parsed.error.issues, 'body');
          meta = parsed.data;
        },
      },
    );
    if (!meta) throw new AppError(400, 'rule.required', {}, 'Version');
    return typeFiles.addFirmware(user, meta, stored);
  };

  const firmwareUpload = {
    config: { access: manage, audit: { subject: firmware, action: 'create' as const } },
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
