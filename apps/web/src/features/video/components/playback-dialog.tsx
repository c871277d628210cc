/**
 * 选择回放时间和类型 (§2): the playback type (SD card / NVR or cloud storage) and the start and
 * end, by default today 00:00:00 to 23:59:59 (§9); the start not after the end, and the range
 * within the server's limit (§5), checked by the shared schema before anything is asked.
 */
import { DatePicker, Form, Modal, Radio } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { playbackQuery, RECORDING_TYPES, type RecordingType } from '@sluice/shared/video.schema';
import { translateMessageRef } from '../../../lib/zod-form';
import type { PlaybackRange } from '../api/video-api';

interface Values {
  recType: RecordingType;
  start: Dayjs;
  end: Dayjs;
}

const FORMAT = 'YYYY-MM-DD HH:mm:ss';

export function PlaybackDialog({
  open,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  onCancel: () => void;
  onConfirm: (range: PlaybackRange) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const rangeRule = (field: 'startTime' | 'endTime') => ({
    validator: () => {
      const { start, end, recType } = form.getFieldsValue() as Partial<Values>;
      if (!start || !end) return Promise.resolve();
      const result = playbackQuery.safeParse({ startTime: start.valueOf(), endTime: end.valueOf(), recType });
      const issue = result.success ? undefined : result.error.issues.find((i) => i.path[0] === field);
      return issue ? Promise.reject(new Error(translateMessageRef(issue.message))) : Promise.resolve();
    },
  });
  return (
    <Modal
      open={open}
      title={t('video.playbackDialog.title')}
      okText={t('video.playbackDialog.confirm')}
      cancelText={t('common.cancel')}
      destroyOnHidden
      onCancel={onCancel}
      onOk={() => {
        void form.validateFields().then((values) => {
          onConfirm({ recType: values.recType, startTime: values.start.valueOf(), endTime: values.end.valueOf() });
        });
      }}
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ recType: 'card', start: dayjs().startOf('day'), end: dayjs().endOf('day').millisecond(0) }}
      >
        <Form.Item name="recType" label={t('video.playbackDialog.type')}>
          <Radio.Group
            options={RECORDING_TYPES.map((type) => ({ value: type, label: t(`video.playbackDialog.${type}`) }))}
            optionType="button"
          />
        </Form.Item>
        <Form.Item
          name="start"
          label={t('video.playbackDialog.start')}
          rules={[{ required: true, message: t('rule.required') }, rangeRule('startTime')]}
          dependencies={['end']}
        >
          <DatePicker showTime format={FORMAT} style={{ width: '100%' }} allowClear={false} />
        </Form.Item>
        <Form.Item
          name="end"
          label={t('video.playbackDialog.end')}
          rules={[{ required: true, message: t('rule.required') }, rangeRule('endTime')]}
          dependencies={['start']}
        >
          <DatePicker showTime format={FORMAT} style={{ width: '100%' }} allowClear={false} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
