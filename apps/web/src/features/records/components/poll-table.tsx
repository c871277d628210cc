/**
 * Inspection rounds (spec §7 PollAdd, GetPollPageList): a round records each checklist item of
 * its station (in order or not, with a reading), the time on site and photos. Stations whose
 * next round is past due are listed above; managers set a station's checklist and schedule.
 */
import { useEffect, useMemo, useState } from 'react';
import { Alert, App, Button, Flex, Form, Input, InputNumber, Modal, Space, Switch, Tag, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { addPollRequest, type PollDto } from '@sluice/shared/field-records.schema';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../components/resource-table/resource-types';
import { SiteTreeSelect } from '../../../components/sites/site-tree-select';
import { isApiError, type QueryParams } from '../../../lib/api-client';
import { formatDate } from '../../../lib/dates';
import { useGroupId } from '../../../lib/group';
import { useMayOperate } from '../../../lib/operates';
import { pollsResource, setPollPlan, usePollPlan, usePollsDue } from '../api/records-api';
import { dateTimeField, dateTimeText, toMillis } from './record-fields';
import { RecordPhotosButton } from './record-photos';
import { ChemicalsEditor, ChemicalTags } from './chemicals-editor';

type Result = { Item: string; Ok: boolean; Value: string };

/** Each checklist item of the station: in order or not, and a reading. */
function ChecklistEditor({
  id,
  value,
  onChange,
  projectId,
}: {
  id?: string;
  value?: Result[];
  onChange?: (value: Result[]) => void;
  projectId: number | undefined;
}) {
  const { t } = useTranslation();
  const g = useGroupId();
  const plan = usePollPlan(g, projectId);
  const items = plan.data?.Items;
  useEffect(() => {
    if (items && (value ?? []).map((r) => r.Item).join('\n') !== items.join('\n'))
      onChange?.(items.map((Item) => ({ Item, Ok: true, Value: '' })));
    // Only a new checklist resets the results.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [items]);
  if (projectId === undefined) return <Typography.Text type="secondary">{t('records.poll.chooseStation')}</Typography.Text>;
  if (items?.length === 0) return <Typography.Text type="secondary">{t('records.poll.noChecklist')}</Typography.Text>;
  const results = value ?? [];
  return (
    <Flex id={id} vertical gap={8}>
      {results.map((r, i) => (
        <Flex key={r.Item} gap={8} align="center" wrap>
          <Switch
            checked={r.Ok}
            checkedChildren={t('records.poll.ok')}
            unCheckedChildren={t('records.poll.notOk')}
            aria-label={r.Item}
            onChange={(Ok) => {
              onChange?.(results.map((x, j) => (j === i ? { ...x, Ok } : x)));
            }}
          />
          <span style={{ minWidth: 120 }}>{r.Item}</span>
          <Input
            style={{ flex: '1 1 140px' }}
            placeholder={t('records.poll.reading')}
            aria-label={t('records.poll.readingOf', { item: r.Item })}
            value={r.Value}
            maxLength={200}
            onChange={(e) => {
              onChange?.(results.map((x, j) => (j === i ? { ...x, Value: e.target.value } : x)));
            }}
          />
        </Flex>
      ))}
    </Flex>
  );
}

const pollConfig = (mayManage: boolean): ResourceTableConfig<PollDto> => ({
  resource: pollsResource,
  rowName: (row) => `${row.PollTitle} ${dateTimeText(row.ArrivedAt)}`,
  addLabel: 'records.poll.add',
  empty: 'records.poll.empty',
  columns: [
    { key: 'ArrivedAt', title: 'records.poll.arrivedAt', format: 'dateTime' },
    { key: 'ProjectName', title: 'records.station' },
    { key: 'PollTitle', title: 'records.poll.title' },
    { key: 'Issues', title: 'records.poll.results', render: (row) => <PollResults row={row} /> },
    { key: 'Chemicals', title: 'records.chemicals.label', render: (row) => <ChemicalTags doses={row.Chemicals} /> },
    { key: 'Inspector', title: 'records.poll.inspector', onCards: false },
  ],
  canEdit: () => false,
  canDelete: () => mayManage,
  rowActions: (row) => <RecordPhotosButton kind="poll" id={row.Id} name={row.PollTitle} photos={row.Photos} />,
  form: {
    createSchema: addPollRequest,
    updateSchema: addPollRequest,
    createTitle: 'records.poll.add',
    editTitle: 'records.poll.add',
    columns: 2,
    fields: [
      {
        name: 'ProjectId',
        label: 'records.station',
        kind: 'custom',
        render: ({ id }) => <SiteTreeSelect id={id} />,
        rules: [{ required: true, message: '' }],
      },
      { name: 'PollTitle', label: 'records.poll.title', kind: 'text' },
      dateTimeField('ArrivedAt', 'records.poll.arrivedAt', true),
      dateTimeField('LeftAt', 'records.poll.leftAt', false),
      {
        name: 'Results',
        label: 'records.poll.checklist',
        kind: 'custom',
        wide: true,
        dependencies: ['ProjectId'],
        rules: [],
        render: ({ id, values }) => (
          <ChecklistEditor id={id} projectId={typeof values.ProjectId === 'number' ? values.ProjectId : undefined} />
        ),
      },
      {
        name: 'Chemicals',
        label: 'records.chemicals.label',
        kind: 'custom',
        wide: true,
        help: 'records.chemicals.help',
        render: ({ id }) => <ChemicalsEditor id={id} />,
      },
      { name: 'PollContent', label: 'records.remark', kind: 'textarea', wide: true },
    ],
    toBody: (values) => ({
      ...values,
      ArrivedAt: toMillis(values.ArrivedAt),
      LeftAt: toMillis(values.LeftAt),
      Results: Array.isArray(values.Results) ? values.Results : [],
      Chemicals: Array.isArray(values.Chemicals) ? values.Chemicals : [],
    }),
  },
});

function PollResults({ row }: { row: PollDto }) {
  const { t } = useTranslation();
  const problems = row.Results.filter((r) => !r.Ok);
  if (row.Results.length === 0) return null;
  return (
    <Space size={[4, 4]} wrap>
      {problems.length === 0 ? (
        <Tag color="success">{t('records.poll.allOk', { count: row.Results.length })}</Tag>
      ) : (
        problems.map((r) => (
          <Tag key={r.Item} color="error">
            {r.Item}
            {r.Value ? `: ${r.Value}` : ''}
          </Tag>
        ))
      )}
    </Space>
  );
}

/** Stations whose next round is past due. */
function OverdueRounds() {
  const { t } = useTranslation();
  const due = usePollsDue();
  const late = (due.data ?? []).filter((d) => d.Overdue);
  if (late.length === 0) return null;
  return (
    <Alert
      type="warning"
      showIcon
      title={t('records.poll.overdueTitle', { count: late.length })}
      description={
        <Flex vertical gap={2}>
          {late.map((d) => (
            <span key={d.ProjectId}>
              {t('records.poll.overdueLine', {
                name: d.ProjectName,
                due: formatDate(d.DueAt),
                last: d.LastAt === null ? t('records.poll.never') : formatDate(d.LastAt),
              })}
            </span>
          ))}
        </Flex>
      }
    />
  );
}

/** A station's checklist (one item a line) and the days between rounds. */
function ChecklistButton() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const g = useGroupId();
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [projectId, setProjectId] = useState<number | undefined>();
  const [form] = Form.useForm<{ Items: string; IntervalDays: number }>();
  const plan = usePollPlan(g, projectId);
  useEffect(() => {
    if (plan.data) form.setFieldsValue({ Items: plan.data.Items.join('\n'), IntervalDays: plan.data.IntervalDays });
  }, [plan.data, form]);
  const save = async (values: { Items: string; IntervalDays: number }) => {
    if (projectId === undefined) return;
    const items = values.Items.split('\n')
      .map((s) => s.trim())
      .filter(Boolean);
    try {
      const res = await setPollPlan(g, projectId, { Items: items, IntervalDays: values.IntervalDays });
      void message.success(res.message);
      await client.invalidateQueries({ queryKey: ['poll-plan'] });
      await client.invalidateQueries({ queryKey: pollsResource.keys.all });
      setOpen(false);
    } catch (error) {
      void message.error(isApiError(error) ? error.message : String(error));
    }
  };
  return (
    <>
      <Button
        onClick={() => {
          setOpen(true);
        }}
      >
        {t('records.poll.checklistButton')}
      </Button>
      <Modal
        open={open}
        title={t('records.poll.checklistButton')}
        okButtonProps={{ disabled: projectId === undefined }}
        onOk={() => {
          form.submit();
        }}
        onCancel={() => {
          setOpen(false);
        }}
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          initialValues={{ Items: '', IntervalDays: 7 }}
          onFinish={(values) => {
            void save(values);
          }}
        >
          <Form.Item label={t('records.station')} required>
            <SiteTreeSelect value={projectId ?? null} onChange={setProjectId} />
          </Form.Item>
          <Form.Item name="Items" label={t('records.poll.checklistItems')} extra={t('records.poll.checklistHelp')}>
            <Input.TextArea autoSize={{ minRows: 4, maxRows: 12 }} />
          </Form.Item>
          <Form.Item name="IntervalDays" label={t('records.poll.intervalDays')} extra={t('records.poll.intervalHelp')}>
            <InputNumber min={0} max={365} style={{ width: '100%' }} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

/** Rounds of every reachable station, or of one (params.ProjectId). */
export function PollTable({ params, title }: { params?: QueryParams; title?: string }) {
  const { t } = useTranslation();
  const mayManage = useMayOperate('records.manage');
  const config = useMemo(() => pollConfig(mayManage), [mayManage]);
  const preset = useMemo(() => (typeof params?.ProjectId === 'number' ? { ProjectId: params.ProjectId } : undefined), [params]);
  return (
    <Flex vertical gap={12}>
      {params ? null : <OverdueRounds />}
      <ResourceTable
        config={config}
        {...(title ? { title } : {})}
        {...(params ? { params, compact: true } : { syncUrl: true, description: t('records.poll.description') })}
        {...(preset ? { createPreset: preset } : {})}
        {...(mayManage && !params ? { toolbarExtra: <ChecklistButton /> } : {})}
      />
    </Flex>
  );
}
