/**
 * A month's daily values as small bars, for a statistic card shown as a chart. ECharts (only the
 * bar chart's parts) comes with this module, which the card loads lazily, so the home page's
 * first paint does not carry it.
 */
import { useEffect, useMemo, useRef } from 'react';
import { BarChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { theme } from 'antd';
import { BRAND_GREEN } from '../../../lib/theme';

echarts.use([BarChart, GridComponent, TooltipComponent, CanvasRenderer]);

export interface DailyBarsProps {
  days: { Date: string; Value: number }[];
  label: string;
  format: (value: number) => string;
  height: number;
}

export default function DailyBars({ days, label, format, height }: DailyBarsProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
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

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const instance = echarts.init(element);
    chart.current = instance;
    const observer = new ResizeObserver(() => {
      instance.resize();
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return <div ref={box} role="img" aria-label={label} style={{ width: '100%', height }} />;
}
