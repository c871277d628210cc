/**
 * Photos of a record (a lab report, a repair before and after, a round on site): shown, added
 * from the phone's camera or files (png, jpeg, bmp up to 5 MB, checked again by the server) and
 * deleted after confirmation.
 */
import { useState } from 'react';
import { App, Button, Empty, Flex, Image, Modal, Popconfirm, Radio, Tag, Upload } from 'antd';
import { CameraOutlined, DeleteOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { RECORD_PHOTO_LIMIT, type RecordKind, type RecordPhotoDto } from '@sluice/shared/field-records.schema';
import { isApiError } from '../../../lib/api-client';
import { useGroupId } from '../../../lib/group';
import { useMayOperate } from '../../../lib/operates';
import { pollsResource, qualityResource, removeRecordPhoto, repairsResource, uploadRecordPhoto } from '../api/records-api';

const RESOURCE_KEYS = { input: qualityResource.keys.all, repair: repairsResource.keys.all, poll: pollsResource.keys.all };

export function RecordPhotosButton({
  kind,
  id,
  name,
  photos,
}: {
  kind: RecordKind;
  id: number;
  name: string;
  photos: RecordPhotoDto[];
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const g = useGroupId();
  const client = useQueryClient();
  const mayEnter = useMayOperate('records.enter');
  const [open, setOpen] = useState(false);
  const [stage, setStage] = useState(kind === 'repair' ? 'before' : '');
  const [busy, setBusy] = useState(false);
  const refresh = () => client.invalidateQueries({ queryKey: RESOURCE_KEYS[kind] });
  const fail = (error: unknown) => {
    void message.error(isApiError(error) ? error.message : String(error));
  };

  return (
    <>
      <Button
        size="small"
        icon={<CameraOutlined aria-hidden />}
        aria-label={t('records.photos.named', { name })}
        onClick={() => {
          setOpen(true);
        }}
      >
        {t('records.photos.button', { count: photos.length })}
      </Button>
      <Modal
        open={open}
        title={t('records.photos.named', { name })}
        footer={null}
        onCancel={() => {
          setOpen(false);
        }}
        destroyOnHidden
      >
        <Flex vertical gap={12}>
          {photos.length === 0 ? (
            <Empty description={t('records.photos.empty')} />
          ) : (
            <Image.PreviewGroup>
              <Flex wrap gap={8}>
                {photos.map((photo) => (
                  <Flex key={photo.Id} vertical gap={4} align="center">
                    <Image
                      src={photo.url}
                      width={96}
                      height={96}
                      style={{ objectFit: 'cover' }}
                      alt={t('records.photos.alt', { name })}
                    />
                    {photo.Stage ? <Tag>{t(`records.photos.stage.${photo.Stage as 'before' | 'after'}`)}</Tag> : null}
                    {mayEnter ? (
                      <Popconfirm
                        title={t('records.photos.confirmDelete')}
                        okText={t('common.delete')}
                        onConfirm={() => {
                          void removeRecordPhoto(g, photo.Id).then(refresh, fail);
                        }}
                      >
                        <Button
                          size="small"
                          danger
                          icon={<DeleteOutlined aria-hidden />}
                          aria-label={t('records.photos.delete')}
                        />
                      </Popconfirm>
                    ) : null}
                  </Flex>
                ))}
              </Flex>
            </Image.PreviewGroup>
          )}
          {mayEnter ? (
            <Flex gap={8} wrap align="center">
              {kind === 'repair' ? (
                <Radio.Group
                  value={stage}
                  onChange={(e) => {
                    setStage(String(e.target.value));
                  }}
                  optionType="button"
                  options={[
                    { value: 'before', label: t('records.photos.stage.before') },
                    { value: 'after', label: t('records.photos.stage.after') },
                  ]}
                />
              ) : null}
              <Upload
                accept="image/png,image/jpeg,image/bmp"
                showUploadList={false}
                beforeUpload={async (file) => {
                  if (file.size > RECORD_PHOTO_LIMIT) {
                    void message.error(t('records.photos.tooLarge'));
                    return false;
                  }
                  setBusy(true);
                  try {
                    await uploadRecordPhoto(g, kind, id, file, stage);
                    await refresh();
                    void message.success(t('records.photos.added'));
                  } catch (error) {
                    fail(error);
                  } finally {
                    setBusy(false);
                  }
                  return false;
                }}
              >
                <Button type="primary" icon={<CameraOutlined aria-hidden />} loading={busy}>
                  {t('records.photos.add')}
                </Button>
              </Upload>
            </Flex>
          ) : null}
        </Flex>
      </Modal>
    </>
  );
}
