/**
 * The discharge standard a station holds (GB 18918-2002 class 1A, 1B, 2 or 3, or a table of the
 * group's), inherited from its project when it has none; managers change it here.
 */
import { App, Descriptions, Flex, Select, Tag, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { BUILT_IN_STANDARDS, type StandardLimits } from '@sluice/shared/field-records.schema';
import { isApiError } from '../../../lib/api-client';
import { useGroupId } from '../../../lib/group';
import { useMayOperate } from '../../../lib/operates';
import { setStationStandard, stationStandardKey, useStandards, useStationStandard } from '../api/records-api';

const LIMIT_KEYS: (keyof StandardLimits)[] = ['COD', 'BOD5', 'NH3_N', 'TN', 'TP', 'SS', 'FC'];

export function StationStandard({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const g = useGroupId();
  const client = useQueryClient();
  const mayManage = useMayOperate('records.manage');
  const held = useStationStandard(g, projectId);
  const own = useStandards(g);
  const options = [
    ...BUILT_IN_STANDARDS.map((ref) => ({ value: ref, label: `GB 18918-2002 ${ref.slice('GB18918-'.length)}` })),
    ...(own.data ?? []).map((s) => ({ value: `custom:${String(s.Id)}`, label: s.Name })),
  ];
  const limits = held.data?.Limits;
  const change = async (value: string | undefined) => {
    try {
      const res = await setStationStandard(g, projectId, value ?? '');
      void message.success(res.message);
      await client.invalidateQueries({ queryKey: stationStandardKey(g, projectId) });
      await client.invalidateQueries({ queryKey: ['device-inputs'] });
    } catch (error) {
      void message.error(isApiError(error) ? error.message : String(error));
    }
  };
  return (
    <Flex vertical gap={8}>
      <Flex gap={8} align="center" wrap>
        <Typography.Text strong id={`standard-${String(projectId)}`}>
          {t('records.standard')}
        </Typography.Text>
        {mayManage ? (
          <Select
            aria-labelledby={`standard-${String(projectId)}`}
            style={{ minWidth: 220 }}
            loading={held.isPending}
            value={held.data?.Inherited ? undefined : held.data?.Standard || undefined}
            placeholder={held.data?.Inherited ? t('records.inherited', { name: held.data.Name }) : t('records.noStandard')}
            allowClear
            options={options}
            onChange={(value: string | undefined) => {
              void change(value);
            }}
          />
        ) : (
          <Tag>{held.data?.Name || t('records.noStandard')}</Tag>
        )}
        {held.data?.Inherited ? <Typography.Text type="secondary">{t('records.inheritedNote')}</Typography.Text> : null}
      </Flex>
      {limits ? (
        <Descriptions size="small" column={{ xs: 2, sm: 4, md: 8 }} bordered>
          {LIMIT_KEYS.map((k) => (
            <Descriptions.Item key={k} label={t(`records.params.${k as 'COD'}`)}>
              {limits[k] ?? '—'}
            </Descriptions.Item>
          ))}
          <Descriptions.Item label={t('records.params.PH')}>
            {limits.PH_Min ?? '—'}–{limits.PH_Max ?? '—'}
          </Descriptions.Item>
        </Descriptions>
      ) : null}
    </Flex>
  );
}
