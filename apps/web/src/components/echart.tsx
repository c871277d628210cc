/**
 * The console's one ECharts wrapper: only the parts line and bar charts use are bundled
 * (tree-shaken), and this module is reached only through lazily loaded screens (the History tab,
 * a statistic card drawn as a chart), so sign-in and the home page's first paint do not carry it. The chart follows its box's size and is replaced when the option changes;
 * a zoom is reported once the user stops, so that the tab can fetch finer data for the window.
 */
import { useEffect, useRef } from 'react';
import { BarChart, LineChart } from 'echarts/charts';
import {
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  MarkAreaComponent,
  MarkLineComponent,
  TooltipComponent,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import type { EChartsCoreOption } from 'echarts/core';

echarts.use([
  BarChart,
  LineChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  DataZoomComponent,
  MarkLineComponent,
  MarkAreaComponent,
  CanvasRenderer,
]);

export type ChartOption = EChartsCoreOption;

/** The time window a zoom shows, read from the first data zoom (its start and end values, ms). */
function zoomWindow(instance: echarts.ECharts): { from: number; to: number } | undefined {
  const option = instance.getOption() as { dataZoom?: { startValue?: unknown; endValue?: unknown }[] };
  const zoom = option.dataZoom?.[0];
  const from = Number(zoom?.startValue);
  const to = Number(zoom?.endValue);
  return Number.isFinite(from) && Number.isFinite(to) && from < to ? { from, to } : undefined;
}

export function EChart({
  option,
  label,
  height,
  onZoom,
}: {
  option: ChartOption;
  label: string;
  height: number;
  /** Told the window a user zoomed to, once they stop (a moment after the last wheel or drag). */
  onZoom?: (window: { from: number; to: number }) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const zoomed = useRef(onZoom);
  useEffect(() => {
    zoomed.current = onZoom;
  }, [onZoom]);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const instance = echarts.init(element);
    chart.current = instance;
    const observer = new ResizeObserver(() => {
      instance.resize();
    });
    observer.observe(element);
    let timer: ReturnType<typeof setTimeout> | undefined;
    instance.on('datazoom', () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const window = zoomWindow(instance);
        if (window) zoomed.current?.(window);
      }, 500);
    });
    return () => {
      clearTimeout(timer);
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
