/**
 * The statistics panel on a client's page counts that client only: every call it makes names the
 * client (ClientId), and its titles say whose numbers they are. The cards' own figures are tested
 * in statistic-cards.test.tsx.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { screen, waitFor } from '@testing-library/react';
import type { RegionStatisticsDto, SiteStatisticsDto } from '@sluice/shared/statistics.schema';
import { setSessionCookies } from '../../../lib/cookies';
import { i18n } from '../../../lib/i18n';
import { fakeApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render';
import { StatisticsPanel, type StatisticsClient } from './statistics-panel';

const total: SiteStatisticsDto = {
  ProjectId: null,
  Name: '',
  DeviceNum: 3,
  OnlineNum: 2,
  WarningNum: 0,
  Totals: [],
  TreatedToday: null,
  TreatedMonth: null,
  EnergyToday: null,
  EnergyMonth: null,
  KwhPerM3: null,
  Compliance: { MeasuredDays: 0, CompliantDays: 0, Rate: null },
};
const figures: RegionStatisticsDto = { Date: '2026-11-02', Month: '2026-11', Sites: [], Total: total };

function setUp(client?: StatisticsClient) {
  const page = (count: number) => ({ data: { data: [], count, totalPage: 1, currentPage: 1, pageSize: 1 } });
  const api = fakeApi({
    'GET /api/7/Device/OverView': () => ({
      data: { Num: 3, OnlineNum: 2, OfflineNum: 1, TypeData: [{ TypeId: null, Num: 3, OnlineNum: 2 }] },
    }),
    'GET /api/7/project/myProject': () => page(2),
    'GET /api/7/project/mySite': () => page(5),
    'GET /api/Device/GetRegionStatisticsDevice': () => ({ data: figures }),
    'GET /api/user/myinfo': () => ({
      data: { Id: 1, Account: 'op', UserName: 'Op', GroupId: 7, IsAdmin: false, Roles: [], Operates: [], Config: {} },
    }),
    'GET /api/7/DeviceType': () => ({ data: [] }),
  });
  renderRoutes(
    [
      {
        path: '/',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>
              <StatisticsPanel client={client} />
            </App>
          </ConfigProvider>
        ),
      },
    ],
    '/',
  );
  return api;
}

describe("the statistics panel on a client's page", () => {
  beforeEach(() => {
    setSessionCookies({ account: 'op' });
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    await i18n.changeLanguage('en-US');
  });

  it("counts the client's projects, stations and devices only, and says whose numbers they are", async () => {
    const api = setUp({ Id: 42, Name: 'Anji Water' });
    expect(await screen.findByRole('heading', { name: 'Numbers of Anji Water' })).toBeTruthy();
    await waitFor(() => {
      expect(api.callsTo('GET', '/api/Device/GetRegionStatisticsDevice')).toHaveLength(1);
    });
    for (const path of [
      '/api/7/Device/OverView',
      '/api/7/project/myProject',
      '/api/7/project/mySite',
      '/api/Device/GetRegionStatisticsDevice',
    ]) {
      const calls = api.callsTo('GET', path);
      expect(calls.length, path).toBeGreaterThan(0);
      for (const call of calls) {
        expect(call.query.get('ClientId'), path).toBe('42');
        expect(call.query.get('ProjectId'), path).toBeNull();
      }
    }
    expect(await screen.findByText('2')).toBeTruthy();
    expect(screen.getByText('5')).toBeTruthy();
  });

  it("counts the group's when no client (or site) is shown, naming none", async () => {
    const api = setUp();
    await waitFor(() => {
      expect(api.callsTo('GET', '/api/7/Device/OverView')).toHaveLength(1);
    });
    expect(api.callsTo('GET', '/api/7/Device/OverView')[0]?.query.get('ClientId')).toBeNull();
    expect(api.callsTo('GET', '/api/7/project/myProject')[0]?.query.get('ClientId')).toBeNull();
    expect(screen.queryByRole('heading', { name: /^Numbers of/ })).toBeNull();
  });
});
