/** An alarm's code name in its warn type's colour, and its state (active or cleared; handled or not). */
import { Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { WarnDto } from '../api/notices-api';
import { useStoredName } from '../../../lib/stored-names';

/** The warn type's colour is a dot beside the name: the name keeps the theme's text colour (readable in both themes). */
export function AlarmName({ alarm }: { alarm: Pick<WarnDto, 'Code' | 'Description' | 'Color' | 'TypeName'> }) {
  const name = useStoredName();
  return (
    <Tag title={name(alarm.TypeName)} style={{ whiteSpace: 'normal' }}>
      <span
        aria-hidden
        style={{
          display: 'inline-block',
          width: 8,
          height: 8,
          borderRadius: '50%',
          background: alarm.Color || 'var(--sluice-warning)',
          marginInlineEnd: 6,
        }}
      />
      {name(alarm.Description) || alarm.Code}
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
