/**
 * /common/notice/list/:id/:status — the notice centre (spec §2 notice view with tabs): a tab per
 * warn type (:id, 0 all), handling (:status 0 unhandled, 1 handled, 2 all), filters (time range,
 * project or station, active or cleared, search), a table of alarms by their code names, a
 * detail drawer linking to the device's page, handling one or many with one comment, and an
 * export of what the filters select.
 */
import { useMemo, useState } from 'react';
import {
  App,
  Button,
  DatePicker,
  Flex,
  Input,
  Segmented,
  Select,
  Space,
  Table,
  Tabs,
  Typography,
  type TableColumnsType,
} from 'antd';
import { CheckOutlined, DownloadOutlined, ToolOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import { QueryError } from '../../../components/query-state';
import { DATE_FORMAT, formatDateTime } from '../../../lib/dates';
import { DATE_TIME_WIDTH, DateTimeText } from '../../../components/cells';
import { errorMessage } from '../../../lib/form-errors';
import { useGroupId } from '../../../lib/group';
import { useMayOperate } from '../../../lib/operates';
import { useAllProjects } from '../../../lib/sites';
import type { QueryParams } from '../../../lib/api-client';
import { useWarnTypes } from '../../../lib/common-params';
import { allAlarms, noticesQueryOptions, repairFromAlarm, type WarnDto } from '../api/notices-api';
import { AlarmDrawer } from '../components/alarm-drawer';
import { AlarmName, AlarmState } from '../components/alarm-tags';
import { HandleDialog } from '../components/handle-dialog';
import { alarmsCsv, saveText } from '../notice-export';
import { useStoredName } from '../../../lib/stored-names';

const STATUSES = ['0', '1', '2'] as const;
type Status = (typeof STATUSES)[number];

export const noticePath = (typeId: number | string, status: string) => `/common/notice/list/${String(typeId)}/${status}`;

export function NoticeCenterPage() {
  const { t } = useTranslation();
  const name = useStoredName();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const params = useParams();
  const g = useGroupId();
  const typeId = Number(params.id) > 0 ? Number(params.id) : 0;
  const status: Status = STATUSES.includes(params.status as Status) ? (params.status as Status) : '0';
  const mayHandle = useMayOperate('device.control');
  const mayRepair = useMayOperate('records.enter');
  const toRepair = async (alarm: WarnDto) => {
    try {
      const res = await repairFromAlarm(alarm.Id);
      void message.success(t('notices.repairMade', { id: res.data.Id }));
    } catch (error) {
      void message.error(errorMessage(error));
    }
  };

  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [projectId, setProjectId] = useState<number>();
  const [active, setActive] = useState<number>();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState({ no: 1, size: 20 });
  const [selected, setSelected] = useState<WarnDto[]>([]);
  const [handling, setHandling] = useState<WarnDto[]>([]);
  const [open, setOpen] = useState<WarnDto>();
  const [exporting, setExporting] = useState(false);

  const types = useWarnTypes();
  const projects = useAllProjects(g);

  const filters = useMemo<QueryParams>(
    () => ({
      TypeId: typeId || undefined,
      State: status === '2' ? undefined : Number(status),
      Active: active,
      ProjectId: projectId,
      BeginTime: range?.[0]?.format(DATE_FORMAT),
      EndTime: range?.[1]?.format(DATE_FORMAT),
      Search: search || undefined,
    }),
    [typeId, status, active, projectId, range, search],
  );
  const list = useQuery(noticesQueryOptions({ ...filters, PageNo: page.no, PageSize: page.size }));
  const rows = list.data?.rows ?? [];

  const go = (nextType: number | string, nextStatus: string) => {
    setSelected([]);
    setPage((p) => ({ ...p, no: 1 }));
    void navigate(noticePath(nextType, nextStatus));
  };
  const filtered =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setSelected([]);
      setPage((p) => ({ ...p, no: 1 }));
    };

  const columns: TableColumnsType<WarnDto> = [
    { key: 'Dt', title: t('notices.fields.opened'), render: (_, r) => <DateTimeText value={r.Dt} />, width: DATE_TIME_WIDTH },
    {
      key: 'name',
      title: t('notices.fields.name'),
      render: (_, r) => (
        <Button
          type="link"
          style={{ padding: 0, height: 'auto', whiteSpace: 'normal', textAlign: 'start' }}
          onClick={() => {
            setOpen(r);
          }}
          aria-label={t('notices.openDetails', { name: r.Description || r.Code })}
        >
          <AlarmName alarm={r} />
        </Button>
      ),
    },
    {
      key: 'device',
      title: t('notices.fields.device'),
      render: (_, r) => (
        <span>
          {r.DeviceName || r.DeviceSn}
          <br />
          <Typography.Text type="secondary">{r.DeviceSn}</Typography.Text>
        </span>
      ),
    },
    { key: 'station', title: t('notices.fields.station'), render: (_, r) => r.ProjectName || '—', responsive: ['md'] },
    { key: 'state', title: t('notices.fields.state'), render: (_, r) => <AlarmState alarm={r} /> },
    {
      key: 'cleared',
      title: t('notices.fields.cleared'),
      render: (_, r) => <DateTimeText value={r.ClearedAt} />,
      width: DATE_TIME_WIDTH,
      responsive: ['lg'],
    },
    {
      key: 'handled',
      title: t('notices.fields.handled'),
      render: (_, r) =>
        r.HandledAt === null ? (
          '—'
        ) : (
          <span>
            <DateTimeText value={r.HandledAt} />
            <br />
            <Typography.Text type="secondary">{r.HandledBy}</Typography.Text>
          </span>
        ),
      width: DATE_TIME_WIDTH,
      responsive: ['lg'],
    },
    {
      key: 'actions',
      title: t('resource.actions'),
      render: (_, r) => (
        <Flex gap={4} wrap>
          {mayHandle && r.State === 0 ? (
            <Button
              size="small"
              icon={<CheckOutlined aria-hidden />}
              onClick={() => {
                setHandling([r]);
              }}
              aria-label={t('notices.handleNamed', { name: r.Description || r.Code, device: r.DeviceName || r.DeviceSn })}
            >
              {t('notices.handle')}
            </Button>
          ) : null}
          {mayRepair ? (
            <Button
              size="small"
              icon={<ToolOutlined aria-hidden />}
              onClick={() => {
                void toRepair(r);
              }}
              aria-label={t('notices.toRepairNamed', { name: r.Description || r.Code, device: r.DeviceName || r.DeviceSn })}
            >
              {t('notices.toRepair')}
            </Button>
          ) : null}
        </Flex>
      ),
    },
  ];

  const exportCsv = async () => {
    setExporting(true);
    try {
      const all = await allAlarms(filters);
      const headers = [
        t('notices.fields.opened'),
        t('notices.fields.code'),
        t('notices.fields.name'),
        t('notices.fields.type'),
        t('notices.fields.device'),
        t('notices.fields.sn'),
        t('notices.fields.station'),
        t('notices.fields.active'),
        t('notices.fields.cleared'),
        t('notices.fields.handled'),
        t('notices.fields.handledBy'),
        t('notices.fields.comments'),
      ];
      const csv = alarmsCsv(all, headers, (r) => [
        formatDateTime(r.Dt),
        r.Code,
        name(r.Description),
        name(r.TypeName),
        r.DeviceName,
        r.DeviceSn,
        r.ProjectName,
        r.Active === 1 ? t('notices.active') : t('notices.cleared'),
        r.ClearedAt === null ? '' : formatDateTime(r.ClearedAt),
        r.HandledAt === null ? '' : formatDateTime(r.HandledAt),
        r.HandledBy,
        r.Comments,
      ]);
      saveText(csv, `alarms-${new Date().toISOString().slice(0, 10)}.csv`);
    } catch (error) {
      void message.error(errorMessage(error));
    } finally {
      setExporting(false);
    }
  };

  const tabs = [
    { key: '0', label: t('notices.tabs.all') },
    ...(types.data ?? []).map((type) => ({ key: String(type.Id), label: name(type.TypeName) })),
  ];

  return (
    <Flex vertical gap={12}>
      <Typography.Title level={1} style={{ fontSize: 20, margin: 0 }}>
        {t('routes.noticeCenter')}
      </Typography.Title>
      <Tabs
        activeKey={String(typeId)}
        items={tabs}
        onChange={(key) => {
          go(key, status);
        }}
      />
      <Flex gap={8} wrap align="center">
        <Segmented
          value={status}
          onChange={(value) => {
            go(typeId, value);
          }}
          options={[
            { value: '0', label: t('notices.unhandled') },
            { value: '1', label: t('notices.handledTag') },
            { value: '2', label: t('notices.all') },
          ]}
          aria-label={t('notices.fields.handling')}
        />
        <DatePicker.RangePicker
          value={range}
          onChange={filtered(setRange)}
          aria-label={t('notices.range')}
          style={{ maxWidth: '100%' }}
        />
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('notices.allSites')}
          aria-label={t('notices.fields.station')}
          style={{ minWidth: 180 }}
          value={projectId}
          onChange={filtered(setProjectId)}
          options={(projects.data ?? []).map((p) => ({
            value: p.Id,
            label: p.ParentName ? `${p.ParentName} / ${p.Name}` : p.Name,
          }))}
        />
        <Select
          allowClear
          placeholder={t('notices.activeOrCleared')}
          aria-label={t('notices.fields.active')}
          style={{ minWidth: 140 }}
          value={active}
          onChange={filtered(setActive)}
          options={[
            { value: 1, label: t('notices.active') },
            { value: 0, label: t('notices.cleared') },
          ]}
        />
        <Input.Search
          allowClear
          placeholder={t('notices.searchPlaceholder')}
          aria-label={t('resource.search')}
          style={{ width: 240, maxWidth: '100%' }}
          onSearch={filtered((value: string) => {
            setSearch(value.trim());
          })}
        />
      </Flex>
      <Flex gap={8} wrap align="center">
        {mayHandle && (
          <Button
            type="primary"
            icon={<CheckOutlined aria-hidden />}
            disabled={selected.length === 0}
            onClick={() => {
              setHandling(selected);
            }}
          >
            {t('notices.handleSelected', { count: selected.length })}
          </Button>
        )}
        <Button icon={<DownloadOutlined aria-hidden />} loading={exporting} onClick={() => void exportCsv()}>
          {t('notices.export')}
        </Button>
        <Space style={{ marginInlineStart: 'auto' }}>
          <Typography.Text type="secondary">{t('resource.total', { count: list.data?.count ?? 0 })}</Typography.Text>
        </Space>
      </Flex>
      {list.isError ? (
        <QueryError query={list} />
      ) : (
        <Table<WarnDto>
          rowKey="Id"
          size="middle"
          columns={columns}
          dataSource={rows}
          loading={list.isFetching}
          scroll={{ x: 'max-content' }}
          locale={{
            emptyText: search || projectId || range || active !== undefined ? t('resource.noMatch') : t('notices.empty'),
          }}
          rowSelection={
            mayHandle
              ? {
                  selectedRowKeys: selected.map((r) => r.Id),
                  getCheckboxProps: (r) => ({
                    disabled: r.State === 1,
                    'aria-label': t('notices.select', { name: r.Description || r.Code }),
                  }),
                  onChange: (_, picked) => {
                    setSelected(picked);
                  },
                }
              : undefined
          }
          pagination={{
            current: page.no,
            pageSize: page.size,
            total: list.data?.count ?? 0,
            showSizeChanger: true,
            onChange: (no, size) => {
              setPage({ no, size });
            },
          }}
        />
      )}
      <AlarmDrawer
        alarm={open}
        mayHandle={mayHandle}
        onHandle={(alarm) => {
          setHandling([alarm]);
        }}
        onClose={() => {
          setOpen(undefined);
        }}
      />
      <HandleDialog
        alarms={handling}
        onClose={(handled) => {
          setHandling([]);
          if (handled) {
            setSelected([]);
            setOpen(undefined);
          }
        }}
      />
    </Flex>
  );
}
