/**
 * Repairs (spec §7 RepairAdd, GetRepairPageList) and their workflow: reported → assigned →
 * in progress → done → verified, or rejected back to the assignee. Field staff start and finish;
 * assigning (to a principal of the station), verifying and rejecting need records.manage.
 * Overdue repairs stand out.
 */
import { useMemo, useState } from 'react';
import { App, Button, Flex, Form, Input, Modal, Select, Space, Tag, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  addRepairRequest,
  REPAIR_FLOW,
  REPAIR_STATES,
  updateRepairRequest,
  type RepairAction,
  type RepairState,
} from '@sluice/shared/field-records.schema';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../components/resource-table/resource-types';
import { SiteTreeSelect } from '../../../components/sites/site-tree-select';
import { isApiError, type QueryParams } from '../../../lib/api-client';
import { formatDate } from '../../../lib/dates';
import { useMayOperate } from '../../../lib/operates';
import { repairAction, repairsResource, usePrincipals, type RepairDto } from '../api/records-api';
import { dateTimeField, DeviceSelect, fromMillis, toMillis } from './record-fields';
import { RecordPhotosButton } from './record-photos';

const STATE_COLORS: Record<RepairState, string> = {
  reported: 'default',
  assigned: 'processing',
  in_progress: 'warning',
  done: 'cyan',
  verified: 'success',
};

export function RepairStateTag({ state }: { state: RepairState }) {
  const { t } = useTranslation();
  return <Tag color={STATE_COLORS[state]}>{t(`records.repair.states.${state}`)}</Tag>;
}

function DueText({ row }: { row: RepairDto }) {
  const { t } = useTranslation();
  if (row.DueAt === null) return null;
  return (
    <Space size={4} wrap>
      <span>{formatDate(row.DueAt)}</span>
      {row.Overdue ? <Tag color="error">{t('records.repair.overdue')}</Tag> : null}
    </Space>
  );
}

function RepairTitleCell({ row, withSite }: { row: RepairDto; withSite: boolean }) {
  const { t } = useTranslation();
  const details = [row.FaultCode, row.DeviceName || row.DeviceSn, withSite ? row.ProjectName : ''].filter(Boolean);
  if (row.WarnId !== null) details.push(t('records.repair.fromAlarm', { id: row.WarnId }));
  if (row.MaintenanceId !== null) details.push(t('records.repair.fromRunHours', { hours: row.RepairContent }));
  return (
    <Flex vertical gap={2}>
      <Typography.Text strong type={row.Overdue ? 'danger' : undefined}>
        {row.RepairTitle}
      </Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {details.join(' · ')}
      </Typography.Text>
    </Flex>
  );
}

/** The next moves of a repair the user may make, as buttons; assign, finish and reject ask first. */
function RepairActions({ row }: { row: RepairDto }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const mayEnter = useMayOperate('records.enter');
  const mayManage = useMayOperate('records.manage');
  const [asking, setAsking] = useState<RepairAction | undefined>();
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ AssigneeId?: number; Note?: string }>();
  const principals = usePrincipals('station', asking === 'assign' ? row.ProjectId : undefined);
  const name = row.RepairTitle;

  const run = async (action: RepairAction, body: { AssigneeId?: number; Note?: string } = {}) => {
    setBusy(true);
    try {
      const res = await repairAction(row.Id, { Action: action, ...body });
      void message.success(res.message || t('records.repair.moved'));
      setAsking(undefined);
      await client.invalidateQueries({ queryKey: repairsResource.keys.all });
    } catch (error) {
      void message.error(isApiError(error) ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  const actions = (Object.keys(REPAIR_FLOW) as RepairAction[]).filter(
    (a) => REPAIR_FLOW[a].from.includes(row.State) && (a === 'start' || a === 'finish' ? mayEnter : mayManage),
  );
  if (actions.length === 0) return null;
  return (
    <>
      {actions.map((action) => (
        <Button
          key={action}
          size="small"
          type={action === 'verify' || action === 'finish' ? 'primary' : 'default'}
          danger={action === 'reject'}
          loading={busy && asking === undefined}
          aria-label={t(`records.repair.actionsNamed.${action}`, { name })}
          onClick={() => {
            if (action === 'start' || action === 'verify') void run(action);
            else {
              form.resetFields();
              setAsking(action);
            }
          }}
        >
          {t(`records.repair.actions.${action}`)}
        </Button>
      ))}
      <Modal
        open={asking !== undefined}
        title={asking ? t(`records.repair.actionsNamed.${asking}`, { name }) : ''}
        okText={asking ? t(`records.repair.actions.${asking}`) : ''}
        confirmLoading={busy}
        onCancel={() => {
          setAsking(undefined);
        }}
        onOk={() => {
          form.submit();
        }}
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          onFinish={(values) => {
            if (asking) void run(asking, values);
          }}
        >
          {asking === 'assign' ? (
            <Form.Item
              name="AssigneeId"
              label={t('records.repair.assignee')}
              rules={[{ required: true, message: t('records.repair.assigneeRequired') }]}
              extra={principals.data?.length === 0 ? t('records.repair.noPrincipals') : undefined}
            >
              <Select
                loading={principals.isPending}
                options={(principals.data ?? []).map((p) => ({ value: p.Id, label: `${p.Name} ${p.Phone}` }))}
              />
            </Form.Item>
          ) : (
            <Form.Item
              name="Note"
              label={asking === 'reject' ? t('records.repair.rejectNote') : t('records.repair.resolution')}
              rules={asking === 'reject' ? [{ required: true, message: t('records.repair.rejectNoteRequired') }] : []}
            >
              <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} />
            </Form.Item>
          )}
        </Form>
      </Modal>
    </>
  );
}

function repairConfig(fixedSite: boolean, mayManage: boolean): ResourceTableConfig<RepairDto> {
  return {
    resource: repairsResource,
    rowName: (row) => row.RepairTitle,
    search: { placeholder: 'records.repair.searchPlaceholder' },
    addLabel: 'records.repair.add',
    canDelete: () => mayManage,
    empty: 'records.repair.empty',
    defaultSort: { key: 'CreatedAt', order: 'desc' },
    filters: [
      {
        param: 'State',
        label: 'records.repair.state',
        allLabel: 'records.repair.allStates',
        options: REPAIR_STATES.map((s) => ({ value: s, labelKey: `records.repair.states.${s}` as const })),
      },
      {
        param: 'Overdue',
        label: 'records.repair.overdue',
        allLabel: 'records.repair.anyDue',
        options: [{ value: 1, labelKey: 'records.repair.overdueOnly' }],
      },
    ],
    columns: [
      {
        key: 'RepairTitle',
        title: 'records.repair.title',
        sortKey: 'RepairTitle',
        render: (row) => <RepairTitleCell row={row} withSite={!fixedSite} />,
      },
      { key: 'State', title: 'records.repair.state', sortKey: 'State', render: (row) => <RepairStateTag state={row.State} /> },
      { key: 'AssigneeName', title: 'records.repair.assignee', sortKey: 'AssigneeName' },
      { key: 'DueAt', title: 'records.repair.dueAt', sortKey: 'DueAt', render: (row) => <DueText row={row} /> },
      {
        key: 'CreatedAt',
        title: 'records.repair.createdAt',
        sortKey: 'CreatedAt',
        format: 'dateTime',
        onCards: false,
      },
    ],
    rowActions: (row) => (
      <>
        <RepairActions row={row} />
        <RecordPhotosButton kind="repair" id={row.Id} name={row.RepairTitle} photos={row.Photos} />
      </>
    ),
    form: {
      createSchema: addRepairRequest,
      updateSchema: updateRepairRequest,
      createTitle: 'records.repair.add',
      editTitle: 'records.repair.edit',
      columns: 2,
      fields: [
        {
          name: 'ProjectId',
          label: 'records.station',
          kind: 'custom',
          modes: ['create'],
          render: ({ id, form }) => (
            <SiteTreeSelect
              id={id}
              onChange={(value) => {
                form.setFieldsValue({ ProjectId: value, DeviceSn: undefined });
              }}
            />
          ),
        },
        {
          name: 'DeviceSn',
          label: 'records.device',
          kind: 'custom',
          modes: ['create'],
          dependencies: ['ProjectId'],
          render: ({ id, values }) => (
            <DeviceSelect id={id} {...(typeof values.ProjectId === 'number' ? { projectId: values.ProjectId } : {})} />
          ),
        },
        { name: 'RepairTitle', label: 'records.repair.title', kind: 'text', wide: true },
        { name: 'FaultCode', label: 'records.repair.faultCode', kind: 'text' },
        dateTimeField('DueAt', 'records.repair.dueAt', false, false),
        { name: 'RepairContent', label: 'records.repair.content', kind: 'textarea', wide: true },
        { name: 'Parts', label: 'records.repair.parts', kind: 'text' },
        { name: 'Cost', label: 'records.repair.cost', kind: 'number', min: 0 },
        { name: 'Resolution', label: 'records.repair.resolution', kind: 'textarea', modes: ['edit'], wide: true },
      ],
      toValues: (row) => ({ ...row, DueAt: fromMillis(row.DueAt, false) }),
      toBody: (values) => ({ ...values, DueAt: toMillis(values.DueAt) }),
    },
  };
}

/** Repairs of every reachable station, or of one (params.ProjectId) or one device (params.DeviceSn). */
export function RepairTable({ params, title }: { params?: QueryParams; title?: string }) {
  const { t } = useTranslation();
  const fixedSite = params !== undefined;
  const mayManage = useMayOperate('records.manage');
  const config = useMemo(() => repairConfig(fixedSite, mayManage), [fixedSite, mayManage]);
  const preset = useMemo(() => {
    const p: Record<string, unknown> = {};
    if (typeof params?.ProjectId === 'number') p.ProjectId = params.ProjectId;
    if (typeof params?.DeviceSn === 'string') p.DeviceSn = params.DeviceSn;
    return p;
  }, [params]);
  return (
    <ResourceTable
      config={config}
      {...(title ? { title } : {})}
      {...(params
        ? { params, compact: true, createPreset: preset }
        : { syncUrl: true, description: t('records.repair.description') })}
    />
  );
}
