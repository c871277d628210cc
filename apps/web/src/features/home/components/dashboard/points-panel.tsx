/**
 * A panel's data points and their newest values (what the page fetched, overlaid with what
 * arrives live), each shown by its view (the type's panel view for the point, or the one the
 * user picks for the panel): numbers, gauges and levels, or state lights. In the monitoring view
 * the user picks which points the panel monitors; a long list loads more on demand.
 */
import { useState } from 'react';
import { Flex, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../../lib/dates';
import { LoadMore } from '../../../../components/dashboard/load-more';
import { useCurrentValues } from '../use-current-values';
import { PointView, VIEW_KINDS, type PointRow, type ViewKind } from './point-view';

const VIEW_OPTIONS = [
  { value: -1, key: 'dashboard.view.byPoint' },
  { value: VIEW_KINDS.detection, key: 'dashboard.view.detection' },
  { value: VIEW_KINDS.monitoring, key: 'dashboard.view.monitoring' },
  { value: VIEW_KINDS.status, key: 'dashboard.view.status' },
] as const;

export function PointsPanel({ g, sn, points, title }: { g: number; sn: string; points: PointRow[]; title: string }) {
  const { t } = useTranslation();
  const { valueOf, time } = useCurrentValues(g, sn);
  const [view, setView] = useState<ViewKind | -1>(-1);
  const [monitored, setMonitored] = useState<string[]>([]);
  const rows = view === -1 ? points : points.map((p) => ({ ...p, view }));
  const monitoring = rows.some((p) => p.view === VIEW_KINDS.monitoring);
  const listed = monitored.length > 0 ? rows.filter((p) => monitored.includes(p.key)) : rows;

  if (points.length === 0) return <Typography.Text type="secondary">{t('dashboard.emptyPanel')}</Typography.Text>;
  return (
    <Flex vertical gap={8}>
      <Flex gap={8} wrap align="center" className="sluice-points-toolbar">
        <Select
          size="small"
          value={view}
          aria-label={`${t('dashboard.view.label')}: ${title}`}
          style={{ minWidth: 150 }}
          options={VIEW_OPTIONS.map((o) => ({ value: o.value, label: t(o.key) }))}
          onChange={setView}
        />
        {monitoring && points.length > 1 ? (
          <Select
            size="small"
            mode="multiple"
            allowClear
            maxTagCount="responsive"
            value={monitored}
            placeholder={t('dashboard.monitorAll')}
            aria-label={`${t('dashboard.monitorSelect')}: ${title}`}
            style={{ minWidth: 180, flex: '1 1 180px' }}
            options={points.map((p) => ({ value: p.key, label: p.name }))}
            onChange={setMonitored}
          />
        ) : null}
      </Flex>
      <LoadMore items={listed}>
        {(shown) => {
          const numbers = shown.filter((p) => p.view === VIEW_KINDS.detection);
          const gauges = shown.filter((p) => p.view === VIEW_KINDS.monitoring);
          const lights = shown.filter((p) => p.view === VIEW_KINDS.status);
          return (
            <>
              {numbers.length > 0 ? (
                <table className="sluice-points-table">
                  <tbody>
                    {numbers.map((point) => (
                      <PointView key={point.key} point={point} value={valueOf(point.key)} />
                    ))}
                  </tbody>
                </table>
              ) : null}
              {gauges.length > 0 ? (
                <Flex wrap gap={16}>
                  {gauges.map((point) => (
                    <PointView key={point.key} point={point} value={valueOf(point.key)} />
                  ))}
                </Flex>
              ) : null}
              {lights.length > 0 ? (
                <Flex vertical gap={6}>
                  {lights.map((point) => (
                    <PointView key={point.key} point={point} value={valueOf(point.key)} />
                  ))}
                </Flex>
              ) : null}
            </>
          );
        }}
      </LoadMore>
      {time != null ? (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('live.updated', { time: formatDateTime(time) })}
        </Typography.Text>
      ) : null}
    </Flex>
  );
}
