/**
 * A month's compliance of every station the user reaches (GET {g}/MonthCompliance): per station
 * its standard and the laboratory samples within it, and per parameter the laboratory values and
 * the online analysers' days within the standard. Narrowed to a project or station when chosen.
 */
import { useMemo, useState } from 'react';
import { Flex, Input, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { QUALITY_PARAMS, type QualityParam, type StationCompliance } from '@sluice/shared/field-records.schema';
import { QueryState } from '../../../components/query-state';
import { SiteTreeSelect } from '../../../components/sites/site-tree-select';
import { api } from '../../../lib/api-client';
import { dayjs } from '../../../lib/dates';
import { useGroupId } from '../../../lib/group';

const percent = (rate: number | null) => (rate === null ? '—' : `${(rate * 100).toFixed(1)} %`);

/** A rate as a tag: green when every one passed, red when any failed, plain when nothing was judged. */
function RateTag({ part, whole, rate }: { part: number; whole: number; rate: number | null }) {
  if (whole === 0) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Tag color={part === whole ? 'success' : 'error'}>
      {part}/{whole} · {percent(rate)}
    </Tag>
  );
}

export function MonthCompliance() {
  const { t } = useTranslation();
  const g = useGroupId();
  const [projectId, setProjectId] = useState<number | undefined>();
  const [month, setMonth] = useState(dayjs().format('YYYY-MM'));
  const query = useQuery({
    queryKey: ['month-compliance', g, projectId, month],
    queryFn: async () =>
      (
        await api.get<StationCompliance[]>(`/${String(g)}/MonthCompliance`, {
          Month: month,
          ...(projectId === undefined ? {} : { ProjectId: projectId }),
        })
      ).data,
    enabled: g > 0 && /^\d{4}-\d{2}$/.test(month),
  });
  const rows = useMemo(() => query.data ?? [], [query.data]);
  // Only the parameters something was judged on this month get a column.
  const params = useMemo(
    () =>
      QUALITY_PARAMS.filter((p) =>
        rows.some((r) => r.Params.some((x) => x.Param === p && (x.LabJudged > 0 || x.OnlineDays > 0))),
      ),
    [rows],
  );
  const columns: ColumnsType<StationCompliance> = [
    { key: 'ProjectName', title: t('records.station'), dataIndex: 'ProjectName', fixed: 'left', width: 140 },
    {
      key: 'Standard',
      title: t('records.standard'),
      render: (_, r) => r.Standard || <Typography.Text type="secondary">{t('records.noStandard')}</Typography.Text>,
    },
    {
      key: 'Samples',
      title: t('records.compliance.samples'),
      render: (_, r) =>
        r.Samples === 0 ? (
          <Tag color="warning">{t('records.compliance.noSamples')}</Tag>
        ) : (
          <RateTag part={r.Compliant} whole={r.Judged} rate={r.Rate} />
        ),
    },
    ...params.map((p: QualityParam) => ({
      key: p,
      title: t(`records.params.${p}`),
      render: (_: unknown, r: StationCompliance) => {
        const x = r.Params.find((item) => item.Param === p);
        if (!x) return null;
        return (
          <Flex vertical gap={2}>
            <span>
              {t('records.compliance.lab')} <RateTag part={x.LabCompliant} whole={x.LabJudged} rate={x.LabRate} />
            </span>
            <span>
              {t('records.compliance.online')} <RateTag part={x.OnlineCompliantDays} whole={x.OnlineDays} rate={x.OnlineRate} />
            </span>
          </Flex>
        );
      },
    })),
  ];
  return (
    <Flex vertical gap={12}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('records.compliance.description')}
      </Typography.Paragraph>
      <Flex gap={8} wrap>
        <div style={{ flex: '1 1 220px', maxWidth: 360 }}>
          <SiteTreeSelect
            value={projectId ?? null}
            onChange={setProjectId}
            allowClear
            placeholder={t('records.compliance.allStations')}
          />
        </div>
        <Input
          type="month"
          aria-label={t('records.report.month')}
          value={month}
          onChange={(e) => {
            setMonth(e.target.value);
          }}
          style={{ width: 160 }}
        />
      </Flex>
      <QueryState query={query} empty={rows.length === 0} emptyText={t('records.compliance.empty')}>
        <section aria-label={t('records.compliance.tableLabel', { month })}>
          <Table
            size="small"
            rowKey="ProjectId"
            dataSource={rows}
            columns={columns}
            scroll={{ x: 'max-content' }}
            pagination={rows.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
          />
        </section>
      </QueryState>
    </Flex>
  );
}
