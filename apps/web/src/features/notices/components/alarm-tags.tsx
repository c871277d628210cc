/** An alarm's code name in its warn type's colour, and its state (active or cleared; handled or not). */
import { Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { WarnDto } from '../api/notices-api';

export function AlarmName({ alarm }: { alarm: Pick<WarnDto, 'Code' | 'Description' | 'Color' | 'TypeName'> }) {
  return (
    <Tag color={alarm.Color || 'warning'} title={alarm.TypeName}>
      {alarm.Description || alarm.Code}
    </Tag>
  );
}

export function AlarmState({ alarm }: { alarm: Pick<WarnDto, 'Active' | 'State'> }) {
  const { t } = useTranslation();
  return (
    <Space size={4} wrap>
      {alarm.Active === 1 ? <Tag color="error">{t('notices.active')}</Tag> : <Tag>{t('notices.cleared')}</Tag>}
      {alarm.State === 1 ? (
        <Tag color="success">{t('notices.handledTag')}</Tag>
      ) : (
        <Tag color="warning">{t('notices.unhandled')}</Tag>
      )}
    </Space>
  );
}
