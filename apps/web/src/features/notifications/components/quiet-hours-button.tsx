/**
 * The group's quiet hours, from the rules screen's toolbar: a button saying whether they are on,
 * opening a small form (on or off, from, until as HH:mm) checked with the shared schema.
 */
import { useState } from 'react';
import { App, Button, Form, Input, Modal, Switch } from 'antd';
import { MoonOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { quietHoursRequest, type QuietHoursDto } from '@sluice/shared/notify.schema';
import { zodFieldRules, zodObjectRule, objectShape } from '../../../lib/zod-form';
import { applyServerFieldErrors, errorMessage } from '../../../lib/form-errors';
import { useQuietHours, useSaveQuietHours } from '../api/notifications-api';

const shape = objectShape(quietHoursRequest);
const rulesOf = (name: 'Start' | 'End') => {
  const field = shape?.[name];
  return field ? zodFieldRules(field) : [];
};

export function QuietHoursButton({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const quiet = useQuietHours();
  const save = useSaveQuietHours();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<QuietHoursDto>();
  const label = quiet.data?.Enabled
    ? t('notify.rules.quietOn', { start: quiet.data.Start, end: quiet.data.End })
    : t('notify.rules.quietOff');

  const onFinish = (values: QuietHoursDto) => {
    save.mutate(values, {
      onSuccess: () => {
        void message.success(t('notify.rules.quietSaved'));
        setOpen(false);
      },
      onError: (error) => {
        if (!applyServerFieldErrors(form, error, ['Enabled', 'Start', 'End'])) void message.error(errorMessage(error));
      },
    });
  };

  return (
    <>
      <Button
        icon={<MoonOutlined aria-hidden />}
        onClick={() => {
          setOpen(true);
        }}
        disabled={!canEdit || !quiet.data}
      >
        {label}
      </Button>
      <Modal
        open={open}
        title={t('notify.rules.quietTitle')}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        onOk={() => {
          form.submit();
        }}
        onCancel={() => {
          setOpen(false);
        }}
        confirmLoading={save.isPending}
        destroyOnHidden
      >
        <Form form={form} name="quiet-hours" layout="vertical" initialValues={quiet.data} onFinish={onFinish}>
          <Form.Item name="Enabled" label={t('notify.rules.quietEnabled')} valuePropName="checked" htmlFor="quiet-hours-Enabled">
            <Switch id="quiet-hours-Enabled" />
          </Form.Item>
          <Form.Item name="Start" label={t('notify.rules.quietStart')} rules={rulesOf('Start')} htmlFor="quiet-hours-Start">
            <Input id="quiet-hours-Start" placeholder="22:00" inputMode="numeric" autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="End"
            label={t('notify.rules.quietEnd')}
            rules={[...rulesOf('End'), zodObjectRule(quietHoursRequest, 'End')]}
            dependencies={['Start']}
            extra={t('notify.rules.quietHelp')}
            htmlFor="quiet-hours-End"
          >
            <Input id="quiet-hours-End" placeholder="07:00" inputMode="numeric" autoComplete="off" />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
