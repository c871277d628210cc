/** One alarm's details, with a link to its device's page and its handling. */
import { App, Button, Descriptions, Drawer, Popconfirm, Space, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/dates';
import { homePath } from '../../../lib/paths';
import { MOBILE_QUERY, useMediaQuery } from '../../../lib/use-media-query';
import { errorMessage } from '../../../lib/form-errors';
import { useMayOperate } from '../../../lib/operates';
import { deleteAlarms, refreshAlarms, type WarnDto } from '../api/notices-api';
import { AlarmName, AlarmState } from './alarm-tags';
import { useStoredName } from '../../../lib/stored-names';

export function AlarmDrawer({
  alarm,
  mayHandle,
  onHandle,
  onClose,
}: {
  alarm: WarnDto | undefined;
  mayHandle: boolean;
  onHandle: (alarm: WarnDto) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const name = useStoredName();
  const { message } = App.useApp();
  const client = useQueryClient();
  const mayDelete = useMayOperate('device.manage');
  const mobile = useMediaQuery(MOBILE_QUERY);
  const remove = async (target: WarnDto) => {
    try {
      const res = await deleteAlarms([target.Id]);
      void message.success(res.message || t('resource.deleted'));
      await refreshAlarms(client);
      onClose();
    } catch (error) {
      void message.error(errorMessage(error));
    }
  };
  const when = (value: number | null) => (value === null ? '—' : formatDateTime(value));
  return (
    <Drawer
      open={alarm !== undefined}
      onClose={onClose}
      title={alarm ? name(alarm.Description) || alarm.Code : ''}
      size={mobile ? '100%' : 480}
      extra={
        alarm && (
          <Space>
            {mayDelete && (
              <Popconfirm
                title={t('notices.deleteTitle')}
                description={t('resource.deleteHint')}
                okText={t('notices.delete')}
                okButtonProps={{ danger: true }}
                onConfirm={() => {
                  void remove(alarm);
                }}
              >
                <Button danger>{t('notices.delete')}</Button>
              </Popconfirm>
            )}
            {mayHandle && alarm.State === 0 && (
              <Button
                type="primary"
                onClick={() => {
                  onHandle(alarm);
                }}
              >
                {t('notices.handle')}
              </Button>
            )}
          </Space>
        )
      }
    >
      {alarm && (
        <Descriptions column={1} bordered size="small">
          <Descriptions.Item label={t('notices.fields.name')}>
            <AlarmName alarm={alarm} />
          </Descriptions.Item>
          <Descriptions.Item label={t('notices.fields.code')}>{alarm.Code}</Descriptions.Item>
          <Descriptions.Item label={t('notices.fields.type')}>{name(alarm.TypeName) || '—'}</Descriptions.Item>
          <Descriptions.Item label={t('notices.fields.state')}>
            <AlarmState alarm={alarm} />
          </Descriptions.Item>
          <Descriptions.Item label={t('notices.fields.device')}>
            <Link to={homePath('device', alarm.DeviceSn)}>{alarm.DeviceName || alarm.DeviceSn}</Link>
            <Typography.Text type="secondary"> {alarm.DeviceSn}</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('notices.fields.station')}>{alarm.ProjectName || '—'}</Descriptions.Item>
          <Descriptions.Item label={t('notices.fields.source')}>
            {t(`notices.source.${alarm.Source}`, alarm.Source)}
          </Descriptions.Item>
          <Descriptions.Item label={t('notices.fields.opened')}>{when(alarm.Dt)}</Descriptions.Item>
          <Descriptions.Item label={t('notices.fields.cleared')}>{when(alarm.ClearedAt)}</Descriptions.Item>
          <Descriptions.Item label={t('notices.fields.handled')}>
            {alarm.HandledAt === null ? '—' : `${when(alarm.HandledAt)} · ${alarm.HandledBy}`}
          </Descriptions.Item>
          <Descriptions.Item label={t('notices.fields.comments')}>{alarm.Comments || '—'}</Descriptions.Item>
        </Descriptions>
      )}
    </Drawer>
  );
}
