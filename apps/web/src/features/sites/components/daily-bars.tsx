/**
 * A month's daily values as small bars, for a statistic card shown as a chart. The card loads
 * this module lazily, so the home page's first paint does not carry ECharts.
 */
import { useMemo } from 'react';
import { theme } from 'antd';
import { EChart } from '../../../components/echart';
import { BRAND_GREEN } from '../../../lib/theme';

export interface DailyBarsProps {
  days: { Date: string; Value: number }[];
  label: string;
  format: (value: number) => string;
  height: number;
}

export default function DailyBars({ days, label, format, height }: DailyBarsProps) {
  const { token } = theme.useToken();
  const option = useMemo(
    () => ({
      animation: false,
      grid: { left: 4, right: 4, top: 8, bottom: 20, containLabel: true },
      tooltip: {
        trigger: 'axis',
        backgroundColor: token.colorBgElevated,
        borderColor: token.colorBorderSecondary,
        textStyle: { color: token.colorText },
        valueFormatter: (v: unknown) => (typeof v === 'number' ? format(v) : ''),
      },
      xAxis: {
        type: 'category',
        data: days.map((d) => d.Date.slice(8)),
        axisLabel: { color: token.colorTextSecondary, fontSize: 10 },
        axisLine: { lineStyle: { color: token.colorBorder } },
      },
      yAxis: {
        type: 'value',
        // Two steps fit the card's 96 px; more crowd their labels.
        splitNumber: 2,
        axisLabel: { color: token.colorTextSecondary, fontSize: 10 },
        splitLine: { lineStyle: { color: token.colorBorderSecondary } },
      },
      series: [{ type: 'bar', data: days.map((d) => d.Value), itemStyle: { color: BRAND_GREEN }, barMaxWidth: 12 }],
    }),
    [days, format, token],
  );

  return <EChart option={option} label={label} height={height} />;
}
