/**
 * The audit trail's calls: the paged list (a read-only resource), one entry with its record
 * before and after, and the export of the list's selection as CSV or Excel.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AuditEntryDetailDto, AuditEntryDto } from '@sluice/shared/audit.schema';
import type { GroupDto } from '@sluice/shared/group.schema';
import { defineResource } from '../../../components/resource-table/resource';
import { api, fetchAllPages, type QueryParams } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/api-transfer';

export const auditResource = defineResource<AuditEntryDto>({
  key: 'audit',
  operate: 'audit.view',
  list: 'GET /AuditLog',
});

export const auditEntryQueryOptions = (id: number) =>
  queryOptions({
    queryKey: [...auditResource.keys.all, 'entry', id],
    queryFn: async () => (await api.get<AuditEntryDetailDto>(`/AuditLog/${String(id)}`)).data,
  });

export function useAuditEntry(id: number | undefined) {
  return useQuery({ ...auditEntryQueryOptions(id ?? 0), enabled: id !== undefined });
}

/** Every tenant, for the platform administrator's tenant filter. */
export function useTenants(enabled: boolean) {
  return useQuery({
    queryKey: [...auditResource.keys.all, 'tenants'],
    queryFn: () => fetchAllPages<GroupDto>('/Group/FindByName'),
    enabled,
  });
}

/** Saves the entries the filters select as a CSV file or an Excel workbook, in the user's language. */
export function exportAudit(format: 'csv' | 'xlsx', params: QueryParams): Promise<void> {
  const day = new Date().toISOString().slice(0, 10);
  return downloadFile('/AuditLog/Export', `audit-${day}.${format}`, { ...params, Format: format });
}
