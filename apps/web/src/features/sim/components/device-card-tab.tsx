/**
 * A device's SIM card: its ICCID (set, changed or removed by those who manage devices), and on
 * request what the SIM provider knows of it (carrier, state, data used of the plan, dates), or
 * the provider's clear refusal (no account configured, card unknown, provider unreachable).
 */
import { useEffect } from 'react';
import { Alert, App, Button, Descriptions, Flex, Form, Input, Popconfirm, Progress, Skeleton, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { iccid } from '@sluice/shared/device.schema';
import { formatNumber } from '@sluice/shared/number-format';
import { applyServerFieldErrors, errorMessage } from '../../../lib/form-errors';
import { useMayOperate } from '../../../lib/operates';
import { zodFieldRules } from '../../../lib/zod-form';
import {
  deviceCardQueryOptions,
  simCardQueryOptions,
  useRemoveDeviceCard,
  useSaveDeviceCard,
  type SimCardDto,
} from '../api/device-card-api';
import { useGroupId } from '../../../lib/group';

function SimFacts({ sim }: { sim: SimCardDto }) {
  const { t } = useTranslation();
  const used = sim.DataUsedMB ?? 0;
  const plan = sim.DataPlanMB;
  return (
    <Descriptions
      size="small"
      column={{ xs: 1, sm: 2 }}
      items={[
        { key: 'carrier', label: t('deviceCard.carrier'), children: sim.Carrier || '—' },
        { key: 'status', label: t('deviceCard.status'), children: sim.Status || '—' },
        { key: 'msisdn', label: t('deviceCard.msisdn'), children: sim.Msisdn || '—' },
        { key: 'imsi', label: t('deviceCard.imsi'), children: sim.Imsi || '—' },
        {
          key: 'data',
          label: t('deviceCard.data'),
          children: plan ? (
            <Flex vertical gap={2} style={{ minWidth: 160 }}>
              <span>{t('deviceCard.usedOf', { used: formatNumber(used), plan: formatNumber(plan, 0) })}</span>
              <Progress
                percent={Math.min(100, Math.floor((used / plan) * 100))}
                size="small"
                status={used > plan ? 'exception' : 'normal'}
                showInfo={false}
              />
            </Flex>
          ) : (
            t('deviceCard.usedOnly', { used: formatNumber(used) })
          ),
        },
        { key: 'activated', label: t('deviceCard.activated'), children: sim.ActivatedAt || '—' },
        { key: 'expires', label: t('deviceCard.expires'), children: sim.ExpiresAt || '—' },
        { key: 'account', label: t('deviceCard.account'), children: sim.SimAccount },
      ]}
    />
  );
}

export function DeviceCardTab({ sn }: { sn: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const g = useGroupId();
  const mayManage = useMayOperate('device.manage');
  const card = useQuery(deviceCardQueryOptions(g, sn));
  const sim = useQuery(simCardQueryOptions(g, sn));
  const save = useSaveDeviceCard(g, sn);
  const remove = useRemoveDeviceCard(g, sn);
  const [form] = Form.useForm<{ ICCID: string }>();
  const current = card.data?.ICCID ?? '';

  useEffect(() => {
    form.setFieldsValue({ ICCID: current });
  }, [form, current]);

  if (card.isPending) return <Skeleton active paragraph={{ rows: 2 }} />;
  if (card.isError) return <Alert type="error" showIcon title={errorMessage(card.error)} />;

  return (
    <Flex vertical gap={16}>
      {mayManage ? (
        <Form
          form={form}
          layout="inline"
          onFinish={({ ICCID }) => {
            save.mutate(ICCID.trim(), {
              onSuccess: (res) => void message.success(res.message || t('sites.actions.saved')),
              onError: (error) => {
                if (!applyServerFieldErrors(form, error, ['ICCID'])) void message.error(errorMessage(error));
              },
            });
          }}
        >
          <Form.Item name="ICCID" label="ICCID" rules={zodFieldRules(iccid)} style={{ minWidth: 280 }}>
            <Input autoComplete="off" inputMode="numeric" placeholder={t('deviceCard.iccidPlaceholder')} />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" loading={save.isPending}>
              {t('common.save')}
            </Button>
          </Form.Item>
          {card.data && (
            <Form.Item>
              <Popconfirm
                title={t('deviceCard.removeConfirm', { iccid: current })}
                okText={t('sites.actions.delete')}
                cancelText={t('common.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => {
                  remove.mutate(card.data?.Id ?? 0, {
                    onSuccess: (res) => {
                      form.setFieldsValue({ ICCID: '' });
                      void message.success(res.message || t('sites.actions.deleted'));
                    },
                    onError: (error) => void message.error(errorMessage(error)),
                  });
                }}
              >
                <Button danger>{t('deviceCard.remove')}</Button>
              </Popconfirm>
            </Form.Item>
          )}
        </Form>
      ) : (
        <Typography.Text>ICCID: {current || t('deviceCard.none')}</Typography.Text>
      )}
      {card.data ? (
        <Flex vertical gap={8}>
          <div>
            <Button loading={sim.isFetching} onClick={() => void sim.refetch()}>
              {sim.data ? t('deviceCard.refresh') : t('deviceCard.lookUp')}
            </Button>
          </div>
          {sim.isError && <Alert type="warning" showIcon title={errorMessage(sim.error)} />}
          {sim.data && <SimFacts sim={sim.data} />}
        </Flex>
      ) : (
        <Typography.Text type="secondary">{t('deviceCard.noCard')}</Typography.Text>
      )}
    </Flex>
  );
}
