/**
 * No dead ends on a project's page: one the user may not see says so (no retry that cannot help),
 * and one that still holds stations is not offered for deletion as if it would work.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSessionCookies } from '../../../lib/cookies';
import { changeLanguage } from '../../../lib/i18n';
import '../../../lib/console-catalog';
import { fakeApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render';
import type { ProjectInfoDto } from '../api/projects-api';
import { SiteDetails } from './site-details';
import { SitesBrowser } from './sites-browser';

const qingshan: ProjectInfoDto = {
  Id: 4,
  Name: '青山镇',
  ProjectName: '青山镇',
  ProjectType: 0,
  ProjectKind: 'project',
  ParentId: 0,
  ParentName: null,
  ClientId: null,
  RegionId: null,
  AreaId: null,
  Address: '',
  Position: '',
  SitesNum: 2,
  ProjectNum: 0,
  DeviceNum: 7,
  OnlineNum: 5,
  OfflineNum: 2,
  Online: true,
  State: 2,
  WarningNum: 1,
  LastSeen: null,
  Image: null,
  CreatedAt: 0,
  Child: [],
};

function renderAt(element: React.ReactElement) {
  return renderRoutes(
    [
      {
        path: '*',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>{element}</App>
          </ConfigProvider>
        ),
      },
    ],
    '/common/home/project/4',
  );
}

describe("a project's page", () => {
  beforeEach(() => {
    setSessionCookies({ account: 'admin' });
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    await changeLanguage('en-US');
  });

  it('says a project the user may not see is not theirs to see, with the way home and no retry', async () => {
    await changeLanguage('en-US');
    fakeApi({ 'GET /api/7/project/info/4': () => ({ status: 404, message: 'Not found' }) });
    renderAt(<SitesBrowser title="project" itemId="4" devices={{ stationDevices: () => null, device: () => null }} />);
    expect(await screen.findByText('This project is not there, or your roles do not give you access to it')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back home' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.queryByText('No data')).toBeNull();
  });

  it('asked to delete it while it holds stations, says what it holds instead of deleting', async () => {
    await changeLanguage('en-US');
    const api = fakeApi({ 'GET /api/7/project/info/4': () => ({ data: qingshan }) });
    renderAt(<SiteDetails title="project" itemId="4" you={undefined} />);
    await userEvent.click(await screen.findByRole('button', { name: /Delete/ }));
    const info = await waitFor(() => {
      const found = screen
        .queryAllByRole('dialog')
        .find((d) => within(d).queryAllByText('“青山镇” cannot be deleted yet').length > 0);
      if (!found) throw new Error('no explanation');
      return found;
    });
    expect(info.textContent).toContain('It still holds 2 stations or projects and 7 devices');
    await userEvent.click(within(info).getByRole('button', { name: 'OK' }));
    expect(api.calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
  });
});
