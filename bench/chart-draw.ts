/**
 * The History chart's drawing in Chromium: ten series of 2,000 points each (what DeviceHisData
 * answers for ten data points at its default MaxPoints), in the shape the History tab gives
 * ECharts — a time axis, two value axes, a line per series without symbols, zoom inside and a
 * slider, a dashed standard line on one series — drawn into a 1200 × 400 canvas. Timed with
 * performance marks from the moment the data is there (setOption) to ECharts' `finished` event,
 * a fresh chart each run. Beside it, the ceiling: the same 20,000 points stroked on a bare 2D
 * canvas, which is what the browser itself costs.
 *
 *   npm run bench:chart-draw
 */
import { loadavg } from 'node:os';
import path from 'node:path';
import { launchChromium } from './in-process.ts';
import { ROOT, percentile } from './live-server.ts';

const RUNS = Number(process.env.RUNS ?? 20);
const SERIES = 10;
const POINTS = 2_000;

const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.setContent(
  '<div id="chart" style="width:1200px;height:400px"></div><canvas id="bare" width="1200" height="400"></canvas>',
);
await page.addScriptTag({ path: path.join(ROOT, 'node_modules/echarts/dist/echarts.min.js') });

interface Run {
  chart: number;
  bare: number;
}

const runs: Run[] = [];
for (let i = 0; i < RUNS + 3; i++) {
  const run = await page.evaluate(
    async ({ series, points }) => {
      const end = Date.now();
      const data = Array.from({ length: series }, (_, s) =>
        Array.from({ length: points }, (_, p) => [end - (points - p) * 300_000, 10 * s + Math.sin(p / 50) * 3 + Math.random()]),
      );
      const element = document.getElementById('chart');
      const echarts = (window as unknown as { echarts: { init: (e: HTMLElement | null) => EChartsLike } }).echarts;
      interface EChartsLike {
        setOption: (option: unknown) => void;
        on: (event: string, handler: () => void) => void;
        dispose: () => void;
      }
      const chart = echarts.init(element);
      const option = {
        animation: false,
        legend: { type: 'scroll', top: 0 },
        tooltip: { trigger: 'axis' },
        grid: { left: 8, right: 8, top: 40, bottom: 56, containLabel: true },
        xAxis: { type: 'time', min: end - points * 300_000, max: end },
        yAxis: [
          { type: 'value', name: 'mg/L', position: 'left', scale: true },
          { type: 'value', name: 'm', position: 'right', scale: true },
        ],
        dataZoom: [
          { type: 'inside', xAxisIndex: 0, filterMode: 'none' },
          { type: 'slider', xAxisIndex: 0, filterMode: 'none', height: 20, bottom: 8 },
        ],
        series: data.map((d, s) => ({
          type: 'line',
          name: `Series ${String(s)}`,
          yAxisIndex: s % 2,
          showSymbol: false,
          data: d,
          ...(s === 0 ? { markLine: { symbol: 'none', lineStyle: { type: 'dashed' }, data: [{ yAxis: 2 }] } } : {}),
        })),
      };
      const finished = new Promise<void>((resolve) => {
        chart.on('finished', resolve);
      });
      performance.mark('data');
      chart.setOption(option);
      await finished;
      performance.mark('drawn');
      const drawn = performance.measure('chart', 'data', 'drawn').duration;
      chart.dispose();

      const canvas = document.getElementById('bare') as HTMLCanvasElement;
      const context = canvas.getContext('2d');
      const t0 = performance.now();
      if (context) {
        context.clearRect(0, 0, 1200, 400);
        for (const d of data) {
          context.beginPath();
          d.forEach(([x, y], p) => {
            const px = ((x ?? 0) - (end - points * 300_000)) / (points * 300);
            const py = 400 - (y ?? 0) * 3.5;
            if (p === 0) context.moveTo(px, py);
            else context.lineTo(px, py);
          });
          context.stroke();
        }
        // Reading a pixel waits for the drawing to be done.
        context.getImageData(0, 0, 1, 1);
      }
      const bare = performance.now() - t0;
      performance.clearMarks();
      performance.clearMeasures();
      return { chart: drawn, bare };
    },
    { series: SERIES, points: POINTS },
  );
  if (i >= 3) runs.push(run);
}
await browser.close();

const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `median ${percentile(sorted, 50).toFixed(1)} ms, worst ${(sorted.at(-1) ?? NaN).toFixed(1)} ms`;
};
console.log(
  `Ten series of 2,000 points in Chromium, ${String(RUNS)} runs after 3 warm-ups (load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}):`,
);
console.log(`  ECharts, setOption → finished:        ${summary(runs.map((r) => r.chart))}`);
console.log(`  ceiling, bare canvas of the points:   ${summary(runs.map((r) => r.bare))}`);
