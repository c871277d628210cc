/**
 * The audit trail's calls (audit.view): GET AuditLog (paged; time range, user, account, kind,
 * record, action, search), GET AuditLog/{id} (one entry with before and after), GET
 * AuditLog/Export (CSV or Excel, in the caller's language). The platform administrator reads
 * every tenant's entries (GroupId narrows them to one); everyone else their own tenant's. There
 * is no call that changes or deletes an entry.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageQuery } from '@sluice/shared/paging.schema';
import {
  AUDIT_ACTIONS,
  AUDIT_EXPORT_COLUMNS,
  AUDIT_EXPORT_MAX_ROWS,
  AUDIT_KINDS,
  AUDIT_SORTABLE,
  auditEntryDetailDto,
  auditEntryDto,
  auditExportQuery,
  auditQuery,
  type AuditEntryDetailDto,
  type AuditQuery,
} from '@sluice/shared/audit.schema';
import type { Language } from '@sluice/shared/i18n';
import { idRef } from '@sluice/shared/schema-fields';
import { currentUser } from '../../auth/access.ts';
import { utcOffsetMinutes } from '../../config.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { requestLanguage } from '../../http/language.ts';
import { pickOrder, searchPattern } from '../../http/resource.ts';
import { csvLine } from '../data-defines/csv.ts';
import { XLSX_CONTENT_TYPE, writeXlsx } from '../data-defines/xlsx.ts';
import { parseTimeParam } from '../telemetry/history.service.ts';
import type { AuditFilter } from './audit.repository.ts';

const tags = ['Audit trail'];
const view = { operate: 'audit.view' } as const;

const SORT_COLUMNS: Record<(typeof AUDIT_SORTABLE)[number], string> = {
  At: 'a.at',
  Account: 'a.account',
  Action: 'a.action',
  ResourceKind: 'a.resource_kind',
  Address: 'a.address',
};

/** 'YYYY-MM-DD HH:mm:ss' at the configured UTC offset. */
const localDateTime = (at: number, offsetMinutes: number) =>
  new Date(at + offsetMinutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');

export function auditRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { audit, config } = app.ctx;
  const offset = utcOffsetMinutes(config);

  /** The caller's filter: their own tenant, unless they are the platform administrator. */
  const filterOf = (request: FastifyRequest, query: AuditQuery & { Search?: string | undefined }): AuditFilter => {
    const user = currentUser(request);
    if (query.GroupId !== undefined && query.GroupId !== user.groupId && !user.isPlatformAdmin)
      throw new AppError(403, 'auth.otherGroup');
    const time = (value: number | string | undefined, field: 'Begin' | 'End') => {
      if (value === undefined) return undefined;
      const parsed = parseTimeParam(value, offset, field === 'End');
      if (parsed === undefined) throw new AppError(400, 'rule.valueDate', {}, field);
      return parsed;
    };
    return {
      groupId: user.isPlatformAdmin ? query.GroupId : user.groupId,
      from: time(query.Begin, 'Begin'),
      to: time(query.End, 'End'),
      userId: query.UserId,
      account: query.Account,
      resourceKind: query.ResourceKind,
      resourceId: query.ResourceId,
      action: query.Action,
      search: searchPattern(query.Search),
    };
  };
  const orderOf = (query: { OrderBy?: string | undefined; OrderType?: string | undefined }) =>
    pickOrder(query, SORT_COLUMNS, { key: 'At', direction: 'desc' });

  app.get(
    '/AuditLog',
    {
      config: { access: view },
      schema: {
        tags,
        summary:
          'Audit entries, newest first (paged; Begin, End, UserId, Account, ResourceKind with ResourceId — the record and what belongs to it —, Action, Search; the platform administrator may name a GroupId, and sees every tenant without one)',
        querystring: z.intersection(pageQuery, auditQuery),
        response: { 200: envelopeOf(z.array(auditEntryDto)) },
      },
    },
    async (request) => {
      const query = request.query;
      const { rows, count } = await audit.page(filterOf(request, query), orderOf(query), {
        no: query.PageNo,
        size: query.PageSize,
      });
      return ok(request, rows, { count });
    },
  );

  app.get(
    '/AuditLog/Export',
    {
      config: { access: view },
      schema: {
        tags,
        summary: `The selected audit entries as a CSV file (UTF-8 with BOM) or an Excel workbook (Format=xlsx), in the caller's language, with before and after; at most ${String(AUDIT_EXPORT_MAX_ROWS)} entries`,
        querystring: auditExportQuery,
      },
    },
    async (request, reply) => {
      const query = request.query;
      const filter = filterOf(request, query);
      const count = await audit.count(filter);
      if (count > AUDIT_EXPORT_MAX_ROWS) throw new AppError(400, 'audit.tooMany', { count, max: AUDIT_EXPORT_MAX_ROWS }, 'Begin');
      const entries = await audit.all(filter, orderOf(query));
      const language = requestLanguage(request);
      const header = Object.values(AUDIT_EXPORT_COLUMNS).map((l) => l[language]);
      const rows = entries.map((e) => exportRow(e, language, offset));
      const stamp = localDateTime(Date.now(), offset).slice(0, 10);
      const file: FastifyReply = reply;
      if (query.Format === 'xlsx') {
        return file
          .header('content-type', XLSX_CONTENT_TYPE)
          .header('content-disposition', `attachment; filename="audit-${stamp}.xlsx"`)
          .send(await writeXlsx('Audit', header, rows));
      }
      const lines = [csvLine(header), ...rows.map(csvLine)];
      return file
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-${stamp}.csv"`)
        .send(`\uFEFF${lines.join('\r\n')}\r\n`);
    },
  );

  app.get(
    '/AuditLog/:id',
    {
      config: { access: view },
      schema: {
        tags,
        summary: 'One audit entry with the record before and after the call (secrets masked)',
        params: z.object({ id: idRef }),
        response: { 200: envelopeOf(auditEntryDetailDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const entry = await audit.one(request.params.id, user.isPlatformAdmin ? undefined : user.groupId);
      if (!entry) throw new AppError(404, 'error.notFound');
      return ok(request, entry);
    },
  );
}

/** One row of an export: times local, actions and kinds in the caller's language, before and after as JSON. */
function exportRow(e: AuditEntryDetailDto, language: Language, offsetMinutes: number): string[] {
  const json = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));
  return [
    localDateTime(e.At, offsetMinutes),
    e.GroupName,
    e.Account,
    e.UserName,
    e.Address,
    AUDIT_ACTIONS[e.Action][language],
    AUDIT_KINDS[e.ResourceKind][language],
    e.ResourceId,
    e.ResourceName,
    e.OwnerKind === '' ? '' : `${AUDIT_KINDS[e.OwnerKind][language]} ${e.OwnerId}`,
    e.Changed.join(', '),
    json(e.Before),
    json(e.After),
    e.Route,
  ];
}
