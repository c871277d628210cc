/**
 * The data-definition library, its categories and the links between data points and warn codes
 * (spec §7 Data definitions and categories), on the generic resource; plus import and export as
 * CSV or an Excel workbook.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addCategoryRequest,
  addDataDefineRequest,
  addDataDefineWarnCodeRequest,
  categoryDto,
  dataDefineDto,
  dataDefineWarnCodeDto,
  importReportDto,
  updateCategoryRequest,
  updateDataDefineRequest,
  updateDataDefineWarnCodeRequest,
} from '@sluice/shared/data-define.schema';
import { DATA_TYPES } from '@sluice/shared/data-types';
import { currentUser } from '../../auth/access.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { requestLanguage } from '../../http/language.ts';
import { registerResource } from '../../http/resource.ts';
import { receiveBuffer } from '../../storage/upload.ts';
import { renameCategory, resolveCategories } from './categories.service.ts';
import { csvRows, exportLibrary, importLibrary } from './library-import.service.ts';
import { XLSX_CONTENT_TYPE, looksLikeZip, readXlsx } from './xlsx.ts';
import { plainSubject } from '../audit/audit-trail.ts';

const tags = ['Data definitions'];
const manage = { operate: 'system.manage' } as const;
const IMPORT_LIMIT = 5 * 1024 * 1024;

export function dataDefinesRoutes(root: FastifyInstance): void {
  const { db, library } = root.ctx;

  registerResource(root, {
    table: 'data_defines',
    audit: { kind: 'dataDefine' },
    tags,
    access: { read: 'session', write: manage },
    dto: dataDefineDto,
    create: addDataDefineRequest,
    update: updateDataDefineRequest,
    sortable: ['DataKey', 'DataName', 'DataType', 'Unit', 'Model', 'Category'],
    searchable: ['DataKey', 'DataName', 'Model', 'Category'],
    filters: {
      Category: { key: 'Category', schema: z.string().max(32), match: 'listItem' },
      DataType: { key: 'DataType', schema: z.enum(DATA_TYPES) },
    },
    unique: [{ key: 'DataKey', message: 'dataDefine.exists' }],
    defaultOrder: { key: 'DataKey', direction: 'asc' },
    routes: {
      list: 'GET /DataDefineLibrary',
      all: 'GET /DataDefineLibrary/All',
      get: 'GET /DataDefineLibrary/:id',
      create: 'POST /DataDefineLibrary',
      update: 'PUT /DataDefineLibrary',
      remove: 'DELETE /DataDefineLibrary/:id',
    },
    beforeWrite: async (row, user) =>
      typeof row.category === 'string' ? { ...row, category: await resolveCategories(library, user.groupId, row.category) } : row,
    beforeUpdate: async (id, row, user) => {
      // Links to warn codes follow a renamed key.
      const before = await library.keyOf(id);
      if (typeof row.data_key === 'string' && row.data_key !== before)
        await library.renameWarnLinks(user.groupId, before, row.data_key);
    },
    beforeRemove: async (_database, define, user) => {
      const type = await library.typeUsing(user.groupId, define.Id);
      if (type !== undefined) throw new AppError(409, 'dataDefine.inUse', { key: define.DataKey, type });
      await library.removeWarnLinks(user.groupId, define.DataKey);
    },
  });

  registerResource(root, {
    table: 'data_categories',
    audit: { kind: 'category' },
    tags,
    access: { read: 'session', write: manage },
    dto: categoryDto,
    create: addCategoryRequest,
    update: updateCategoryRequest,
    sortable: ['Name'],
    searchable: ['Name'],
    unique: [{ key: 'Name', message: 'category.exists' }],
    defaultOrder: { key: 'Name', direction: 'asc' },
    routes: {
      list: 'GET /Category',
      all: 'GET /Category/All',
      get: 'GET /Category/:id',
      create: 'POST /Category',
      update: 'PUT /Category',
      remove: 'DELETE /Category/:id',
    },
    beforeUpdate: async (id, row, user) => {
      const before = await library.categoryName(id);
      if (typeof row.name === 'string') await renameCategory(library, user.groupId, before, row.name);
    },
    beforeRemove: async (_database, category, user) => {
      const used = await library.inCategory(user.groupId, category.Name);
      if (used.length > 0) throw new AppError(409, 'category.inUse', { name: category.Name, count: used.length });
    },
  });

  registerResource(root, {
    table: 'data_define_warn_codes',
    audit: { kind: 'dataDefineWarnCode' },
    tags,
    access: { read: 'session', write: manage },
    dto: dataDefineWarnCodeDto,
    create: addDataDefineWarnCodeRequest,
    update: updateDataDefineWarnCodeRequest,
    sortable: ['DataKey', 'Code'],
    searchable: ['DataKey', 'Code'],
    filters: { DataKey: { key: 'DataKey', schema: z.string().max(64) }, Code: { key: 'Code', schema: z.string().max(32) } },
    unique: [{ key: ['DataKey', 'Code'], message: 'link.exists' }],
    defaultOrder: { key: 'DataKey', direction: 'asc' },
    routes: {
      all: 'GET /DataDefineWarnCode',
      list: 'GET /DataDefineWarnCode/pages',
      get: 'GET /DataDefineWarnCode/:id',
      create: 'POST /DataDefineWarnCode',
      update: 'PUT /DataDefineWarnCode',
      remove: 'DELETE /DataDefineWarnCode/:id',
    },
    beforeWrite: async (row, user) => {
      const key = String(row.data_key);
      if (!(await library.keyExists(user.groupId, key))) throw new AppError(400, 'dataDefine.unknownKey', { key }, 'DataKey');
      if (!(await library.warnCodeExists(user.groupId, String(row.code))))
        throw new AppError(400, 'warnCode.unknown', { code: String(row.code) }, 'Code');
      return row;
    },
  });

  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/DataDefineLibrary/Export',
    {
      config: { access: manage },
      schema: {
        tags,
        summary: 'The library as a CSV file (UTF-8 with BOM) or an Excel workbook (Format=xlsx); Category narrows it',
        querystring: z.object({ Category: z.string().max(32).optional(), Format: z.enum(['csv', 'xlsx']).default('csv') }),
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { Format: format, Category: category } = request.query;
      const file = await exportLibrary(db, user.groupId, format, category);
      return reply
        .header('content-type', format === 'xlsx' ? XLSX_CONTENT_TYPE : 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="data-defines.${format}"`)
        .send(file);
    },
  );

  app.post(
    '/DataDefineLibrary/Import',
    {
      config: { access: manage, audit: { subject: plainSubject('dataDefine'), action: 'import' } },
      schema: {
        tags,
        summary:
          'Import a CSV file or an Excel workbook (multipart "file", told apart by its bytes): new keys are added, existing ones updated (Mode=skip leaves them); bad rows are reported',
        querystring: z.object({ Mode: z.enum(['update', 'skip']).default('update') }),
        response: { 200: envelopeOf(importReportDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { bytes, fileName } = await receiveBuffer(request, IMPORT_LIMIT);
      // The bytes decide the format; a name ending in .xlsx only makes a file that is not a
      // workbook a refusal instead of a CSV attempt.
      const workbook = looksLikeZip(bytes) || /\.xlsx$/i.test(fileName);
      const rows = workbook ? await readXlsx(bytes) : csvRows(csvText(bytes));
      const lang = requestLanguage(request);
      const report = await importLibrary(db, user.groupId, rows, { mode: request.query.Mode, lang });
      return ok(request, report, {
        message: 'import.done',
        params: { added: report.Added, updated: report.Updated, rejected: report.Rejected.length },
      });
    },
  );
}

/** The file as CSV text; a binary file (one with NUL bytes) is refused. */
function csvText(bytes: Buffer): string {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (text.includes('\u0000')) throw new AppError(400, 'import.badFile', { columns: 'DataKey, DataName, DataType' }, 'file');
  return text;
}
