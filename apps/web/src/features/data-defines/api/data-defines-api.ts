/**
 * The data-definition library, its categories and the links between data points and warn codes
 * (spec §7 Data definitions and categories), plus the library's export and import as CSV or an
 * Excel workbook (both built and read by the server).
 */
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { CategoryDto, DataDefineDto, DataDefineWarnCodeDto, ImportReportDto } from '@sluice/shared/data-define.schema';
import type { WarnCodeDto } from '@sluice/shared/warn.schema';
import { defineResource } from '../../../components/resource-table/resource';
import { api } from '../../../lib/api-client';
import { downloadFile, uploadWithProgress } from '../../../lib/api-transfer';

export const dataDefinesResource = defineResource<DataDefineDto>({
  key: 'data-defines',
  operate: 'system.manage',
  list: 'GET /DataDefineLibrary',
  create: 'POST /DataDefineLibrary',
  update: 'PUT /DataDefineLibrary',
  remove: 'DELETE /DataDefineLibrary/:id',
});

export const categoriesResource = defineResource<CategoryDto>({
  key: 'data-categories',
  operate: 'system.manage',
  list: 'GET /Category',
  create: 'POST /Category',
  update: 'PUT /Category',
  remove: 'DELETE /Category/:id',
});

export const dataDefineWarnCodesResource = defineResource<DataDefineWarnCodeDto>({
  key: 'data-define-warn-codes',
  operate: 'system.manage',
  list: 'GET /DataDefineWarnCode/pages',
  create: 'POST /DataDefineWarnCode',
  update: 'PUT /DataDefineWarnCode',
  remove: 'DELETE /DataDefineWarnCode/:id',
});

export const dataDefinesKeys = {
  categories: ['data-categories', 'all'] as const,
  warnCodes: ['data-define-warn-codes', 'codes'] as const,
};

/** Every category (for filters and pickers). */
export const allCategoriesQueryOptions = () =>
  queryOptions({
    queryKey: dataDefinesKeys.categories,
    queryFn: async () => (await api.get<CategoryDto[]>('/Category/All', { OrderBy: 'Name' })).data,
    staleTime: 60_000,
  });

export function useAllCategories() {
  return useQuery(allCategoriesQueryOptions());
}

/** Every warn code (WarnCode/GetWarnCode), for the linked-data picker. */
export function useAllWarnCodes() {
  return useQuery({
    queryKey: dataDefinesKeys.warnCodes,
    queryFn: async () => (await api.get<WarnCodeDto[]>('/WarnCode/GetWarnCode', { OrderBy: 'Code' })).data,
    staleTime: 60_000,
  });
}

export type LibraryFormat = 'csv' | 'xlsx';

/** Downloads the library (or one category of it) as a CSV file or an Excel workbook. */
export function exportLibrary(format: LibraryFormat, category: string | undefined): Promise<void> {
  return downloadFile('/DataDefineLibrary/Export', `data-defines.${format}`, { Format: format, Category: category });
}

export function useImportLibrary() {
  return useMutation({
    mutationFn: ({ file, mode }: { file: File; mode: 'update' | 'skip' }) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return uploadWithProgress<ImportReportDto>('/DataDefineLibrary/Import', form, { params: { Mode: mode } });
    },
  });
}
