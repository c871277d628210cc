/** A client's page: its projects by ClientId in the list panel; its record, numbers and devices below the map. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSessionCookies } from '../../../lib/cookies';
import { changeLanguage } from '../../../lib/i18n';
import '../../../lib/console-catalog';
import { fakeApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render';
import type { ProjectDto } from '../api/projects-api';
import { ClientCard, ClientNode } from './client-view';

const site = (fields: Partial<ProjectDto>): ProjectDto => ({
  Id: 1,
  Name: '',
  ProjectName: '',
  ProjectType: 0,
  ProjectKind: 'project',
  ParentId: 0,
  ParentName: null,
  ClientId: 3,
  RegionId: null,
  AreaId: null,
  Address: '',
  Position: '',
  SitesNum: 0,
  ProjectNum: 0,
  DeviceNum: 0,
  OnlineNum: 0,
  OfflineNum: 0,
  Online: false,
  State: 0,
  WarningNum: 0,
  LastSeen: null,
  Image: null,
  CreatedAt: 0,
  ...fields,
});

const project = site({
  Id: 10,
  Name: '递铺项目',
  SitesNum: 1,
  DeviceNum: 3,
  OnlineNum: 2,
  WarningNum: 1,
  Online: true,
  State: 2,
});
const station = site({
  Id: 11,
  Name: '横山村站',
  ProjectType: 1,
  ProjectKind: 'station',
  ParentId: 10,
  ParentName: '递铺项目',
  DeviceNum: 3,
  OnlineNum: 2,
});

function installApi() {
  return fakeApi({
    'GET /api/Client/Get': () => ({
      data: {
        Id: 3,
        ClientName: '安吉水务',
        ClientSn: 'AJW',
        Linkman: '王经理',
        Telephone: '',
        Mobile: '13905721234',
        Address: '',
        Description: '',
      },
    }),
    'GET /api/7/project': () => ({ data: [project, station], count: 2 }),
    'GET /api/7/Device/MyDevice': () => ({
      data: [
        {
          Id: 1,
          DeviceSn: 'AJ001',
          DeviceName: '一体化设备',
          Online: true,
          State: 1,
          ProjectName: '横山村站',
          ParentProjectName: '递铺项目',
        },
      ],
      count: 1,
    }),
  });
}

function renderClient() {
  return renderRoutes(
    [
      {
        path: '*',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>
              <ClientNode id={3} />
              <ClientCard id={3} />
            </App>
          </ConfigProvider>
        ),
      },
    ],
    '/common/home/client/3',
  );
}

describe('the client page', () => {
  beforeEach(async () => {
    setSessionCookies({ account: 'admin' });
    await changeLanguage('en-US');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('lists the client’s projects, counts its devices once and pages its devices by ClientId', async () => {
    const api = installApi();
    renderClient();
    expect(await screen.findByRole('heading', { name: '安吉水务' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Projects (1)' })).toBeTruthy();
    await waitFor(() => {
      expect(api.callsTo('GET', '/api/7/project')[0]?.query.get('ClientId')).toBe('3');
    });
    const numbers = screen.getByRole('group', { name: 'Numbers of the client' });
    // The station's devices are inside its project's count: 3, not 6.
    expect(within(numbers).getByText('Devices').closest('.ant-statistic')?.textContent).toContain('3');
    await userEvent.click(screen.getByRole('tab', { name: 'Devices' }));
    const device = await screen.findByRole('link', { name: '一体化设备' });
    expect(device.getAttribute('href')).toBe('/common/home/device/AJ001');
    expect(api.callsTo('GET', '/api/7/Device/MyDevice')[0]?.query.get('ClientId')).toBe('3');
  });
});
