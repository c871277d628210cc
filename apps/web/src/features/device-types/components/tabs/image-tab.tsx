/**
 * A type's images and videos (TypeImage: up to 200 MB, png, jpeg, bmp, gif or mp4), in order.
 * Pictures can be cropped square (1:1) before the upload; other files go up as they are.
 */
import { useMemo, useState } from 'react';
import { Button, Typography } from 'antd';
import { PictureOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { TYPE_IMAGE_KINDS, TYPE_IMAGE_LIMIT, typeImageFields } from '@sluice/shared/device-type.schema';
import { FileUploadDialog } from '../../../../components/file-upload/file-upload-dialog';
import { ImageCropperDialog } from '../../../../components/image-cropper/image-cropper-dialog';
import { ResourceTable } from '../../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../../components/resource-table/resource-types';
import { typeImagesResource, uploadTypeImage, type TypeImageDto } from '../../api/device-types-api';
import { useMayOperate } from '../../../../lib/operates';

const EXTENSIONS: Record<(typeof TYPE_IMAGE_KINDS)[number], string[]> = {
  png: ['png'],
  jpeg: ['jpg', 'jpeg'],
  bmp: ['bmp'],
  gif: ['gif'],
  mp4: ['mp4'],
};
const MIME = ['image/png', 'image/jpeg', 'image/bmp', 'image/x-ms-bmp', 'image/gif', 'video/mp4'];
const ACCEPT = [
  ...MIME,
  ...Object.values(EXTENSIONS)
    .flat()
    .map((e) => `.${e}`),
].join(',');

export function isTypeImageFile(file: { name: string; type: string }): boolean {
  const ext = file.name.toLowerCase().split('.').pop() ?? '';
  return file.type ? MIME.includes(file.type.toLowerCase()) : Object.values(EXTENSIONS).flat().includes(ext);
}

function Preview({ row }: { row: TypeImageDto }) {
  const { t } = useTranslation();
  const style = { width: 64, height: 64, objectFit: 'cover' as const, borderRadius: 6, display: 'block' };
  if (row.Kind === 'mp4')
    return (
      <video src={row.url} style={style} muted preload="metadata" aria-label={t('typeImages.videoOf', { name: row.ImageName })} />
    );
  return <img src={row.url} alt={row.ImageName} style={style} loading="lazy" />;
}

export function ImageTab({ typeId }: { typeId: number }) {
  const { t } = useTranslation();
  const mayManage = useMayOperate('system.manage');
  const [cropping, setCropping] = useState(false);
  const [uploading, setUploading] = useState(false);

  const config = useMemo<ResourceTableConfig<TypeImageDto>>(
    () => ({
      resource: typeImagesResource,
      rowName: (row) => row.ImageName,
      columns: [
        { key: 'Preview', title: 'typeImages.preview', render: (row) => <Preview row={row} /> },
        {
          key: 'ImageName',
          title: 'typeImages.imageName',
          render: (row) => (
            <Typography.Link href={row.url} target="_blank" rel="noreferrer">
              {row.ImageName}
            </Typography.Link>
          ),
        },
        { key: 'Kind', title: 'typeImages.kind' },
        { key: 'Sn', title: 'typeImages.sn' },
      ],
      form: {
        createSchema: typeImageFields,
        updateSchema: typeImageFields,
        createTitle: 'typeImages.edit',
        editTitle: 'typeImages.edit',
        fields: [
          { name: 'ImageName', label: 'typeImages.imageName', kind: 'text' },
          { name: 'Sn', label: 'typeImages.sn', kind: 'number', min: 0 },
        ],
      },
    }),
    [],
  );

  return (
    <>
      <ResourceTable
        config={config}
        pathParams={{ typeId }}
        description={t('typeImages.description')}
        compact
        toolbarExtra={
          mayManage && (
            <>
              <Button
                icon={<PictureOutlined aria-hidden />}
                onClick={() => {
                  setCropping(true);
                }}
              >
                {t('typeImages.cropUpload')}
              </Button>
              <Button
                type="primary"
                icon={<UploadOutlined aria-hidden />}
                onClick={() => {
                  setUploading(true);
                }}
              >
                {t('typeImages.upload')}
              </Button>
            </>
          )
        }
      />
      <ImageCropperDialog
        open={cropping}
        title={t('typeImages.cropUpload')}
        onClose={() => {
          setCropping(false);
        }}
        shapes={[{ key: 'square', label: t('typeImages.square'), aspect: 1 }]}
        maxBytes={TYPE_IMAGE_LIMIT}
        onUpload={async (file, fileName) => (await uploadTypeImage(typeId, file, fileName)).message}
      />
      <FileUploadDialog
        open={uploading}
        title={t('typeImages.upload')}
        onClose={() => {
          setUploading(false);
        }}
        accept={ACCEPT}
        maxBytes={TYPE_IMAGE_LIMIT}
        kindsLabel={TYPE_IMAGE_KINDS.join(', ')}
        isAccepted={isTypeImageFile}
        onUpload={async (file, _values, onProgress, signal) =>
          (await uploadTypeImage(typeId, file, file.name, onProgress, signal)).message
        }
      />
    </>
  );
}
