/**
 * A device's History tab: the chart draws the call's answer (one line per chosen numeric point,
 * named with its unit, values to the point's decimals, 2 by default), the quick ranges ask the
 * server for their span, the table view reads the same values, and an empty answer or a failed
 * call (with its retry) are said as such. ECharts needs a canvas jsdom lacks: the chart wrapper
 * is replaced by one that keeps the option it is given, which is what ECharts would draw.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DeviceDataDefineDto } from '@sluice/shared/device-data.schema';
import type { HistoryColumnsDto, HistoryDto } from '@sluice/shared/telemetry.schema';
import { setSessionCookies } from '../../../../lib/cookies';
import { fakeApi, type FakeHandler } from '../../../../test/fake-api';
import { renderRoutes } from '../../../../test/render';
import type { ChartOption } from '../../../../components/echart';
import { HistoryPanel } from './history-panel';

interface DrawnSeries {
  name: string;
  data: [number, number | null][];
}
const drawn: { option?: ChartOption; onZoom?: (window: { from: number; to: number }) => void } = {};
vi.mock('../../../../components/echart', () => ({
  EChart: ({
    option,
    label,
    onZoom,
  }: {
    option: ChartOption;
    label: string;
    onZoom?: (window: { from: number; to: number }) => void;
  }) => {
    drawn.option = option;
    drawn.onZoom = onZoom;
    return <div role="img" aria-label={label} />;
  },
}));

const SN = 'SL0000000777';
const HISTORY = `/api/7/${SN}/DeviceHisData`;
const T0 = Date.UTC(2026, 10, 20, 0, 0);
const define = (id: number, fields: Partial<DeviceDataDefineDto>): DeviceDataDefineDto => ({
  Id: id,
  DeviceSn: SN,
  PanelId: null,
  DataKey: `K${String(id)}`,
  DisplayKey: '',
  DataName: `Point ${String(id)}`,
  Unit: '',
  DataType: 'readable',
  DefaultValue: '',
  Format: '',
  AutoControl: false,
  ...fields,
});
// A state first, as the demo's pumps have it: the chart still opens on the first number.
const DEFINES = [
  define(3, { DataKey: 'PumpRun', DataName: 'Pump run', DataType: 'boolean', Format: '{"0":"Stop","1":"Run"}' }),
  define(1, { DataKey: 'TankLevel', DataName: 'Tank level', Unit: 'm', Format: '1' }),
  define(2, { DataKey: 'Inflow', DataName: 'Inflow', Unit: 'm³/h' }),
  define(5, { DataKey: 'Note', DataName: 'Note', DataType: 'string' }),
];
/** The server's answer to the tab's call, which asks for columns (Layout=columns); written here as rows, for reading. */
const answer = (series: HistoryDto['Series']): HistoryColumnsDto => ({
  DeviceSn: SN,
  BeginTime: T0 - 7 * 86_400_000,
  EndTime: T0,
  Source: 'raw',
  Downsampled: 'none',
  Series: series.map(({ Points, Bands, ...head }) => ({
    ...head,
    Times: Points.map((p) => p[0]),
    Values: Points.map((p) => p[1]),
    ...(Bands ? { Mins: Bands.map((b) => b[1]), Maxs: Bands.map((b) => b[2]) } : {}),
  })),
});
const series = (key: string, name: string, unit: string, points: [number, number | string | null][]) => ({
  Key: key,
  Name: name,
  Unit: unit,
  Defined: true,
  Points: points,
  Count: points.length,
});

function setUp(history: FakeHandler) {
  const api = fakeApi({
    'GET /api/GetDeviceDataDefine': () => ({ data: DEFINES }),
    'GET /api/GetDevicePanels': () => ({ data: [] }),
    [`GET ${HISTORY}`]: history,
  });
  renderRoutes(
    [
      {
        path: '/',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>
              <HistoryPanel g={7} sn={SN} />
            </App>
          </ConfigProvider>
        ),
      },
    ],
    '/',
  );
  return api;
}

const drawnSeries = () => (drawn.option as { series: DrawnSeries[] }).series;
const span = (call: { query: URLSearchParams }) => Number(call.query.get('EndTime')) - Number(call.query.get('BeginTime'));

describe('the History tab', () => {
  beforeEach(() => {
    setSessionCookies({ account: 'someone' });
    drawn.option = undefined;
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('draws the answer’s series for the last 7 days, with units and decimals, and reads them as a table', async () => {
    const user = userEvent.setup();
    const api = setUp((call) => {
      const keys = call.query.get('Keys')?.split(',') ?? [];
      return {
        data: answer(
          [
            series('TankLevel', 'Tank level', 'm', [
              [T0 - 3_600_000, 1.26],
              [T0, 1.3],
            ]),
            series('Inflow', 'Inflow', 'm³/h', [
              [T0 - 3_600_000, 12.3456],
              [T0, 'n/a'],
            ]),
          ].filter((s) => keys.includes(s.Key)),
        ),
      };
    });
    const chart = await screen.findByRole('img', { name: 'History chart of Tank level (m)' });
    expect(chart).toBeTruthy();
    // The first numeric point, the last 7 days.
    const first = api.callsTo('GET', HISTORY)[0];
    expect(first?.query.get('Keys')).toBe('TankLevel');
    expect(first?.query.get('Layout')).toBe('columns');
    expect(span(first as { query: URLSearchParams })).toBe(7 * 86_400_000);
    expect(drawnSeries()).toMatchObject([
      {
        name: 'Tank level (m)',
        data: [
          [T0 - 3_600_000, 1.26],
          [T0, 1.3],
        ],
      },
    ]);

    // Numbers and states are offered, not text; a second number is drawn beside the first, on its own axis.
    await user.click(screen.getByRole('combobox', { name: 'Data points' }));
    await user.click(await screen.findByTitle('Inflow (m³/h)'));
    expect(screen.getByTitle('Pump run')).toBeTruthy();
    expect(screen.queryByTitle('Note')).toBeNull();
    await screen.findByRole('img', { name: 'History chart of Tank level (m), Inflow (m³/h)' });
    expect(api.callsTo('GET', HISTORY).at(-1)?.query.get('Keys')).toBe('TankLevel,Inflow');
    const option = drawn.option as {
      series: (DrawnSeries & { yAxisIndex: number })[];
      yAxis: { name: string }[];
      tooltip: { formatter: (params: unknown) => string };
    };
    expect(option.series.map((s) => [s.name, s.yAxisIndex])).toEqual([
      ['Tank level (m)', 0],
      ['Inflow (m³/h)', 1],
    ]);
    expect(option.yAxis.map((a) => a.name)).toEqual(['m', 'm³/h']);
    // A text value is a gap, not a zero.
    expect(option.series[1]?.data[1]).toEqual([T0, null]);
    // The tooltip: the point's own decimals (1 for the level), 2 where its format says none.
    const tip = option.tooltip.formatter([
      { seriesIndex: 0, marker: '', value: [T0 - 3_600_000, 1.26] },
      { seriesIndex: 1, marker: '', value: [T0 - 3_600_000, 12.3456] },
    ]);
    expect(tip).toContain('Tank level (m): <b>1.3 m</b>');
    expect(tip).toContain('Inflow (m³/h): <b>12.35 m³/h</b>');

    // The table view: the same values, newest first.
    await user.click(screen.getByText('Table'));
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows[1]?.textContent).toContain('1.3 m');
    expect(rows[1]?.textContent).toContain('—');
    expect(rows[2]?.textContent).toContain('12.35 m³/h');

    // A quick range asks for its own span.
    await user.click(screen.getByText('24 h'));
    await waitFor(() => {
      expect(span(api.callsTo('GET', HISTORY).at(-1) as { query: URLSearchParams })).toBe(24 * 3_600_000);
    });
  });

  it('says when the range holds no data', async () => {
    setUp(() => ({ data: answer([series('TankLevel', 'Tank level', 'm', [])]) }));
    expect(await screen.findByText('No data in this range')).toBeTruthy();
    expect(screen.queryByRole('img', { name: /^History chart/ })).toBeNull();
  });

  it('says when the call failed, and draws the chart after a retry', async () => {
    const user = userEvent.setup();
    let failing = true;
    setUp(() =>
      failing
        ? { status: 500, data: null, message: 'The history store is unavailable' }
        : { data: answer([series('TankLevel', 'Tank level', 'm', [[T0, 1.5]])]) },
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The history could not be loaded');
    expect(screen.queryByText('No data in this range')).toBeNull();
    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('img', { name: 'History chart of Tank level (m)' });
    expect(drawnSeries()[0]?.data).toEqual([[T0, 1.5]]);
  });

  it('draws the type’s standard as a line and roll-ups’ min/max as a band, fetches a zoomed window again, and exports what is shown', async () => {
    const user = userEvent.setup();
    const cod = define(4, { DataKey: 'COD_Out', DataName: 'Effluent COD', Unit: 'mg/L' });
    const api = fakeApi({
      'GET /api/GetDeviceDataDefine': () => ({ data: [cod] }),
      'GET /api/GetDevicePanels': () => ({ data: [] }),
      [`GET ${HISTORY}`]: (call) =>
        call.query.get('Format') === 'csv'
          ? { data: 'Time,COD_Out' }
          : {
              data: answer([
                {
                  ...series('COD_Out', 'Effluent COD', 'mg/L', [
                    [T0 - 3_600_000, 40],
                    [T0, 44],
                  ]),
                  Standard: '50',
                  Bands: [
                    [T0 - 3_600_000, 35, 46],
                    [T0, 41, 47],
                  ],
                },
              ]),
            },
    });
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <ConfigProvider theme={{ token: { motion: false } }}>
              <App>
                <HistoryPanel g={7} sn={SN} />
              </App>
            </ConfigProvider>
          ),
        },
      ],
      '/',
    );
    await screen.findByRole('img', { name: 'History chart of Effluent COD (mg/L)' });
    const option = drawn.option as {
      series: {
        name: string;
        stack?: string;
        data: [number, number][];
        markLine?: { data: { yAxis: number; name: string }[] };
      }[];
      legend: { data: string[] };
    };
    // GB 18918-2002 class 1A: COD 50 mg/L, a dashed line at 50.
    expect(option.series[0]?.markLine?.data).toEqual([
      expect.objectContaining({ yAxis: 50, name: 'Effluent COD (mg/L) standard 50' }),
    ]);
    // The band: the minimum, then the spread stacked on it; only the line is in the legend.
    expect(option.series.slice(1).map((s) => [s.stack, s.data])).toEqual([
      [
        'band-0',
        [
          [T0 - 3_600_000, 35],
          [T0, 41],
        ],
      ],
      [
        'band-0',
        [
          [T0 - 3_600_000, 11],
          [T0, 6],
        ],
      ],
    ]);
    expect(option.legend.data).toEqual(['Effluent COD (mg/L)']);

    // Zooming into an hour of the 7 days asks for that hour; the whole range comes back on request.
    const calls = () => api.callsTo('GET', HISTORY).filter((c) => c.query.get('Format') === null);
    drawn.onZoom?.({ from: T0 - 3_600_000, to: T0 });
    await waitFor(() => {
      expect(calls().at(-1)?.query.get('BeginTime')).toBe(String(T0 - 3_600_000));
    });
    expect(calls().at(-1)?.query.get('EndTime')).toBe(String(T0));
    await user.click(await screen.findByRole('button', { name: /Whole range/ }));
    await waitFor(() => {
      expect(span(calls().at(-1) as { query: URLSearchParams })).toBe(7 * 86_400_000);
    });

    // Export: every reading of what is shown, as the server's CSV.
    Object.assign(URL, { createObjectURL: () => 'blob:history', revokeObjectURL: () => undefined });
    await user.click(screen.getByRole('button', { name: /Export/ }));
    await user.click(await screen.findByText('CSV (every reading)'));
    await waitFor(() => {
      expect(api.callsTo('GET', HISTORY).some((c) => c.query.get('Format') === 'csv')).toBe(true);
    });
    const exported = api.callsTo('GET', HISTORY).find((c) => c.query.get('Format') === 'csv');
    expect(exported?.query.get('Keys')).toBe('COD_Out');
  });

  it('draws a state as bands of run and stop under the lines, and reads it by name in the table', async () => {
    const user = userEvent.setup();
    setUp((call) => {
      const keys = call.query.get('Keys')?.split(',') ?? [];
      return {
        data: answer(
          [
            series('TankLevel', 'Tank level', 'm', [[T0 - 7_200_000, 1.2]]),
            series('PumpRun', 'Pump run', '', [
              [T0 - 7_200_000, 1],
              [T0 - 3_600_000, 1],
              [T0 - 1_800_000, 0],
            ]),
          ].filter((s) => keys.includes(s.Key)),
        ),
      };
    });
    await screen.findByRole('img', { name: 'History chart of Tank level (m)' });
    await user.click(screen.getByRole('combobox', { name: 'Data points' }));
    await user.click(await screen.findByTitle('Pump run'));
    await screen.findByRole('img', { name: 'History chart of Tank level (m), Pump run' });
    const option = drawn.option as {
      series: {
        name: string;
        type: string;
        xAxisIndex?: number;
        markArea?: { data: [{ xAxis: number; name: string }, { xAxis: number }][] };
      }[];
      legend: { data: string[] };
    };
    // One line (the level), then the pump's row: run for 90 minutes, then stop to the range's end.
    expect(option.legend.data).toEqual(['Tank level (m)']);
    const pump = option.series.find((s) => s.name === 'Pump run');
    expect(pump?.xAxisIndex).toBe(1);
    expect(pump?.markArea?.data.map(([from, to]) => [from.xAxis, to.xAxis, from.name])).toEqual([
      [T0 - 7_200_000, T0 - 1_800_000, 'Run'],
      [T0 - 1_800_000, T0, 'Stop'],
    ]);
    await user.click(screen.getByText('Table'));
    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('row')[1]?.textContent).toContain('Stop');
  });

  it('draws the station’s laboratory results beside the analyser’s line of the same parameter', async () => {
    const user = userEvent.setup();
    const api = fakeApi({
      'GET /api/GetDeviceDataDefine': () => ({
        data: [define(8, { DataKey: 'NH3_N_Out', DataName: 'NH3-N effluent', Unit: 'mg/L', Format: '2' })],
      }),
      'GET /api/GetDevicePanels': () => ({ data: [] }),
      [`GET ${HISTORY}`]: () => ({
        data: answer([
          series('NH3_N_Out', 'NH3-N effluent', 'mg/L', [
            [T0 - 7_200_000, 4.1],
            [T0, 4.4],
          ]),
        ]),
      }),
      // Two samples of the station: one in mg/L, one entered in g/L (0.0052 g/L is 5.2 mg/L); one without NH3-N.
      'GET /api/7/DeviceInput': () => [
        { Dt: T0 - 3_600_000, NH3_N_Out: 0.0052, NH3_N_Unit: 'g/L' },
        { Dt: T0 - 5_400_000, NH3_N_Out: 4.6, NH3_N_Unit: 'mg/L' },
        { Dt: T0 - 6_000_000, NH3_N_Out: null, NH3_N_Unit: 'mg/L', COD_Out: 30 },
      ],
    });
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <ConfigProvider theme={{ token: { motion: false } }}>
              <App>
                <HistoryPanel g={7} sn={SN} stationId={21} />
              </App>
            </ConfigProvider>
          ),
        },
      ],
      '/',
    );
    await screen.findByText('Dots: laboratory results of the station (2 in this range), beside the analyser’s line');
    const lab = api.callsTo('GET', '/api/7/DeviceInput')[0];
    expect(lab?.query.get('ProjectId')).toBe('21');
    expect(Number(lab?.query.get('End')) - Number(lab?.query.get('Begin'))).toBe(7 * 86_400_000);
    const option = drawn.option as {
      series: (DrawnSeries & { type: string; yAxisIndex: number })[];
      legend: { data: string[] };
      tooltip: { formatter: (params: unknown) => string };
    };
    expect(option.legend.data).toEqual(['NH3-N effluent (mg/L)', 'NH3-N effluent (mg/L), laboratory']);
    expect(option.series.map((x) => [x.name, x.type, x.yAxisIndex])).toEqual([
      ['NH3-N effluent (mg/L)', 'line', 0],
      ['NH3-N effluent (mg/L), laboratory', 'scatter', 0],
    ]);
    expect(option.series[1]?.data).toEqual([
      [T0 - 5_400_000, 4.6],
      [T0 - 3_600_000, 5.2],
    ]);
    expect(option.tooltip.formatter([{ seriesIndex: 1, marker: '', value: [T0 - 3_600_000, 5.2] }])).toContain(
      'NH3-N effluent (mg/L), laboratory: <b>5.20 mg/L</b>',
    );
    // The table view has the laboratory values in a column of their own.
    await user.click(screen.getByText('Table'));
    const table = await screen.findByRole('table');
    expect(within(table).getAllByText('NH3-N effluent (mg/L), laboratory').length).toBeGreaterThan(0);
    expect(within(table).getByText('5.20 mg/L')).toBeTruthy();
  });
});
