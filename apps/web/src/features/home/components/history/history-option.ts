/**
 * What the History chart draws, as an ECharts option built from the server's answer: one line per
 * numeric data point named with its unit, an axis per unit (a second one on the right when units
 * differ), values in tooltips to the point's decimals (2 when its format says none, spec §9),
 * zoom by wheel, touch and slider, in the theme's colours.
 */
import { formatDecimals, type DataOption } from '@sluice/shared/data-types';
import { formatNumber } from '@sluice/shared/number-format';
import type { HistoryColumnsDto } from '@sluice/shared/telemetry.schema';
import { UNIT_TO_MG_PER_L, type DeviceInputDto } from '@sluice/shared/field-records.schema';
import { BRAND_GREEN } from '../../../../lib/theme';

/** Series colours after the brand green; each reads on both the light and the dark page. */
export const SERIES_COLORS = [BRAND_GREEN, '#1677ff', '#faad14', '#eb2f96', '#13c2c2', '#9254de', '#fa541c', '#2f54eb'];

/** The theme's colours a chart needs (from Ant Design's tokens of the current theme). */
export interface ChartColors {
  text: string;
  secondaryText: string;
  line: string;
  tooltipBackground: string;
}

export interface HistoryLine {
  key: string;
  /** The name with its unit, as the legend and the table show it. */
  label: string;
  unit: string;
  decimals: number;
  /** [time ms, value]; null where the device sent no number. */
  points: [number, number | null][];
  /** The type's standard of the key ('50', or '6,9' for a band), drawn as lines. */
  standard?: string;
  /** From roll-ups: [time ms, min, max] of each point's bucket, drawn as a band. */
  bands?: [number, number, number][];
  /** A state (boolean, enum, select): its options in order, value → label; drawn as bands, not a line. */
  states?: DataOption[];
  /** Laboratory results of the same parameter: [sample time ms, value], drawn as dots beside the line. */
  lab?: [number, number][];
}

/** The laboratory field a data key stands for (COD_Out, NH3_N_In …), when it is one. */
const LAB_KEY = /^(COD|BOD5|NH3_N|TN|TP|SS|PH|FC)_(In|Out)$/;

/**
 * Each line of a water-quality key gets the station's laboratory values of that key, in mg/L
 * (a result entered in g/L is converted), oldest first.
 */
export function withLabResults(lines: readonly HistoryLine[], results: readonly DeviceInputDto[]): HistoryLine[] {
  return lines.map((line) => {
    const match = LAB_KEY.exec(line.key);
    if (!match || line.states) return line;
    const fields = (r: DeviceInputDto) => r as unknown as Record<string, unknown>;
    const lab = results
      .flatMap((r): [number, number][] => {
        const value = fields(r)[line.key];
        if (typeof value !== 'number') return [];
        const unit = fields(r)[`${match[1] ?? ''}_Unit`];
        const factor = typeof unit === 'string' ? ((UNIT_TO_MG_PER_L as Record<string, number | undefined>)[unit] ?? 1) : 1;
        return [[r.Dt, value * factor]];
      })
      .sort(([a], [b]) => a - b);
    return lab.length > 0 ? { ...line, lab } : line;
  });
}

export function formatHistoryValue(
  line: Pick<HistoryLine, 'decimals' | 'unit' | 'states'>,
  value: number | null | undefined,
): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  if (line.states) return stateOf(line.states, value)?.label ?? String(value);
  return `${formatNumber(value, line.decimals)}${line.unit ? ` ${line.unit}` : ''}`;
}

/** A state's option of a value; a roll-up's average is read as the nearest state (the one that held most of a bucket, for a boolean). */
export function stateOf(states: readonly DataOption[], value: number): DataOption | undefined {
  return states.find((o) => Number(o.value) === value) ?? states.find((o) => Number(o.value) === Math.round(value));
}

/** A state line's runs of one state: [from, to, option index]. */
export function stateRuns(line: HistoryLine, end: number): [number, number, number][] {
  const runs: [number, number, number][] = [];
  const states = line.states ?? [];
  line.points.forEach(([time, value], i) => {
    const next = line.points[i + 1]?.[0] ?? end;
    const state = value === null ? undefined : stateOf(states, value);
    if (!state) return;
    const index = states.indexOf(state);
    const last = runs.at(-1);
    if (last && last[2] === index && last[1] === time) last[1] = next;
    else runs.push([time, next, index]);
  });
  return runs;
}

/** The answer's series (in columns) as lines, with the decimals of each point's format; `states` gives state points' options. */
export function historyLines(
  history: HistoryColumnsDto,
  formats: ReadonlyMap<string, string>,
  states: ReadonlyMap<string, DataOption[]> = new Map(),
): HistoryLine[] {
  return history.Series.map((series) => {
    const { Times: times, Values: values, Mins: mins, Maxs: maxs } = series;
    return {
      key: series.Key,
      label: series.Unit ? `${series.Name} (${series.Unit})` : series.Name,
      unit: series.Unit,
      decimals: formatDecimals(formats.get(series.Key)),
      points: times.map((time, i): [number, number | null] => {
        const value = values[i];
        return [time, typeof value === 'number' ? value : null];
      }),
      ...(series.Standard ? { standard: series.Standard } : {}),
      ...(mins && maxs && times.length > 0 && !states.has(series.Key)
        ? { bands: times.map((time, i): [number, number, number] => [time, mins[i] ?? NaN, maxs[i] ?? NaN]) }
        : {}),
      ...(states.has(series.Key) ? { states: states.get(series.Key) } : {}),
    };
  });
}

export const hasData = (lines: readonly HistoryLine[]) => lines.some((line) => line.points.some(([, v]) => v !== null));

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

interface TooltipItem {
  seriesIndex?: number;
  marker?: unknown;
  value?: unknown;
}

/** A standard's limits: its maximum, and its minimum for a band ('6,9'). */
export function standardLimits(standard: string | undefined): number[] {
  if (!standard) return [];
  return standard
    .replace(/，/g, ',')
    .split(',')
    .map((part) => Number(part.trim()))
    .filter((n) => Number.isFinite(n));
}

/** Lines up to which each gets its min/max band, and the points a band is drawn with at most. */
export const BANDS_UP_TO = 3;
const BAND_POINTS = 400;

/** Height of one state's band under the chart, and the chart's own bottom margin. */
const STATE_ROW = 26;
const BOTTOM = 56;
/** The height a chart of these lines needs: the lines' part, and a row per state. */
export const chartHeight = (lines: readonly HistoryLine[], base: number) =>
  base + lines.filter((l) => l.states).length * STATE_ROW;

/** State colours: a boolean's 1 (run, on) in the brand green, its 0 grey; an enum's options in series colours. */
const stateColor = (line: HistoryLine, index: number): string => {
  const states = line.states ?? [];
  if (states.length === 2 && states.every((o) => o.value === '0' || o.value === '1'))
    return states[index]?.value === '1' ? BRAND_GREEN : '#8c8c8c';
  return SERIES_COLORS[(index + 1) % SERIES_COLORS.length] ?? BRAND_GREEN;
};

export function historyOption(
  allLines: readonly HistoryLine[],
  colors: ChartColors,
  formatTime: (ms: number) => string,
  range: { from: number; to: number },
  texts: {
    standard: (line: HistoryLine, limit: string) => string;
    band: (line: HistoryLine) => string;
    lab?: (line: HistoryLine) => string;
  } = {
    standard: (line, limit) => `${line.label} ≤ ${limit}`,
    band: (line) => `${line.label} min–max`,
  },
) {
  const lines = allLines.filter((line) => !line.states);
  // Laboratory dots come right after the lines (the tooltip reads series by index).
  const labLines = lines.filter((line) => line.lab);
  const labLabel = texts.lab ?? ((line: HistoryLine) => `${line.label} (lab)`);
  const stateLines = allLines.filter((line) => line.states);
  const units = [...new Set(lines.map((line) => line.unit))];
  const axisOf = (unit: string) => Math.min(units.indexOf(unit), 1);
  const axisLabel = { color: colors.secondaryText };
  return {
    color: SERIES_COLORS,
    animation: false,
    textStyle: { color: colors.text },
    grid: [
      { left: 8, right: 8, top: 40, bottom: BOTTOM + stateLines.length * STATE_ROW, containLabel: true },
      // A row per state under the lines, above the zoom slider.
      ...stateLines.map((_, i) => ({
        left: 8,
        right: 8,
        height: STATE_ROW - 6,
        bottom: BOTTOM - 20 + (stateLines.length - i - 1) * STATE_ROW,
        containLabel: true,
      })),
    ],
    legend: {
      type: 'scroll',
      top: 0,
      textStyle: { color: colors.text },
      data: [...lines.map((line) => line.label), ...labLines.map(labLabel)],
    },
    tooltip: {
      trigger: 'axis',
      confine: true,
      backgroundColor: colors.tooltipBackground,
      borderColor: colors.line,
      textStyle: { color: colors.text },
      formatter: (params: TooltipItem | TooltipItem[]) => {
        // The lines and their laboratory dots: band series (after them) are not values of their own.
        const items = (Array.isArray(params) ? params : [params]).filter(
          (item) => (item.seriesIndex ?? -1) < lines.length + labLines.length,
        );
        const first = items[0]?.value;
        const time = Array.isArray(first) ? Number(first[0]) : NaN;
        const rows = items.map((item) => {
          const index = item.seriesIndex ?? -1;
          const line = index < lines.length ? lines[index] : labLines[index - lines.length];
          if (!line) return '';
          const label = index < lines.length ? line.label : labLabel(line);
          const value = Array.isArray(item.value) ? (item.value[1] as number | null) : null;
          return `${typeof item.marker === 'string' ? item.marker : ''}${escapeHtml(label)}: <b>${escapeHtml(formatHistoryValue(line, value))}</b>`;
        });
        return [Number.isNaN(time) ? '' : escapeHtml(formatTime(time)), ...rows].join('<br/>');
      },
    },
    xAxis: [
      { type: 'time', min: range.from, max: range.to, axisLabel, axisLine: { lineStyle: { color: colors.line } } },
      ...stateLines.map((_, i) => ({
        type: 'time',
        gridIndex: i + 1,
        min: range.from,
        max: range.to,
        show: false,
      })),
    ],
    yAxis: [
      // Only states chosen: the lines' grid still needs an axis.
      ...(units.length === 0 ? [{ type: 'value', show: false }] : []),
      ...units.slice(0, 2).map((unit, i) => ({
        type: 'value',
        name: unit,
        position: i === 0 ? 'left' : 'right',
        scale: true,
        nameTextStyle: { color: colors.secondaryText },
        axisLabel,
        splitLine: { show: i === 0, lineStyle: { color: colors.line } },
      })),
      ...stateLines.map((line, i) => ({
        type: 'category',
        gridIndex: i + 1,
        data: [line.label],
        axisTick: { show: false },
        axisLine: { show: false },
        axisLabel: { color: colors.secondaryText, width: 120, overflow: 'truncate' },
      })),
    ],
    dataZoom: [
      { type: 'inside', xAxisIndex: allXAxes(stateLines.length), filterMode: 'none' },
      {
        type: 'slider',
        xAxisIndex: allXAxes(stateLines.length),
        filterMode: 'none',
        height: 20,
        bottom: 8,
        textStyle: { color: colors.secondaryText },
      },
    ],
    series: [
      ...lines.map((line) => ({
        type: 'line',
        name: line.label,
        yAxisIndex: axisOf(line.unit),
        showSymbol: false,
        // More points than the axis has pixels are thinned to its pixels' worth, keeping the shape.
        sampling: 'lttb',
        connectNulls: false,
        data: line.points,
        ...(standardLimits(line.standard).length > 0
          ? {
              markLine: {
                silent: true,
                symbol: 'none',
                lineStyle: { type: 'dashed', width: 1.5 },
                label: { position: 'insideEndTop', color: colors.text },
                data: standardLimits(line.standard).map((limit) => ({
                  yAxis: limit,
                  name: texts.standard(line, String(limit)),
                  label: { formatter: texts.standard(line, String(limit)) },
                })),
              },
            }
          : {}),
      })),
      ...labLines.map((line) => ({
        type: 'scatter',
        name: labLabel(line),
        yAxisIndex: axisOf(line.unit),
        symbol: 'diamond',
        symbolSize: 11,
        itemStyle: { color: SERIES_COLORS[lines.indexOf(line) % SERIES_COLORS.length], borderColor: colors.text, borderWidth: 1 },
        z: 5,
        data: line.lab,
      })),
      // Each band as a transparent line at the minimum with the spread stacked on it and filled;
      // only while the chart has few lines (more overlap into one blur, and drawing them cost
      // twice the lines themselves: bench:chart-draw), thinned to BAND_POINTS.
      ...lines.flatMap((line, i) =>
        line.bands && lines.length <= BANDS_UP_TO
          ? ((bands) => [
              {
                type: 'line',
                name: `${texts.band(line)} (min)`,
                yAxisIndex: axisOf(line.unit),
                stack: `band-${String(i)}`,
                showSymbol: false,
                silent: true,
                lineStyle: { opacity: 0 },
                data: bands.map(([time, min]) => [time, min]),
              },
              {
                type: 'line',
                name: texts.band(line),
                yAxisIndex: axisOf(line.unit),
                stack: `band-${String(i)}`,
                showSymbol: false,
                silent: true,
                lineStyle: { opacity: 0 },
                areaStyle: { color: SERIES_COLORS[i % SERIES_COLORS.length], opacity: 0.15 },
                data: bands.map(([time, min, max]) => [time, max - min]),
              },
            ])(envelope(line.bands, BAND_POINTS))
          : [],
      ),
      // Each state as coloured runs in its row, labelled with the state's name where there is room.
      ...stateLines.map((line, i) => ({
        type: 'line',
        name: line.label,
        xAxisIndex: i + 1,
        yAxisIndex: Math.max(1, Math.min(units.length, 2)) + i,
        data: [],
        markArea: {
          silent: false,
          label: { show: true, position: 'inside', color: '#fff', fontSize: 11 },
          data: stateRuns(line, range.to).map(([from, to, index]) => [
            {
              xAxis: from,
              name: line.states?.[index]?.label ?? '',
              itemStyle: { color: stateColor(line, index), opacity: 0.85 },
            },
            { xAxis: to },
          ]),
        },
      })),
    ],
  };
}

/** A band thinned to at most `most` points: each the lowest minimum and highest maximum of the buckets it stands for. */
export function envelope(bands: readonly [number, number, number][], most: number): [number, number, number][] {
  const factor = Math.ceil(bands.length / most);
  if (factor <= 1) return [...bands];
  const out: [number, number, number][] = [];
  for (let i = 0; i < bands.length; i += factor) {
    const first = bands[i];
    if (!first) break;
    let [, min, max] = first;
    for (let j = i + 1; j < Math.min(bands.length, i + factor); j++) {
      const b = bands[j];
      if (!b) continue;
      if (b[1] < min) min = b[1];
      if (b[2] > max) max = b[2];
    }
    out.push([first[0], min, max]);
  }
  return out;
}

const allXAxes = (states: number) => Array.from({ length: states + 1 }, (_, i) => i);
