/**
 * A device's images ({kind}/{deviceSn}/DeviceImage, spec §7 Images): the list by rank, the
 * upload (multipart "file", 5 MB, png/jpeg/bmp, cropped 4:3 by the console) and the delete.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { deviceImageDto } from '@sluice/shared/device.schema';
import { api } from '../../../lib/api-client';
import { sitesKeys } from '../../../lib/sites';

export type DeviceImageDto = z.infer<typeof deviceImageDto>;

const imagesPath = (g: number, sn: string) => `/${String(g)}/${encodeURIComponent(sn)}/DeviceImage`;

export const deviceImagesQueryOptions = (g: number, sn: string) =>
  queryOptions({
    queryKey: sitesKeys.deviceImages(sn),
    queryFn: async () => (await api.get<DeviceImageDto[]>(imagesPath(g, sn))).data,
    enabled: g > 0 && sn !== '',
  });

/** Uploads an image after the device's others. */
export function uploadDeviceImage(g: number, sn: string, file: Blob, fileName: string) {
  const form = new FormData();
  form.append('file', file, fileName);
  return api.put<DeviceImageDto>(imagesPath(g, sn), form);
}

export function useDeleteDeviceImage(g: number, sn: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (imageId: number) => api.delete<null>(`${imagesPath(g, sn)}/${String(imageId)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: sitesKeys.deviceImages(sn) }),
  });
}
