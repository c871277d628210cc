/**
 * A device's log (spec §7 {kind}/{deviceSn}/DeviceLog): the commands sent to it — who, when, the
 * data point, old and new value, and what became of each (sent, done, refused by the device with
 * its reason, timed out) — and operators' notes; paged, with a time range, a search and the order.
 * Whoever may control the device adds a note; an administrator deletes a row after a question.
 */
import { useState } from 'react';
import { App, Button, DatePicker, Flex, Form, Input, Modal, Select, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DEVICE_LOG_STATE, deviceLogNoteRequest } from '@sluice/shared/telemetry.schema';
import { QueryError } from '../../../components/query-state';
import { useCurrentUser } from '../../../lib/current-user';
import { DATE_FORMAT, formatDateTime } from '../../../lib/dates';
import { DATE_TIME_WIDTH, DateTimeText } from '../../../components/cells';
import { errorMessage } from '../../../lib/form-errors';
import { useMayOperate } from '../../../lib/operates';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { zodFieldRules } from '../../../lib/zod-form';
import { addLogNote, deleteLog, deviceLogQueryOptions, refreshDeviceLog, type DeviceLogDto } from '../api/device-control-api';
import { useStoredName } from '../../../lib/stored-names';

const STATE_COLORS: Record<number, string> = {
  [DEVICE_LOG_STATE.sent]: 'processing',
  [DEVICE_LOG_STATE.done]: 'success',
  [DEVICE_LOG_STATE.refusedByDevice]: 'error',
  [DEVICE_LOG_STATE.messageRefused]: 'error',
  [DEVICE_LOG_STATE.timedOut]: 'warning',
  [DEVICE_LOG_STATE.note]: 'default',
};

export function LogState({ state }: { state: number }) {
  const { t } = useTranslation();
  const label =
    state === DEVICE_LOG_STATE.sent
      ? t('deviceLog.states.sent')
      : state === DEVICE_LOG_STATE.done
        ? t('deviceLog.states.done')
        : state === DEVICE_LOG_STATE.refusedByDevice
          ? t('deviceLog.states.refused')
          : state === DEVICE_LOG_STATE.messageRefused
            ? t('deviceLog.states.messageRefused')
            : state === DEVICE_LOG_STATE.timedOut
              ? t('deviceLog.states.timedOut')
              : t('deviceLog.states.note');
  return <Tag color={STATE_COLORS[state] ?? 'default'}>{label}</Tag>;
}

function NoteDialog({ g, sn, open, onClose }: { g: number; sn: string; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<{ Message: string }>();
  const [saving, setSaving] = useState(false);
  const save = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      await addLogNote(g, sn, { Message: values.Message });
      void message.success(t('deviceLog.noteAdded'));
      form.resetFields();
      onClose();
      void refreshDeviceLog(client, sn);
    } catch (error) {
      void message.error(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={open}
      title={t('deviceLog.addNote')}
      okText={t('deviceLog.saveNote')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onOk={() => {
        void save().catch(() => undefined);
      }}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="Message" label={t('deviceLog.note')} rules={zodFieldRules(deviceLogNoteRequest.shape.Message)}>
          <Input.TextArea rows={3} maxLength={500} showCount placeholder={t('deviceLog.notePlaceholder')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function DeviceLogTable({ g, sn }: { g: number; sn: string }) {
  const { t } = useTranslation();
  const name = useStoredName();
  const { modal, message } = App.useApp();
  const client = useQueryClient();
  const mayNote = useMayOperate('device.control');
  const isAdmin = useCurrentUser().data?.IsAdmin === true;
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [search, setSearch] = useState('');
  const [order, setOrder] = useState<'desc' | 'asc'>('desc');
  const [page, setPage] = useState({ no: 1, size: 10 });
  const [noting, setNoting] = useState(false);
  const debounced = useDebouncedValue(search.trim());
  const log = useQuery(
    deviceLogQueryOptions(g, sn, {
      PageNo: page.no,
      PageSize: page.size,
      BeginTime: range?.[0]?.format(DATE_FORMAT),
      EndTime: range?.[1]?.format(DATE_FORMAT),
      Search: debounced || undefined,
      OrderType: order,
    }),
  );

  const remove = (row: DeviceLogDto) => {
    modal.confirm({
      title: t('deviceLog.deleteTitle'),
      content: t('resource.deleteHint'),
      okText: t('deviceLog.delete'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await deleteLog(g, sn, row.Id);
          void message.success(t('resource.deleted'));
          void refreshDeviceLog(client, sn);
        } catch (error) {
          void message.error(errorMessage(error));
        }
      },
    });
  };

  const columns: TableColumnsType<DeviceLogDto> = [
    {
      key: 'time',
      title: t('deviceLog.fields.time'),
      render: (_, r) => <DateTimeText value={r.SendTime} />,
      width: DATE_TIME_WIDTH,
    },
    {
      key: 'point',
      title: t('deviceLog.fields.point'),
      render: (_, r) => (r.KeyName || r.Key ? <span title={r.Key}>{name(r.KeyName) || r.Key}</span> : '—'),
    },
    {
      key: 'change',
      title: t('deviceLog.fields.change'),
      render: (_, r) => (r.State === DEVICE_LOG_STATE.note ? '—' : `${r.OldValue || '—'} → ${r.NewValue || '—'}`),
      responsive: ['sm'],
    },
    {
      key: 'state',
      title: t('deviceLog.fields.state'),
      // The device's reason, a note's text: beside the state, so that a phone shows them too.
      render: (_, r) => (
        <Flex vertical gap={2} align="start">
          <LogState state={r.State} />
          {r.Message ? <Typography.Text type="secondary">{r.Message}</Typography.Text> : null}
        </Flex>
      ),
    },
    {
      key: 'answered',
      title: t('deviceLog.fields.answered'),
      render: (_, r) => <DateTimeText value={r.Time} />,
      responsive: ['md'],
    },
    { key: 'user', title: t('deviceLog.fields.user'), render: (_, r) => r.UserName || '—', responsive: ['lg'] },
    ...(isAdmin
      ? [
          {
            key: 'actions',
            title: t('resource.actions'),
            render: (_: unknown, r: DeviceLogDto) => (
              <Button
                size="small"
                danger
                icon={<DeleteOutlined aria-hidden />}
                aria-label={t('deviceLog.deleteRow', { time: formatDateTime(r.SendTime) })}
                onClick={() => {
                  remove(r);
                }}
              />
            ),
          },
        ]
      : []),
  ];

  return (
    <section aria-label={t('deviceLog.title')}>
      <Flex gap={8} wrap align="center" style={{ marginBottom: 8 }}>
        <DatePicker.RangePicker
          value={range}
          onChange={(value) => {
            setRange(value);
            setPage((p) => ({ ...p, no: 1 }));
          }}
          aria-label={t('deviceLog.range')}
          style={{ maxWidth: '100%' }}
        />
        <Input.Search
          allowClear
          value={search}
          placeholder={t('deviceLog.searchPlaceholder')}
          aria-label={t('resource.search')}
          style={{ width: 220, maxWidth: '100%' }}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage((p) => ({ ...p, no: 1 }));
          }}
        />
        <Select
          aria-label={t('deviceLog.order')}
          value={order}
          style={{ minWidth: 140 }}
          onChange={(value) => {
            setOrder(value);
            setPage((p) => ({ ...p, no: 1 }));
          }}
          options={[
            { value: 'desc', label: t('deviceLog.newestFirst') },
            { value: 'asc', label: t('deviceLog.oldestFirst') },
          ]}
        />
        {mayNote ? (
          <Button
            icon={<PlusOutlined aria-hidden />}
            onClick={() => {
              setNoting(true);
            }}
          >
            {t('deviceLog.addNote')}
          </Button>
        ) : null}
      </Flex>
      {log.isError ? (
        <QueryError query={log} title={t('deviceLog.failed')} />
      ) : (
        <Table<DeviceLogDto>
          size="small"
          rowKey="Id"
          loading={log.isPending}
          dataSource={log.data?.rows ?? []}
          columns={columns}
          locale={{ emptyText: <Typography.Text type="secondary">{t('deviceLog.empty')}</Typography.Text> }}
          pagination={{
            current: page.no,
            pageSize: page.size,
            total: log.data?.count ?? 0,
            showSizeChanger: true,
            showTotal: (total) => t('resource.total', { count: total }),
            onChange: (no, size) => {
              setPage({ no, size });
            },
          }}
          scroll={{ x: 'max-content' }}
        />
      )}
      <NoteDialog
        g={g}
        sn={sn}
        open={noting}
        onClose={() => {
          setNoting(false);
        }}
      />
    </section>
  );
}
