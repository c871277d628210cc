/**
 * The monthly station report (issue 16) of a project or station: operation, laboratory and online
 * compliance, alarms, repairs and rounds, laid out to print (the browser prints it to PDF).
 */
import { useState } from 'react';
import { App, Button, Card, Descriptions, Flex, Input, Table, Typography } from 'antd';
import { FileExcelOutlined, PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { StationReport } from '@sluice/shared/field-records.schema';
import { QueryError } from '../../../components/query-state';
import { SiteTreeSelect } from '../../../components/sites/site-tree-select';
import { api } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/api-transfer';
import { errorMessage } from '../../../lib/form-errors';
import { dayjs } from '../../../lib/dates';
import { useGroupId } from '../../../lib/group';
import './station-report-page.css';

const dash = (v: number | null | undefined) => (v === null || v === undefined ? '—' : String(v));
const percent = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)} %`);

export function StationReportPage() {
  const { t } = useTranslation();
  const g = useGroupId();
  const [projectId, setProjectId] = useState<number | undefined>();
  const [month, setMonth] = useState(dayjs().subtract(1, 'month').format('YYYY-MM'));
  const report = useQuery({
    queryKey: ['station-report', g, projectId, month],
    queryFn: async () =>
      (await api.get<StationReport>(`/${String(g)}/StationReport`, { ProjectId: projectId, Month: month })).data,
    enabled: g > 0 && projectId !== undefined && /^\d{4}-\d{2}$/.test(month),
  });
  const data = report.data;
  const { message } = App.useApp();
  const [downloading, setDownloading] = useState(false);
  const download = async () => {
    if (projectId === undefined) return;
    setDownloading(true);
    try {
      await downloadFile(`/${String(g)}/StationReport`, `${data?.ProjectName ?? 'station'}-${month}.xlsx`, {
        ProjectId: projectId,
        Month: month,
        Format: 'xlsx',
      });
    } catch (error) {
      void message.error(`${t('records.report.excelFailed')}: ${errorMessage(error)}`);
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Flex vertical gap={12}>
      <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>
        {t('routes.monthlyReport')}
      </Typography.Title>
      <Flex gap={8} wrap className="sluice-no-print">
        <Flex gap={6} align="center" style={{ minWidth: 260 }}>
          <label htmlFor="report-site">{t('records.report.site')}</label>
          <div style={{ flex: 1 }}>
            <SiteTreeSelect
              id="report-site"
              value={projectId ?? null}
              onChange={setProjectId}
              placeholder={t('records.report.chooseSite')}
            />
          </div>
        </Flex>
        <Input
          type="month"
          aria-label={t('records.report.month')}
          value={month}
          onChange={(e) => {
            setMonth(e.target.value);
          }}
          style={{ width: 160 }}
        />
        <Button
          icon={<PrinterOutlined aria-hidden />}
          disabled={!data}
          onClick={() => {
            window.print();
          }}
        >
          {t('records.report.print')}
        </Button>
        <Button
          icon={<FileExcelOutlined aria-hidden />}
          disabled={!data}
          loading={downloading}
          onClick={() => {
            void download();
          }}
        >
          {t('records.report.excel')}
        </Button>
      </Flex>
      {projectId === undefined ? <Typography.Text type="secondary">{t('records.report.chooseSite')}</Typography.Text> : null}
      {report.isError ? <QueryError query={report} /> : null}
      {report.isFetching && !data ? <Card loading /> : null}
      {data ? (
        <Flex vertical gap={12}>
          <Typography.Title level={2} style={{ fontSize: 18, margin: 0 }}>
            {t('records.report.heading', { name: data.ProjectName, month: data.Month })}
          </Typography.Title>
          <Descriptions bordered size="small" column={{ xs: 1, sm: 2, md: 3 }} title={t('records.report.operation')}>
            <Descriptions.Item label={t('records.report.treated')}>{dash(data.Operation.TreatedM3)}</Descriptions.Item>
            <Descriptions.Item label={t('records.report.energy')}>{dash(data.Operation.EnergyKWh)}</Descriptions.Item>
            <Descriptions.Item label={t('records.report.kwhPerM3')}>{dash(data.Operation.KWhPerM3)}</Descriptions.Item>
          </Descriptions>
          <Descriptions bordered size="small" column={{ xs: 1, sm: 2, md: 4 }} title={t('records.report.lab')}>
            <Descriptions.Item label={t('records.standard')}>{data.Standard || t('records.noStandard')}</Descriptions.Item>
            <Descriptions.Item label={t('records.report.samples')}>{data.Lab.Samples}</Descriptions.Item>
            <Descriptions.Item label={t('records.report.compliantSamples')}>
              {data.Lab.Compliant} / {data.Lab.Judged}
            </Descriptions.Item>
            <Descriptions.Item label={t('records.report.rate')}>{percent(data.Lab.Rate)}</Descriptions.Item>
          </Descriptions>
          <Table
            size="small"
            pagination={false}
            rowKey="Param"
            dataSource={data.Lab.Params.filter((p) => p.Samples > 0)}
            columns={[
              { key: 'Param', title: t('records.report.param'), render: (_, p) => t(`records.params.${p.Param as 'COD'}`) },
              { key: 'Avg', title: t('records.report.avg'), render: (_, p) => dash(p.Avg) },
              { key: 'Max', title: t('records.report.max'), render: (_, p) => dash(p.Max) },
              { key: 'Over', title: t('records.report.over'), render: (_, p) => `${String(p.Over)} / ${String(p.Samples)}` },
            ]}
          />
          <Table
            size="small"
            pagination={false}
            rowKey="Key"
            title={() => t('records.report.online')}
            locale={{ emptyText: t('records.report.noOnline') }}
            dataSource={data.Online}
            columns={[
              { key: 'Name', title: t('records.report.param'), dataIndex: 'Name' },
              { key: 'Avg', title: t('records.report.avg'), render: (_, p) => dash(p.Avg) },
              {
                key: 'Days',
                title: t('records.report.compliantDays'),
                render: (_, p) => `${String(p.CompliantDays)} / ${String(p.MeasuredDays)}`,
              },
            ]}
          />
          <Table
            size="small"
            pagination={false}
            rowKey={(c) => `${c.Chemical}-${c.Unit}`}
            title={() => t('records.report.chemicals')}
            locale={{ emptyText: t('records.report.noChemicals') }}
            dataSource={data.Chemicals}
            columns={[
              { key: 'Chemical', title: t('records.chemicals.name'), dataIndex: 'Chemical' },
              { key: 'Quantity', title: t('records.chemicals.quantity'), render: (_, c) => `${String(c.Quantity)} ${c.Unit}` },
              {
                key: 'PerM3',
                title: t('records.report.perM3'),
                render: (_, c) => (c.PerM3 === null ? '—' : `${String(c.PerM3)} ${c.Unit}/m³`),
              },
              { key: 'Rounds', title: t('records.report.chemicalRounds'), dataIndex: 'Rounds' },
            ]}
          />
          <Table
            size="small"
            pagination={false}
            rowKey="TypeName"
            title={() => t('records.report.alarms')}
            locale={{ emptyText: t('records.report.noAlarms') }}
            dataSource={data.Alarms}
            columns={[
              { key: 'TypeName', title: t('records.report.alarmType'), dataIndex: 'TypeName' },
              { key: 'Count', title: t('records.report.count'), dataIndex: 'Count' },
              { key: 'Handled', title: t('records.report.handled'), dataIndex: 'Handled' },
              { key: 'Avg', title: t('records.report.minutesToHandle'), render: (_, a) => dash(a.AvgMinutesToHandle) },
            ]}
          />
          <Descriptions bordered size="small" column={{ xs: 1, sm: 2, md: 3 }} title={t('records.report.field')}>
            <Descriptions.Item label={t('records.report.repairsReported')}>{data.Repairs.Reported}</Descriptions.Item>
            <Descriptions.Item label={t('records.report.repairsDone')}>{data.Repairs.Done}</Descriptions.Item>
            <Descriptions.Item label={t('records.report.repairsVerified')}>{data.Repairs.Verified}</Descriptions.Item>
            <Descriptions.Item label={t('records.report.repairsOverdue')}>{data.Repairs.OverdueOpen}</Descriptions.Item>
            <Descriptions.Item label={t('records.report.rounds')}>{data.Inspections.Rounds}</Descriptions.Item>
            <Descriptions.Item label={t('records.report.issues')}>{data.Inspections.Issues}</Descriptions.Item>
          </Descriptions>
        </Flex>
      ) : null}
    </Flex>
  );
}
