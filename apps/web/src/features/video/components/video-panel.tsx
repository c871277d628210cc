/**
 * The video panel (spec §2): the device's cameras on the left (20 % wide, pinned or shown on
 * hover) with add, edit and delete for those who manage devices, and the player of the chosen
 * camera on the right. A self-contained panel: give it the device's serial number.
 */
import { useMemo, useState } from 'react';
import { App, Button, Empty, Flex, List, Popconfirm, Skeleton, theme, Tooltip, Typography } from 'antd';
import {
  DeleteOutlined,
  EditOutlined,
  PlusOutlined,
  PushpinFilled,
  PushpinOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { QueryError } from '../../../components/query-state';
import { ResourceFormDialog, type FormDialogState } from '../../../components/resource-table/resource-form-dialog';
import { errorMessage } from '../../../lib/form-errors';
import { useGroupId } from '../../../lib/group';
import { useMayOperate } from '../../../lib/operates';
import { MOBILE_QUERY, useMediaQuery } from '../../../lib/use-media-query';
import { camerasResource, type DeviceVideoDto } from '../api/video-api';
import { cameraForm } from './camera-form';
import { CameraPlayer } from './camera-player';
import './video-panel.css';

export function VideoPanel({ sn }: { sn: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const g = useGroupId();
  const client = useQueryClient();
  const mayManage = useMayOperate('device.manage');
  const mobile = useMediaQuery(MOBILE_QUERY);
  const ctx = useMemo(() => ({ groupId: g, path: { deviceSn: sn } }), [g, sn]);
  const list = useQuery({ ...camerasResource.listQueryOptions(ctx, {}), enabled: g > 0 && sn !== '' });
  const cameras = useMemo(() => list.data?.rows ?? [], [list.data]);
  /** The chosen camera, with the list it was chosen from: §4, changing the camera list clears the selection. */
  const [selected, setSelected] = useState<{ id: number; switched: boolean; list: string }>();
  const [pinned, setPinned] = useState(true);
  const [dialog, setDialog] = useState<FormDialogState<DeviceVideoDto>>();

  const signature = JSON.stringify(cameras);
  const current = selected?.list === signature ? selected : undefined;

  const remove = useMutation({
    mutationFn: (camera: DeviceVideoDto) => camerasResource.remove(ctx, camera.Id),
    onSuccess: async (response) => {
      void message.success(response.message || t('resource.deleted'));
      await client.invalidateQueries({ queryKey: camerasResource.keys.all });
    },
    onError: (error) => {
      void message.error(errorMessage(error));
    },
  });

  const camera = cameras.find((c) => c.Id === current?.id);
  const listOpen = pinned || mobile;

  const cameraList = list.isError ? (
    <QueryError query={list} />
  ) : list.isPending ? (
    <Skeleton active paragraph={{ rows: 4 }} />
  ) : cameras.length === 0 ? (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('common.empty')} />
  ) : (
    <List
      size="small"
      dataSource={cameras}
      renderItem={(item) => (
        <List.Item
          className={item.Id === current?.id ? 'sluice-video-item is-selected' : 'sluice-video-item'}
          actions={
            mayManage
              ? [
                  <Tooltip key="edit" title={t('common.edit')}>
                    <Button
                      type="text"
                      size="small"
                      icon={<EditOutlined />}
                      aria-label={t('video.editCamera', { name: item.VideoName })}
                      onClick={() => {
                        setDialog({ mode: 'edit', row: item });
                      }}
                    />
                  </Tooltip>,
                  <Popconfirm
                    key="delete"
                    title={t('video.deleteConfirm', { name: item.VideoName })}
                    okText={t('common.yes')}
                    cancelText={t('common.no')}
                    okButtonProps={{ danger: true, loading: remove.isPending }}
                    onConfirm={() => {
                      remove.mutate(item);
                    }}
                  >
                    <Button
                      type="text"
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('video.deleteCamera', { name: item.VideoName })}
                    />
                  </Popconfirm>,
                ]
              : []
          }
        >
          <button
            type="button"
            className="sluice-video-select"
            aria-pressed={item.Id === current?.id}
            onClick={() => {
              setSelected({ id: item.Id, switched: current !== undefined && current.id !== item.Id, list: signature });
            }}
          >
            <VideoCameraOutlined aria-hidden />
            <span className="sluice-video-name" title={item.VideoName}>
              {item.VideoName}
            </span>
          </button>
        </List.Item>
      )}
    />
  );

  return (
    <div className={`sluice-video-panel${listOpen ? ' is-pinned' : ''}`} data-testid="video-panel">
      <nav className="sluice-video-list" aria-label={t('video.cameras')} style={{ background: token.colorBgContainer }}>
        <Flex align="center" justify="space-between" gap={4} className="sluice-video-list-head">
          <Typography.Text strong>{t('video.title')}</Typography.Text>
          <Flex gap={2}>
            {mayManage && (
              <Tooltip title={t('video.add')}>
                <Button
                  size="small"
                  type="text"
                  icon={<PlusOutlined />}
                  aria-label={t('video.add')}
                  onClick={() => {
                    setDialog({ mode: 'create' });
                  }}
                />
              </Tooltip>
            )}
            {!mobile && (
              <Tooltip title={pinned ? t('video.unpin') : t('video.pin')}>
                <Button
                  size="small"
                  type="text"
                  icon={pinned ? <PushpinFilled /> : <PushpinOutlined />}
                  aria-label={pinned ? t('video.unpin') : t('video.pin')}
                  aria-pressed={pinned}
                  onClick={() => {
                    setPinned((p) => !p);
                  }}
                />
              </Tooltip>
            )}
          </Flex>
        </Flex>
        {cameraList}
      </nav>
      <section className="sluice-video-main">
        {camera ? (
          <CameraPlayer key={camera.Id} g={g} sn={sn} camera={camera} switched={current?.switched ?? false} />
        ) : (
          <div className="sluice-video-placeholder">
            <Empty
              image={<VideoCameraOutlined className="sluice-video-placeholder-icon" />}
              description={t('video.placeholder')}
            />
          </div>
        )}
      </section>
      <ResourceFormDialog
        resource={camerasResource}
        rowName={(row) => row.VideoName}
        form={cameraForm}
        ctx={ctx}
        state={dialog}
        onClose={() => {
          setDialog(undefined);
        }}
      />
    </div>
  );
}
