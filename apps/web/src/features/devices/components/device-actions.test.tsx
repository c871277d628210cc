/** A new device secret from the console: asked first, issued by PUT {g}/Device/Credential, shown once. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, Button, ConfigProvider } from 'antd';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSessionCookies } from '../../../lib/cookies';
import { changeLanguage } from '../../../lib/i18n';
import '../../../lib/console-catalog';
import { fakeApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render';
import type { DeviceDto } from '../api/devices-api';
import { useDeviceActions } from './device-actions';

const device: DeviceDto = {
  Id: 1,
  DeviceSn: 'SL0000000101',
  DeviceNo: 'QS1-LP1',
  DeviceName: '1# 提升泵',
  DeviceDescription: '',
  TypeId: 7,
  ProjectId: 3,
  ProjectName: '青山一站',
  ProjectType: 1,
  ParentProjectId: 2,
  ParentProjectName: '青山镇',
  RegionId: null,
  AreaId: null,
  Position: '',
  Address: '',
  Online: true,
  State: 1,
  Alarm: null,
  LastSeen: null,
  CreatedAt: 0,
  UseTime: '',
};

function Harness() {
  const actions = useDeviceActions();
  return (
    <>
      <Button
        onClick={() => {
          actions.newSecret(device);
        }}
      >
        Issue
      </Button>
      {actions.dialogs}
    </>
  );
}

function renderHarness() {
  return renderRoutes(
    [
      {
        path: '/',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>
              <Harness />
            </App>
          </ConfigProvider>
        ),
      },
    ],
    '/',
  );
}

describe('a new device secret', () => {
  beforeEach(() => {
    setSessionCookies({ account: 'admin' });
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    await changeLanguage('en-US');
  });

  it('asks first, sends nothing on Cancel, then shows the new password once', async () => {
    const api = fakeApi({
      'PUT /api/7/Device/Credential': () => ({
        data: { Username: 'SL0000000101', Password: 'fresh-secret-1' },
        message: 'Saved',
      }),
    });
    renderHarness();
    await userEvent.click(screen.getByRole('button', { name: 'Issue' }));
    expect((await screen.findAllByText('Issue a new secret for 1# 提升泵?')).length).toBeGreaterThan(0);
    expect(screen.getAllByText(/stops working at once/).length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(api.calls.some((c) => c.path === '/api/7/Device/Credential')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Issue' }));
    expect((await screen.findAllByText('Issue a new secret for 1# 提升泵?')).length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('button', { name: 'New secret' }));
    expect(await screen.findByTestId('device-secret')).toBeTruthy();
    expect(screen.getByTestId('device-secret').textContent).toContain('fresh-secret-1');
    expect(api.calls.find((c) => c.path === '/api/7/Device/Credential')?.body).toEqual({ DeviceSn: 'SL0000000101' });
  });

  it('says why when the server refuses', async () => {
    fakeApi({ 'PUT /api/7/Device/Credential': () => ({ status: 403, message: 'You are not permitted to do this' }) });
    renderHarness();
    await userEvent.click(screen.getByRole('button', { name: 'Issue' }));
    expect((await screen.findAllByText('Issue a new secret for 1# 提升泵?')).length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('button', { name: 'New secret' }));
    expect(await screen.findByText('You are not permitted to do this')).toBeTruthy();
    expect(screen.queryByTestId('device-secret')).toBeNull();
  });
});
