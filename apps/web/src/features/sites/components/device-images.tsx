/**
 * A device's images in rank order. Users who may manage devices upload them through the
 * image-cropper dialog, cropped 4:3 (spec §9: 5 MB, png/jpeg/bmp), and delete them.
 */
import { useState } from 'react';
import { App, Button, Empty, Flex, Image, Popconfirm, Tag } from 'antd';
import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DEVICE_IMAGE_LIMIT } from '@sluice/shared/device.schema';
import { ImageCropperDialog } from '../../../components/image-cropper/image-cropper-dialog';
import { errorMessage } from '../../../lib/form-errors';
import { useMayOperate } from '../../../lib/operates';
import { deviceImagesQueryOptions, uploadDeviceImage, useDeleteDeviceImage } from '../api/device-images-api';
import { useGroupId } from '../api/group';
import { sitesKeys } from '../api/sites-keys';
import './site-items.css';

/** Spec §9: device images are cropped 4:3. */
export const DEVICE_IMAGE_ASPECT = 4 / 3;

export function DeviceImages({ sn, name }: { sn: string; name: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const g = useGroupId();
  const mayManage = useMayOperate('device.manage');
  const client = useQueryClient();
  const { data: images = [], isPending } = useQuery(deviceImagesQueryOptions(g, sn));
  const remove = useDeleteDeviceImage(g, sn);
  const [open, setOpen] = useState(false);
  const alt = (n: number) => t('devices.images.alt', { name, n });

  return (
    <>
      {mayManage && (
        <Button
          icon={<UploadOutlined />}
          style={{ marginBottom: 12 }}
          onClick={() => {
            setOpen(true);
          }}
        >
          {t('sites.images.upload')}
        </Button>
      )}
      {images.length === 0 && !isPending ? (
        <Empty description={t('sites.images.none')} />
      ) : (
        <Flex gap={12} wrap>
          {images.map((image, i) => (
            <figure key={image.Id} className="sluice-site-image">
              <Image src={image.url} alt={alt(i + 1)} width={160} height={120} style={{ objectFit: 'cover', borderRadius: 6 }} />
              <figcaption>
                <Tag>{t('sites.images.rank', { n: i + 1 })}</Tag>
                {mayManage && (
                  <Popconfirm
                    title={t('sites.images.deleteConfirm')}
                    okText={t('sites.actions.delete')}
                    cancelText={t('common.cancel')}
                    onConfirm={() => {
                      void remove.mutateAsync(image.Id).then(
                        (res) => void message.success(res.message || t('sites.actions.deleted')),
                        (error: unknown) => void message.error(errorMessage(error)),
                      );
                    }}
                  >
                    <Button
                      size="small"
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('devices.images.delete', { n: i + 1 })}
                    />
                  </Popconfirm>
                )}
              </figcaption>
            </figure>
          ))}
        </Flex>
      )}
      <ImageCropperDialog
        open={open}
        title={t('sites.images.dialogTitle', { name })}
        onClose={() => {
          setOpen(false);
        }}
        shapes={[{ key: 'device', label: t('cropper.device'), aspect: DEVICE_IMAGE_ASPECT }]}
        serverImages={images.map((image, i) => ({ id: image.Id, url: image.url, label: alt(i + 1) }))}
        maxBytes={DEVICE_IMAGE_LIMIT}
        onUpload={async (file, fileName) => {
          const res = await uploadDeviceImage(g, sn, file, fileName);
          await client.invalidateQueries({ queryKey: sitesKeys.deviceImages(sn) });
          return res.message;
        }}
      />
    </>
  );
}
