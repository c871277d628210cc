/**
 * A device's images in rank order. Users who may manage devices upload them through the
 * image-cropper dialog, cropped 4:3 (spec §9: 5 MB, png/jpeg/bmp), and delete them.
 */
import { Tag } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DEVICE_IMAGE_LIMIT } from '@sluice/shared/device.schema';
import { useMayOperate } from '../../../lib/operates';
import { deviceImagesQueryOptions, uploadDeviceImage, useDeleteDeviceImage } from '../api/device-images-api';
import { useGroupId } from '../../../lib/group';
import { sitesKeys } from '../../../lib/sites';
import { SiteImages } from '../../../components/sites/site-images';

/** Spec §9: device images are cropped 4:3. */
export const DEVICE_IMAGE_ASPECT = 4 / 3;

export function DeviceImages({ sn, name }: { sn: string; name: string }) {
  const { t } = useTranslation();
  const g = useGroupId();
  const mayManage = useMayOperate('device.manage');
  const client = useQueryClient();
  const { data: images = [], isPending } = useQuery(deviceImagesQueryOptions(g, sn));
  const remove = useDeleteDeviceImage(g, sn);

  return (
    <SiteImages
      name={name}
      images={images.map((image, i) => ({
        id: image.Id,
        url: image.url,
        alt: t('devices.images.alt', { name, n: i + 1 }),
        tag: <Tag>{t('sites.images.rank', { n: i + 1 })}</Tag>,
        deleteLabel: t('devices.images.delete', { n: i + 1 }),
      }))}
      loading={isPending}
      mayManage={mayManage}
      width={160}
      height={120}
      remove={(id) => remove.mutateAsync(id)}
      shapes={[{ key: 'device', label: t('cropper.device'), aspect: DEVICE_IMAGE_ASPECT }]}
      maxBytes={DEVICE_IMAGE_LIMIT}
      onUpload={async (file, fileName) => {
        const res = await uploadDeviceImage(g, sn, file, fileName);
        await client.invalidateQueries({ queryKey: sitesKeys.deviceImages(sn) });
        return res.message;
      }}
    />
  );
}
