/**
 * The History chart's drawing in Chromium: ten series of 2,000 points each (what DeviceHisData
 * answers for ten data points of a year at its default MaxPoints: hourly roll-ups merged, each
 * point with its bucket's min and max), then three such series (which the tab draws with their
 * min/max bands), in the History tab's own option — its `historyLines` and
 * `historyOption` (apps/web/src/features/home/components/history/history-option.ts), bundled for
 * the page with rolldown — drawn by ECharts into a 1200 × 400 canvas. Timed with performance
 * marks from the moment the answer is there (before the lines are made from it) to ECharts'
 * `finished` event, a fresh chart each run. Beside it, the ceiling: the same 20,000 points
 * stroked on a bare 2D canvas, which is what the browser itself costs.
 *
 *   npm run bench:chart-draw
 */
import { loadavg } from 'node:os';
import path from 'node:path';
import { build } from 'rolldown';
import { launchChromium } from './in-process.ts';
import { ROOT, percentile } from './live-server.ts';

const RUNS = Number(process.env.RUNS ?? 20);
const SERIES = 10;
const POINTS = 2_000;

// The tab's option builder as a script for the page (window.HistoryOption).
const bundle = await build({
  input: path.join(ROOT, 'apps/web/src/features/home/components/history/history-option.ts'),
  cwd: ROOT,
  write: false,
  output: { format: 'iife', name: 'HistoryOption' },
  logLevel: 'silent',
});
const optionScript = bundle.output[0].code;

const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.setContent(
  '<div id="chart" style="width:1200px;height:400px"></div><canvas id="bare" width="1200" height="400"></canvas>',
);
await page.addScriptTag({ path: path.join(ROOT, 'node_modules/echarts/dist/echarts.min.js') });
await page.addScriptTag({ content: optionScript });

interface Run {
  chart: number;
  bare: number;
}

async function measure(series: number): Promise<Run[]> {
  const runs: Run[] = [];
  for (let i = 0; i < RUNS + 3; i++) {
    const run = await page.evaluate(
      async ({ series, points }) => {
        interface EChartsLike {
          setOption: (option: unknown) => void;
          on: (event: string, handler: () => void) => void;
          dispose: () => void;
        }
        const w = window as unknown as {
          echarts: { init: (e: HTMLElement | null) => EChartsLike };
          HistoryOption: {
            historyLines: (answer: unknown, formats: Map<string, string>) => unknown[];
            historyOption: (
              lines: unknown[],
              colors: Record<string, string>,
              formatTime: (ms: number) => string,
              range: { from: number; to: number },
            ) => unknown;
          };
        };
        const end = Date.now();
        const step = 5 * 3_600_000;
        const from = end - points * step;
        // The answer as the tab receives it (Layout=columns): two units, a standard on the first series.
        const answer = {
          DeviceSn: 'BENCH',
          BeginTime: from,
          EndTime: end,
          Source: 'hour',
          Downsampled: 'minmax',
          Series: Array.from({ length: series }, (_, s) => {
            const values = Array.from({ length: points }, (_, p) => 10 * s + Math.sin(p / 50) * 3 + Math.random());
            return {
              Key: `P${String(s)}`,
              Name: `Series ${String(s)}`,
              Unit: s % 2 === 0 ? 'mg/L' : 'm',
              Defined: true,
              Count: points * 60,
              ...(s === 0 ? { Standard: '12' } : {}),
              Times: Array.from({ length: points }, (_, p) => from + p * step),
              Values: values,
              Mins: values.map((v) => v - 1 - Math.random()),
              Maxs: values.map((v) => v + 1 + Math.random()),
            };
          }),
        };
        const element = document.getElementById('chart');
        const chart = w.echarts.init(element);
        const finished = new Promise<void>((resolve) => {
          chart.on('finished', resolve);
        });
        performance.mark('data');
        const lines = w.HistoryOption.historyLines(answer, new Map());
        const option = w.HistoryOption.historyOption(
          lines,
          { text: '#000', secondaryText: '#666', line: '#ddd', tooltipBackground: '#fff' },
          (ms) => new Date(ms).toISOString(),
          { from, to: end },
        );
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
          for (const s of answer.Series) {
            context.beginPath();
            s.Times.forEach((x, p) => {
              const px = (x - from) / (points * 3 * 6000);
              const py = 400 - (s.Values[p] ?? 0) * 3.5;
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
      { series, points: POINTS },
    );
    if (i >= 3) runs.push(run);
  }
  return runs;
}
const ten = await measure(SERIES);
// Up to three lines the tab also draws each one's min/max band (BANDS_UP_TO).
const three = await measure(3);
await browser.close();

const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `median ${percentile(sorted, 50).toFixed(1)} ms, worst ${(sorted.at(-1) ?? NaN).toFixed(1)} ms`;
};
console.log(
  `Series of 2,000 points (hourly roll-ups with min/max) in Chromium, the History tab's option, ${String(RUNS)} runs after 3 warm-ups (load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}):`,
);
console.log(`  ten series, answer → drawn:              ${summary(ten.map((r) => r.chart))}`);
console.log(`  ceiling, bare canvas of those points:    ${summary(ten.map((r) => r.bare))}`);
console.log(`  three series with their bands:           ${summary(three.map((r) => r.chart))}`);
