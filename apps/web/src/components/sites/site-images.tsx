/**
 * The images of a project, station or device: each with its tag (cover or rank) and, for users who
 * may manage it, a delete button that asks first; the upload goes through the image-cropper dialog.
 */
import { useState, type ReactNode } from 'react';
import { App, Button, Empty, Flex, Image, Popconfirm } from 'antd';
import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ImageCropperDialog, type ImageCropperDialogProps } from '../image-cropper/image-cropper-dialog';
import type { ApiResponse } from '../../lib/api-client';
import { errorMessage } from '../../lib/form-errors';
import './site-items.css';

export interface ShownImage {
  id: number;
  url: string;
  alt: string;
  tag: ReactNode;
  /** The delete button's accessible name. */
  deleteLabel: string;
}

export function SiteImages({
  name,
  images,
  loading,
  mayManage,
  width,
  height,
  remove,
  ...cropper
}: {
  /** The record's name, in the upload dialog's title. */
  name: string;
  images: ShownImage[];
  loading: boolean;
  mayManage: boolean;
  width: number;
  height: number;
  remove: (id: number) => Promise<ApiResponse<unknown>>;
} & Pick<ImageCropperDialogProps, 'shapes' | 'defaultShape' | 'maxBytes' | 'onUpload'>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
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
      {images.length === 0 && !loading ? (
        <Empty description={t('sites.images.none')} />
      ) : (
        <Flex gap={12} wrap>
          {images.map((image) => (
            <figure key={image.id} className="sluice-site-image">
              <Image
                src={image.url}
                alt={image.alt}
                width={width}
                height={height}
                style={{ objectFit: 'cover', borderRadius: 6 }}
              />
              <figcaption>
                {image.tag}
                {mayManage && (
                  <Popconfirm
                    title={t('sites.images.deleteConfirm')}
                    okText={t('sites.actions.delete')}
                    cancelText={t('common.cancel')}
                    onConfirm={() => {
                      void remove(image.id).then(
                        (res) => void message.success(res.message || t('sites.actions.deleted')),
                        (error: unknown) => void message.error(errorMessage(error)),
                      );
                    }}
                  >
                    <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={image.deleteLabel} />
                  </Popconfirm>
                )}
              </figcaption>
            </figure>
          ))}
        </Flex>
      )}
      <ImageCropperDialog
        {...cropper}
        open={open}
        title={t('sites.images.dialogTitle', { name })}
        onClose={() => {
          setOpen(false);
        }}
        serverImages={images.map((image) => ({ id: image.id, url: image.url, label: image.alt }))}
      />
    </>
  );
}
