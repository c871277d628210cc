/**
 * The statistics panel's cards: the figures of GetRegionStatisticsDevice for the site shown (or
 * all), each counter as a chart or a table per its DisplayType, numbers in Chinese by 万, and the
 * add-statistics dialog saving the user's choice to their settings on the server. The bar chart
 * needs a canvas jsdom lacks: it is replaced by one that keeps the days it is given.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RegionStatisticsDto, SiteStatisticsDto } from '@sluice/shared/statistics.schema';
import { setSessionCookies } from '../../../lib/cookies';
import { i18n } from '../../../lib/i18n';
import { fakeApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render';
import { StatisticCards } from './statistic-cards';

const drawn: { days?: { Date: string; Value: number }[] } = {};
vi.mock('./daily-bars', () => ({
  default: ({ days, label }: { days: { Date: string; Value: number }[]; label: string }) => {
    drawn.days = days;
    return <div role="img" aria-label={label} />;
  },
}));

const site: SiteStatisticsDto = {
  ProjectId: 12,
  Name: 'Station A',
  DeviceNum: 5,
  OnlineNum: 4,
  WarningNum: 1,
  Totals: [
    {
      Key: 'FlowTotal',
      Name: '处理水量 Treated water',
      SUnit: 'm3',
      Format: '',
      DisplayType: 'chart',
      Today: 60,
      Month: 12_345.678,
      Days: [
        { Date: '2026-11-01', Value: 12_285.678 },
        { Date: '2026-11-02', Value: 60 },
      ],
    },
    {
      Key: 'Energy',
      Name: '用电量 Energy',
      SUnit: 'kW·h',
      Format: '',
      DisplayType: 'table',
      Today: 20,
      Month: 4_000,
      Days: [
        { Date: '2026-11-01', Value: 3_980 },
        { Date: '2026-11-02', Value: 20 },
      ],
    },
    { Key: 'RunTimeDay', Name: 'Run time', SUnit: 'h', Format: '', DisplayType: 'chart', Today: 3, Month: 50, Days: [] },
  ],
  TreatedToday: 60,
  TreatedMonth: 12_345.678,
  EnergyToday: 20,
  EnergyMonth: 4_000,
  KwhPerM3: 0.324,
  Compliance: { MeasuredDays: 10, CompliantDays: 9, Rate: 0.9 },
};
const answer: RegionStatisticsDto = { Date: '2026-11-02', Month: '2026-11', Sites: [site], Total: { ...site, ProjectId: null } };

function setUp(config: Record<string, unknown> = { Theme: 'light' }) {
  let stored = config;
  const api = fakeApi({
    'GET /api/Device/GetRegionStatisticsDevice': () => ({ data: answer }),
    'GET /api/user/myinfo': () => ({
      data: { Id: 1, Account: 'op', UserName: 'Op', GroupId: 7, IsAdmin: false, Roles: [], Operates: [], Config: stored },
    }),
    'PUT /api/user/config': (call) => {
      stored = { ...stored, ...(call.body as Record<string, unknown>) };
      return { data: stored };
    },
  });
  renderRoutes(
    [
      {
        path: '/',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>
              <div className="sluice-home-stats">
                <StatisticCards scope={{ projectId: 12, clientId: 0 }} />
              </div>
            </App>
          </ConfigProvider>
        ),
      },
    ],
    '/',
  );
  return api;
}

describe('the statistic cards', () => {
  beforeEach(() => {
    setSessionCookies({ account: 'op' });
    drawn.days = undefined;
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    await i18n.changeLanguage('en-US');
  });

  it('shows the site’s treated water today and this month as a chart, energy as a table, kWh per m³, compliance and running devices', async () => {
    const api = setUp();
    const treated = (await screen.findByText('Treated water')).closest('.ant-card') as HTMLElement;
    expect(api.callsTo('GET', '/api/Device/GetRegionStatisticsDevice')[0]?.query.get('ProjectId')).toBe('12');
    expect(within(treated).getByText('60 m³')).toBeTruthy();
    expect(within(treated).getByText('12,345.68 m³')).toBeTruthy();
    await within(treated).findByRole('img', { name: 'Treated water per day this month' });
    expect(drawn.days).toEqual(site.Totals[0]?.Days);

    const energy = screen.getByText('Energy').closest('.ant-card') as HTMLElement;
    // Newest day first (the header row, then the days).
    expect(within(energy).getAllByRole('row')[1]?.textContent).toContain('2026-11-0220 kW·h');

    const perM3 = screen.getByText('Energy per m³ treated').closest('.ant-card') as HTMLElement;
    expect(perM3.textContent).toContain('0.324kW·h/m³');
    expect(perM3.textContent).toContain('4,000 kW·h for 12,345.68 m³ this month');
    expect(screen.getByText('9 of 10 days within the standard this month')).toBeTruthy();
    expect(screen.getByLabelText('90% of days within the standard')).toBeTruthy();
    expect(screen.getByLabelText('3 of 5 devices running')).toBeTruthy();
  });

  it('reads large numbers in Chinese by 万', async () => {
    await i18n.changeLanguage('zh-CN');
    setUp();
    const treated = (await screen.findByText('处理水量')).closest('.ant-card') as HTMLElement;
    expect(within(treated).getByText('1.23万 m³')).toBeTruthy();
  });

  it('keeps the cards a user picks in the add-statistics dialog, on the server', async () => {
    const user = userEvent.setup();
    const api = setUp();
    await screen.findByText('Treated water');
    await user.click(screen.getByRole('button', { name: /Add statistics/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Add statistics' });
    // Every fixed card, then the types' other counters.
    expect(within(dialog).getAllByRole('checkbox')).toHaveLength(6);
    await user.click(within(dialog).getByRole('checkbox', { name: 'Energy' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Run time' }));
    await user.click(within(dialog).getByRole('button', { name: /Save/ }));
    await waitFor(() => {
      expect(api.callsTo('PUT', '/api/user/config')[0]?.body).toEqual({
        StatisticsCards: ['treated', 'kwhPerM3', 'compliance', 'running', 'total:RunTimeDay'],
      });
    });
    await waitFor(() => {
      expect(screen.queryByText('Energy')).toBeNull();
    });
    const runTime = (await screen.findByText('Run time')).closest('.ant-card') as HTMLElement;
    expect(within(runTime).getByText('No data this month')).toBeTruthy();
  });
});
