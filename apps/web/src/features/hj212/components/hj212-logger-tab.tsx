/**
 * A device's HJ 212 logger (issue 21): its MN and password (set, changed or removed by those who
 * manage devices; the password is never shown), whether a logger is connected as it, and what it
 * sent (counted by every server instance) — packets received, stored, refused by reason, the last refusal.
 */
import { Alert, App, Button, Descriptions, Flex, Form, Input, Popconfirm, Skeleton, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { hj212Mn, hj212Password } from '@sluice/shared/hj212.schema';
import { formatDateTime } from '../../../lib/dates';
import { applyServerFieldErrors, errorMessage } from '../../../lib/form-errors';
import { useGroupId } from '../../../lib/group';
import { useMayOperate } from '../../../lib/operates';
import { zodFieldRules } from '../../../lib/zod-form';
import { hj212LoggerQueryOptions, useRemoveHj212Logger, useSaveHj212Logger } from '../api/hj212-api';

export function Hj212LoggerTab({ sn }: { sn: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const g = useGroupId();
  const mayManage = useMayOperate('device.manage');
  const logger = useQuery(hj212LoggerQueryOptions(g, sn));
  const save = useSaveHj212Logger(g, sn);
  const remove = useRemoveHj212Logger(g, sn);
  const [form] = Form.useForm<{ Mn: string; Password: string }>();

  if (logger.isPending) return <Skeleton active paragraph={{ rows: 2 }} />;
  if (logger.isError) {
    return (
      <Alert
        type="error"
        showIcon
        title={errorMessage(logger.error)}
        action={<Button onClick={() => void logger.refetch()}>{t('common.retry')}</Button>}
      />
    );
  }
  const data = logger.data;
  const refused = Object.entries(data.Refused);
  return (
    <Flex vertical gap={16}>
      {data.ListenerPort === null ? (
        <Alert type="warning" showIcon title={t('hj212.listenerOff')} />
      ) : (
        <Typography.Text type="secondary">{t('hj212.loggerHint', { port: data.ListenerPort })}</Typography.Text>
      )}
      {mayManage && (
        <Form
          form={form}
          layout="inline"
          initialValues={{ Mn: data.Mn, Password: '' }}
          onFinish={(values) => {
            save.mutate(values, {
              onSuccess: (res) => {
                form.setFieldsValue({ Password: '' });
                void message.success(res.message);
              },
              onError: (error) => {
                if (!applyServerFieldErrors(form, error, ['Mn', 'Password'])) void message.error(errorMessage(error));
              },
            });
          }}
        >
          <Form.Item name="Mn" label={t('hj212.mn')} rules={zodFieldRules(hj212Mn)} style={{ minWidth: 260 }}>
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item name="Password" label={t('hj212.password')} rules={zodFieldRules(hj212Password)}>
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" loading={save.isPending}>
              {t('common.save')}
            </Button>
          </Form.Item>
          {data.Mn && (
            <Form.Item>
              <Popconfirm
                title={t('hj212.removeConfirm', { mn: data.Mn })}
                okText={t('sites.actions.delete')}
                cancelText={t('common.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => {
                  remove.mutate(undefined, {
                    onSuccess: (res) => {
                      form.setFieldsValue({ Mn: '', Password: '' });
                      void message.success(res.message);
                    },
                    onError: (error) => void message.error(errorMessage(error)),
                  });
                }}
              >
                <Button danger>{t('hj212.remove')}</Button>
              </Popconfirm>
            </Form.Item>
          )}
        </Form>
      )}
      {data.Mn ? (
        <Descriptions
          size="small"
          column={{ xs: 1, sm: 2 }}
          items={[
            { key: 'mn', label: t('hj212.mn'), children: data.Mn },
            {
              key: 'state',
              label: t('hj212.state'),
              children: data.Connected ? <Tag color="success">{t('hj212.connected')}</Tag> : <Tag>{t('hj212.disconnected')}</Tag>,
            },
            { key: 'last', label: t('hj212.lastPacket'), children: data.LastPacket ? formatDateTime(data.LastPacket) : '—' },
            {
              key: 'counts',
              label: t('hj212.counts'),
              children: t('hj212.countsValue', { received: data.Received, stored: data.Stored }),
            },
            {
              key: 'refused',
              label: t('hj212.refused'),
              children: refused.length === 0 ? '0' : refused.map(([reason, n]) => `${reason} ${String(n)}`).join(', '),
            },
            { key: 'lastRefusal', label: t('hj212.lastRefusal'), children: data.LastRefusal || '—' },
          ]}
        />
      ) : (
        <Typography.Text type="secondary">{t('hj212.notLogger')}</Typography.Text>
      )}
    </Flex>
  );
}
