/**
 * The statistics panel's info cards (spec §2: cards 233 px high; statistics as a chart or a table)
 * for the site shown, or every site the user reaches: treated water today and this month, energy,
 * kWh per m³, effluent compliance, running devices, and any other counter of the types. Each
 * counter card is a chart or a table as its statistic's DisplayType says. Which cards show is the
 * user's choice (the add-statistics dialog), kept in their settings on the server.
 */
import { Suspense, lazy, useCallback, useMemo, useState } from 'react';
import { App, Button, Card, Checkbox, Flex, Modal, Progress, Skeleton, Statistic, Table, Typography, theme } from 'antd';
import { AppstoreAddOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { DEFAULT_DECIMALS, formatLargeNumber, unitText } from '@sluice/shared/number-format';
import {
  ENERGY_KEY,
  STAT_CARDS,
  TREATED_WATER_KEY,
  type SiteStatisticsDto,
  type RegionStatisticsDto,
} from '@sluice/shared/statistics.schema';
import { QueryError } from '../../../components/query-state';
import { myInfoQueryOptions } from '../../../lib/current-user';
import { errorMessage } from '../../../lib/form-errors';
import { saveUserConfig } from '../../../lib/session';
import { regionStatisticsQueryOptions } from '../api/statistics-api';
import type { StatisticsScope } from '../api/projects-api';

const DailyBars = lazy(() => import('./daily-bars'));

export const STAT_CARD_HEIGHT = 233;
const BODY_HEIGHT = STAT_CARD_HEIGHT - 56;

type Total = SiteStatisticsDto['Totals'][number];

/** The cards a user may choose: the fixed ones, then a card per other counter of the figures. */
export function cardChoices(data: RegionStatisticsDto | undefined): string[] {
  const others = (data?.Total.Totals ?? []).map((t) => t.Key).filter((k) => k !== TREATED_WATER_KEY && k !== ENERGY_KEY);
  return [...STAT_CARDS, ...others.map((k) => `total:${k}`)];
}

function useNumber() {
  const { i18n } = useTranslation();
  return useCallback(
    (value: number | null | undefined, unit = '', decimals = DEFAULT_DECIMALS) =>
      value === null || value === undefined
        ? '—'
        : `${formatLargeNumber(value, i18n.language, decimals)}${unit ? ` ${unitText(unit)}` : ''}`,
    [i18n.language],
  );
}

function TotalCard({ title, total }: { title: string; total: Total | undefined }) {
  const { t } = useTranslation();
  const number = useNumber();
  const format = useCallback((v: number) => number(v, total?.SUnit), [number, total?.SUnit]);
  const days = total?.Days ?? [];
  return (
    <Card
      title={title}
      className="sluice-stat-card"
      styles={{ body: { height: BODY_HEIGHT, overflow: 'hidden', paddingTop: 12 } }}
    >
      <Flex gap={16} justify="space-around">
        <Statistic
          title={t('siteStats.today')}
          value={number(total?.Today, total?.SUnit)}
          styles={{ content: { fontSize: 18 } }}
        />
        <Statistic
          title={t('siteStats.month')}
          value={number(total?.Month, total?.SUnit)}
          styles={{ content: { fontSize: 18 } }}
        />
      </Flex>
      {days.length === 0 ? (
        <Typography.Paragraph type="secondary" style={{ textAlign: 'center', marginTop: 24 }}>
          {t('siteStats.noData')}
        </Typography.Paragraph>
      ) : total?.DisplayType === 'table' ? (
        <Table
          size="small"
          rowKey="Date"
          pagination={false}
          scroll={{ y: 64 }}
          aria-label={t('siteStats.daysOf', { name: title })}
          dataSource={[...days].reverse()}
          columns={[
            { key: 'date', title: t('siteStats.date'), dataIndex: 'Date' },
            { key: 'value', title: t('siteStats.value'), align: 'right', render: (_, row) => format(row.Value) },
          ]}
        />
      ) : (
        <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: 90 }} />}>
          <DailyBars days={days} label={t('siteStats.daysOf', { name: title })} format={format} height={96} />
        </Suspense>
      )}
    </Card>
  );
}

function StatCard({ id, site }: { id: string; site: SiteStatisticsDto }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const number = useNumber();
  const body = { body: { height: BODY_HEIGHT, overflow: 'auto' } };
  const totalOf = (key: string) => site.Totals.find((x) => x.Key === key);
  switch (id) {
    case 'treated':
      return <TotalCard title={t('siteStats.treated')} total={totalOf(TREATED_WATER_KEY)} />;
    case 'energy':
      return <TotalCard title={t('siteStats.energy')} total={totalOf(ENERGY_KEY)} />;
    case 'kwhPerM3':
      return (
        <Card title={t('siteStats.kwhPerM3')} className="sluice-stat-card" styles={body}>
          <Flex vertical align="center" gap={8} style={{ paddingTop: 16 }}>
            <Statistic value={number(site.KwhPerM3, '', 3)} suffix={site.KwhPerM3 === null ? undefined : 'kW·h/m³'} />
            <Typography.Text type="secondary">
              {site.KwhPerM3 === null
                ? t('siteStats.noData')
                : t('siteStats.perM3Of', { energy: number(site.EnergyMonth, 'kW·h'), water: number(site.TreatedMonth, 'm3') })}
            </Typography.Text>
          </Flex>
        </Card>
      );
    case 'compliance': {
      const c = site.Compliance;
      const percent = c.Rate === null ? 0 : Math.round(c.Rate * 1000) / 10;
      return (
        <Card title={t('siteStats.compliance')} className="sluice-stat-card" styles={body}>
          <Flex align="center" justify="space-around" gap={16}>
            <Progress
              type="dashboard"
              percent={percent}
              size={112}
              strokeColor={percent >= 100 ? token.colorSuccess : percent >= 90 ? token.colorWarning : token.colorError}
              format={() => <span aria-hidden>{c.Rate === null ? '—' : `${String(percent)}%`}</span>}
              aria-label={t('siteStats.rate', { percent: c.Rate === null ? '—' : percent })}
            />
            <Typography.Text type="secondary" style={{ maxWidth: 120 }}>
              {c.MeasuredDays === 0
                ? t('siteStats.noStandard')
                : t('siteStats.compliantDays', { compliant: c.CompliantDays, measured: c.MeasuredDays })}
            </Typography.Text>
          </Flex>
        </Card>
      );
    }
    case 'running': {
      const running = site.OnlineNum - site.WarningNum;
      return (
        <Card title={t('siteStats.running')} className="sluice-stat-card" styles={body}>
          <Flex vertical align="center" gap={8} style={{ paddingTop: 16 }}>
            <Statistic
              value={running}
              suffix={`/ ${String(site.DeviceNum)}`}
              styles={{ content: { color: token.colorSuccess } }}
              aria-label={t('siteStats.runningOf', { running, total: site.DeviceNum })}
            />
            <Typography.Text type="secondary">
              {t('siteStats.warning', { count: site.WarningNum })} ·{' '}
              {t('siteStats.offline', { count: site.DeviceNum - site.OnlineNum })}
            </Typography.Text>
          </Flex>
        </Card>
      );
    }
    default: {
      const key = id.startsWith('total:') ? id.slice(6) : '';
      const total = totalOf(key);
      return <TotalCard title={total?.Name ?? key} total={total} />;
    }
  }
}

const CARD_TITLES = {
  treated: 'siteStats.treated',
  energy: 'siteStats.energy',
  kwhPerM3: 'siteStats.kwhPerM3',
  compliance: 'siteStats.compliance',
  running: 'siteStats.running',
} as const;

function cardTitle(id: string, data: RegionStatisticsDto | undefined, t: TFunction): string {
  const fixed = STAT_CARDS.find((c) => c === id);
  if (fixed) return t(CARD_TITLES[fixed]);
  const key = id.startsWith('total:') ? id.slice(6) : id;
  return data?.Total.Totals.find((x) => x.Key === key)?.Name ?? key;
}

/** The add-statistics dialog: which cards the panel shows, in the order of the choices. */
function AddStatisticsDialog({
  open,
  chosen,
  choices,
  data,
  onClose,
}: {
  open: boolean;
  chosen: string[];
  choices: string[];
  data: RegionStatisticsDto | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [picked, setPicked] = useState<string[]>(chosen);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    try {
      await saveUserConfig({ StatisticsCards: choices.filter((c) => picked.includes(c)) });
      await client.invalidateQueries({ queryKey: myInfoQueryOptions().queryKey });
      void message.success(t('siteStats.saved'));
      onClose();
    } catch (error) {
      void message.error(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={open}
      title={t('siteStats.dialogTitle')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onOk={() => void save()}
      onCancel={onClose}
      afterOpenChange={(visible) => {
        if (visible) setPicked(chosen);
      }}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('siteStats.dialogHint')}</Typography.Paragraph>
      <Checkbox.Group
        aria-label={t('siteStats.dialogTitle')}
        value={picked}
        onChange={(values) => {
          setPicked(values);
        }}
        style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
        options={choices.map((id) => ({ value: id, label: cardTitle(id, data, t) }))}
      />
    </Modal>
  );
}

export function StatisticCards({ scope }: { scope: StatisticsScope }) {
  const { t } = useTranslation();
  const figures = useQuery(regionStatisticsQueryOptions(scope));
  const user = useQuery(myInfoQueryOptions());
  const [open, setOpen] = useState(false);
  const choices = useMemo(() => cardChoices(figures.data), [figures.data]);
  const chosen = user.data?.Config.StatisticsCards ?? [...STAT_CARDS];
  return (
    <>
      <Flex justify="space-between" align="center" className="sluice-home-stats-site">
        <Typography.Title level={3} style={{ fontSize: 15, margin: 0 }}>
          {t('siteStats.title')}
        </Typography.Title>
        <Button
          size="small"
          icon={<AppstoreAddOutlined />}
          onClick={() => {
            setOpen(true);
          }}
        >
          {t('siteStats.add')}
        </Button>
      </Flex>
      {figures.isError ? (
        <QueryError query={figures} title={t('siteStats.failed')} />
      ) : figures.isPending ? (
        <Card className="sluice-stat-card" loading styles={{ body: { height: BODY_HEIGHT } }} />
      ) : chosen.length === 0 ? (
        <Typography.Text type="secondary">{t('siteStats.none')}</Typography.Text>
      ) : (
        chosen.map((id) => <StatCard key={id} id={id} site={figures.data.Total} />)
      )}
      <AddStatisticsDialog
        open={open}
        chosen={chosen}
        choices={choices}
        data={figures.data}
        onClose={() => {
          setOpen(false);
        }}
      />
    </>
  );
}
