/** Handles one alarm or many with one comment (required, up to 500 characters). */
import { useState } from 'react';
import { App, Form, Input, Modal } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/form-errors';
import { handleAlarm, handleAlarms, refreshAlarms, type WarnDto } from '../api/notices-api';

export function HandleDialog({ alarms, onClose }: { alarms: WarnDto[]; onClose: (handled: boolean) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<{ Comments: string }>();
  const [saving, setSaving] = useState(false);
  const [first] = alarms;
  const open = alarms.length > 0;

  const submit = async ({ Comments }: { Comments: string }) => {
    if (!first) return;
    setSaving(true);
    try {
      const res =
        alarms.length === 1
          ? await handleAlarm(first.DeviceSn, first.Id, Comments)
          : await handleAlarms(
              alarms.map((a) => a.Id),
              Comments,
            );
      void message.success(res.message || t('notices.handled'));
      form.resetFields();
      await refreshAlarms(client);
      onClose(true);
    } catch (error) {
      void message.error(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={
        alarms.length === 1
          ? t('notices.handleOne', { name: first?.Description || first?.Code })
          : t('notices.handleMany', { count: alarms.length })
      }
      okText={t('notices.handle')}
      confirmLoading={saving}
      onOk={() => {
        form.submit();
      }}
      onCancel={() => {
        onClose(false);
      }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={(values) => void submit(values)} preserve={false}>
        <Form.Item
          name="Comments"
          label={t('notices.fields.comments')}
          rules={[
            { required: true, whitespace: true, message: t('notices.commentsRequired') },
            { max: 500, message: t('notices.commentsTooLong') },
          ]}
        >
          <Input.TextArea rows={4} maxLength={500} showCount autoFocus placeholder={t('notices.commentsPlaceholder')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
