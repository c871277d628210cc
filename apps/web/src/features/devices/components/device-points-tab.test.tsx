/**
 * A device's own data points and panels, edited with a template's tables and forms: a panel
 * added to the device (its type chosen), a data point refused before anything is sent while
 * its required fields are empty; a viewer sees both lists without add, edit or delete.
 */
import { describe, expect, it } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useQuery } from '@tanstack/react-query';
import type { DeviceDataDefineDto, DevicePanelDto } from '@sluice/shared/device-data.schema';
import { myInfoQueryOptions } from '../../../lib/current-user';
import { fakeApi, type FakeHandler } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render';
import { fill, setUpWorkbenchTests } from '../../../test/workbench';
import { DevicePointsTab } from './device-points-tab';

const SN = 'SLC000000009';
const panel: DevicePanelDto = { Id: 31, PanelName: 'Process values', typeId: 2, deviceSn: SN, Sn: 0 };
const point: DeviceDataDefineDto = {
  Id: 41,
  DeviceSn: SN,
  PanelId: 31,
  DataKey: 'Flow',
  DisplayKey: '',
  DataName: 'Inflow',
  Unit: 'm³/h',
  DataType: 'readable',
  DefaultValue: '',
  Format: '1',
  AutoControl: false,
};

function UserProbe() {
  const { data } = useQuery(myInfoQueryOptions());
  return data ? <span>operates known</span> : null;
}

function setUp(handlers: Record<string, FakeHandler> = {}) {
  const api = fakeApi({
    'GET /api/GetDevicePanels': () => [panel],
    'GET /api/GetDeviceDataDefine': () => [point],
    'GET /api/DataDefineLibrary': () => [],
    ...handlers,
  });
  renderRoutes(
    [
      {
        path: '/',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>
              <UserProbe />
              <DevicePointsTab sn={SN} />
            </App>
          </ConfigProvider>
        ),
      },
    ],
    '/',
  );
  return api;
}

async function dialogTitled(title: string): Promise<HTMLElement> {
  return waitFor(() => {
    const found = screen.queryAllByRole('dialog').find((d) => within(d).queryAllByText(title).length > 0);
    if (!found) throw new Error(`no dialog ${title}`);
    return found;
  });
}

setUpWorkbenchTests();

describe("a device's data points and panels", () => {
  it('adds a panel of a chosen type; a data point is refused before any call until its fields are filled', async () => {
    const api = setUp({
      'POST /api/AddPanel': () => ({ status: 201, data: { ...panel, Id: 32, PanelName: 'Pump states', typeId: 4 } }),
      'POST /api/DeviceDataDefineAdd': () => ({ status: 201, data: { ...point, Id: 42 } }),
    });
    const panels = await screen.findByRole('region', { name: 'Panels' });
    expect(await within(panels).findByText('Process values')).toBeTruthy();
    expect(within(panels).getByText('Data points')).toBeTruthy();
    const points = screen.getByRole('region', { name: 'Data points' });
    expect(await within(points).findByText('Flow')).toBeTruthy();
    expect(within(points).getByText('Process values')).toBeTruthy();

    await userEvent.click(within(panels).getByRole('button', { name: 'Add panel' }));
    const panelDialog = await dialogTitled('Add panel');
    await fill(within(panelDialog).getByLabelText('Panel name'), 'Pump states');
    await userEvent.click(within(panelDialog).getByLabelText('Panel type'));
    await userEvent.click(await screen.findByTitle('Basic data'));
    await userEvent.click(within(panelDialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(api.callsTo('POST', '/api/AddPanel')).toHaveLength(1);
    });
    expect(api.callsTo('POST', '/api/AddPanel')[0]?.body).toMatchObject({ deviceSn: SN, PanelName: 'Pump states', typeId: 4 });

    await userEvent.click(within(points).getByRole('button', { name: 'Add data point' }));
    const dialog = await dialogTitled('Add data point');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findAllByText('Required')).length).toBeGreaterThan(0);
    expect(api.callsTo('POST', '/api/DeviceDataDefineAdd')).toEqual([]);
  });

  it('shows a viewer both lists without add, edit or delete', async () => {
    setUp({
      'GET /api/user/myinfo': () => ({
        data: {
          Id: 2,
          Account: 'op',
          UserName: 'Op',
          GroupId: 7,
          IsAdmin: false,
          Roles: [],
          Operates: ['device.view'],
          Config: {},
        },
      }),
    });
    await screen.findByText('operates known');
    expect(await screen.findByText('Flow')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add panel' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add data point' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Flow' })).toBeNull();
  });
});
