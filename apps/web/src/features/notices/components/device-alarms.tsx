/** A device's active alarms by name, as soon as its page opens; fetched again when an alarm event of the device arrives. */
import { Flex, Skeleton, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { QueryError } from '../../../components/query-state';
import { deviceAlarmsQueryOptions } from '../api/notices-api';
import { AlarmName } from './alarm-tags';

export function DeviceAlarms({ sn }: { sn: string }) {
  const { t } = useTranslation();
  const alarms = useQuery(deviceAlarmsQueryOptions(sn));
  if (alarms.isPending) return <Skeleton active title={false} paragraph={{ rows: 1 }} />;
  if (alarms.isError) return <QueryError query={alarms} title={t('notices.deviceFailed')} />;
  if (alarms.data.length === 0) return null;
  return (
    <Flex gap={4} wrap align="center" role="status" aria-label={t('notices.deviceAlarms')} data-testid="device-alarms">
      <Typography.Text strong>{t('notices.deviceAlarms')}:</Typography.Text>
      {alarms.data.map((w) => (
        <AlarmName key={w.Id} alarm={w} />
      ))}
    </Flex>
  );
}
