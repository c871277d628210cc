/**
 * Mobile app versions (spec §7 apps): the paged list, edit (VersionNo, Description, State),
 * delete, and the upload of an Android package (fields before the file, with progress).
 */
import { useMutation } from '@tanstack/react-query';
import type { AppVersionDto } from '@sluice/shared/app-version.schema';
import { defineResource } from '../../../components/resource-table/resource';
import { api } from '../../../lib/api-client';
import { uploadWithProgress, type UploadProgress } from '../../../lib/api-transfer';

export const appVersionsResource = defineResource<AppVersionDto>({
  key: 'app-versions',
  operate: 'system.manage',
  list: 'GET /appVersion',
  update: 'PUT /appVersion',
  remove: 'DELETE /appVersion/:id',
});

export interface AppUploadFields {
  VersionNo: string;
  Description?: string;
  Type?: string;
  State?: boolean;
}

export function uploadAppPackage(
  file: File,
  fields: AppUploadFields,
  onProgress: (p: UploadProgress) => void,
  signal: AbortSignal,
) {
  const form = new FormData();
  // Fields go before the file, so the server refuses bad ones before storing anything.
  form.append('VersionNo', fields.VersionNo);
  form.append('Description', fields.Description ?? '');
  form.append('Type', fields.Type ?? 'android');
  form.append('State', fields.State === false ? 'false' : 'true');
  form.append('file', file, file.name);
  return uploadWithProgress<AppVersionDto>('/appVersion', form, { onProgress, signal });
}

/** Turns a version on or off (the edit call takes the whole record). */
export function useSetAppState() {
  return useMutation({
    mutationFn: (row: AppVersionDto & { State: boolean }) =>
      api.put<AppVersionDto>('/appVersion', {
        Id: row.Id,
        VersionNo: row.VersionNo,
        Description: row.Description,
        State: row.State,
      }),
  });
}
