/**
 * The device page's panels on their grid: each data point shown by its type's panel view
 * (numbers, a tank's level, a state light) or the view picked for the panel; a user who manages
 * devices arranges the panels from their menus (the keyboard's way) and the layout is saved for
 * the account, hidden panels come back, the default returns; a saved layout is applied; a user
 * who may not arrange hides a panel for the visit only; on a phone the panels stack, faults first;
 * a camera video panel holds the video panel (camera list and player) at its default size.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PANEL_DEFAULTS, type LayoutItem } from '@sluice/shared/panel-layout';
import { setSessionCookies } from '../../lib/cookies';
import { fakeApi, type FakeCall } from '../../test/fake-api';
import { renderRoutes } from '../../test/render';
import { DeviceDashboard } from './device-dashboard';
import { screenWidth } from '../../test/screen-width';

const SN = 'SLD000000001';
const define = (Id: number, DataKey: string, DataName: string, DataType: string, extra: Record<string, unknown> = {}) => ({
  Id,
  DeviceSn: SN,
  PanelId: 11,
  DataKey,
  DisplayKey: '',
  DataName,
  Unit: '',
  DataType,
  DefaultValue: '',
  Format: '',
  AutoControl: false,
  ...extra,
});

const PROCESS_PANEL = { Id: 11, PanelName: 'Process values', typeId: 2, deviceSn: SN, Sn: 0 };

function setUp({
  operates,
  saved = null,
  panels = [PROCESS_PANEL],
}: {
  operates: string[];
  saved?: LayoutItem[] | null;
  panels?: (typeof PROCESS_PANEL)[];
}) {
  const api = fakeApi({
    'GET /api/user/myinfo': () => ({
      data: {
        Id: 3,
        Account: 'someone',
        UserName: 'Someone',
        GroupId: 7,
        IsAdmin: false,
        Roles: [],
        Operates: operates,
        Config: {},
      },
    }),
    'GET /api/7/Device/AllDevice': () => [{ DeviceSn: SN, DeviceName: 'Lift pump', TypeId: 5, ProjectId: null, Online: true }],
    'GET /api/GetDeviceDataDefine': () => [
      define(1, 'Flow', 'Inflow', 'readable', { Unit: 'm³/h', Format: '1' }),
      define(2, 'TankLevel', 'Tank level', 'readable', { Unit: 'm', Format: '{"Min":0,"Max":5,"Decimals":2}' }),
      define(3, 'Pump1Run', 'Pump 1', 'boolean'),
    ],
    'GET /api/GetDevicePanels': () => panels,
    [`GET /api/7/${SN}/DeviceVideo`]: () => ({ data: [] }),
    'GET /api/type/5/TypeDataDefine': () => [
      { Id: 1, DataKey: 'Flow', ShowType: 0 },
      { Id: 2, DataKey: 'TankLevel', ShowType: 1 },
      { Id: 3, DataKey: 'Pump1Run', ShowType: 2 },
    ],
    [`GET /api/7/${SN}/DeviceHisData/Latest`]: () => ({
      data: {
        DeviceSn: SN,
        Time: Date.UTC(2026, 10, 26, 8),
        Online: true,
        State: 1,
        Data: { Flow: 12.46, TankLevel: 2.5, Pump1Run: 1 },
        Points: [],
      },
    }),
    [`GET /api/${SN}/Warn`]: () => [],
    [`GET /api/7/${SN}/DeviceImage`]: () => [],
    'GET /api/DevicePanelLayout': () => ({ data: { deviceSn: SN, Layout: saved } }),
    'PUT /api/DevicePanelLayout': (call: FakeCall) => ({ status: 200, data: call.body }),
  });
  renderRoutes(
    [
      {
        path: '/',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>
              <DeviceDashboard sn={SN} map={<div>the map</div>} />
            </App>
          </ConfigProvider>
        ),
      },
    ],
    '/',
  );
  return api;
}

const saves = (api: ReturnType<typeof fakeApi>) =>
  api.callsTo('PUT', '/api/DevicePanelLayout').map((c) => (c.body as { Layout: LayoutItem[] }).Layout);

async function panelAction(user: ReturnType<typeof userEvent.setup>, panel: string, action: string) {
  await user.click(screen.getByRole('button', { name: `Panel actions: ${panel}` }));
  await user.click(await screen.findByRole('menuitem', { name: action }));
}

describe('the device dashboard', () => {
  beforeEach(() => {
    setSessionCookies({ account: 'someone' });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows each data point by its panel view, or by the view picked for the panel', async () => {
    const user = userEvent.setup();
    setUp({ operates: ['device.view'] });
    const panel = await screen.findByRole('region', { name: 'Process values' });
    await waitFor(() => {
      expect(panel.querySelector('[data-point="TankLevel"]')?.getAttribute('data-view')).toBe('monitoring');
    });
    // Detection: the number with its format's decimals and its unit, in a row.
    expect(within(panel).getByRole('row', { name: /Inflow/ }).textContent).toContain('12.5 m³/h');
    // Monitoring: the tank's level as water, half full, saying its value and range.
    const level = within(panel).getByRole('img', { name: 'Tank level: 2.50 m of 5.00 m' });
    expect(level.getAttribute('data-level')).toBe('0.500');
    // Status: a state light.
    const pump = panel.querySelector('[data-point="Pump1Run"]');
    expect(pump?.getAttribute('data-view')).toBe('status');
    expect(pump?.getAttribute('data-state')).toBe('on');
    expect(pump?.textContent).toContain('On');

    // Picked for the panel: every point a number.
    await user.click(within(panel).getByRole('combobox', { name: 'Show values as: Process values' }));
    await user.click(await screen.findByTitle('Numbers'));
    await waitFor(() => {
      expect(panel.querySelectorAll('[data-view="detection"]')).toHaveLength(3);
    });
    expect(within(panel).getByRole('row', { name: /Tank level/ }).textContent).toContain('2.50 m');
  });

  it('saves the arrangement of a user who manages devices, and goes back to the default', async () => {
    const user = userEvent.setup();
    const api = setUp({ operates: ['device.view', 'device.manage'] });
    await screen.findByRole('region', { name: 'Process values' });
    expect(screen.getByText(/Drag a panel by its title/)).toBeTruthy();

    await panelAction(user, 'Process values', 'Wider');
    await waitFor(() => {
      expect(saves(api)).toHaveLength(1);
    });
    const wider = saves(api)[0]?.find((item) => item.i === 'p11');
    expect(wider).toMatchObject({ w: 7 });
    // Every panel is in the saved layout, each once, inside the grid.
    const keys = saves(api)[0]?.map((item) => item.i) ?? [];
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toEqual(expect.arrayContaining(['alarms', 'p11', 'info', 'images', 'map']));
    for (const item of saves(api)[0] ?? []) expect(item.x + item.w).toBeLessThanOrEqual(12);

    await panelAction(user, 'Location', 'Hide');
    await waitFor(() => {
      expect(saves(api)).toHaveLength(2);
    });
    expect(saves(api)[1]?.find((item) => item.i === 'map')?.hidden).toBe(true);
    expect(screen.queryByRole('region', { name: 'Location' })).toBeNull();
    await user.click(screen.getByRole('button', { name: '1 hidden panel' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Show “Location”' }));
    await screen.findByRole('region', { name: 'Location' });
    await waitFor(() => {
      expect(saves(api)).toHaveLength(3);
    });
    expect(saves(api)[2]?.find((item) => item.i === 'map')?.hidden).toBeUndefined();

    await user.click(await screen.findByRole('button', { name: 'Default layout' }));
    await waitFor(() => {
      expect(saves(api)).toHaveLength(4);
    });
    expect(saves(api)[3]).toEqual([]);
  });

  it('puts a camera video panel (type 6) on the grid at its default size, with the camera list and the player', async () => {
    const user = userEvent.setup();
    const api = setUp({
      operates: ['device.view', 'device.manage'],
      panels: [PROCESS_PANEL, { Id: 12, PanelName: 'Inlet camera', typeId: 6, deviceSn: SN, Sn: 1 }],
    });
    const panel = await screen.findByRole('region', { name: 'Inlet camera' });
    // The video panel itself: its camera list (暂无数据 here) and the player's placeholder.
    expect(await within(panel).findByText('Please select or add a camera from the left list')).toBeTruthy();
    expect(
      await within(within(panel).getByRole('navigation', { name: 'Camera list' })).findAllByText('No data'),
    ).not.toHaveLength(0);
    expect(within(panel).getByRole('button', { name: 'Add camera' })).toBeTruthy();
    // Its place on the grid: the default camera video size (8 × 9), as saved with the rest.
    await panelAction(user, 'Process values', 'Wider');
    await waitFor(() => {
      expect(saves(api)).toHaveLength(1);
    });
    expect(saves(api)[0]?.find((item) => item.i === 'p12')).toMatchObject({
      w: PANEL_DEFAULTS.video.w,
      h: PANEL_DEFAULTS.video.h,
    });
    expect(PANEL_DEFAULTS.video).toMatchObject({ w: 8, h: 9 });
  });

  it('applies the saved layout; a user who may not arrange hides a panel for the visit only', async () => {
    const user = userEvent.setup();
    const api = setUp({ operates: ['device.view'], saved: [{ i: 'images', x: 0, y: 0, w: 6, h: 8, hidden: true }] });
    await screen.findByRole('region', { name: 'Process values' });
    expect(screen.queryByRole('region', { name: 'Images' })).toBeNull();
    expect(screen.getByRole('button', { name: '1 hidden panel' })).toBeTruthy();
    expect(screen.queryByText(/Drag a panel by its title/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Default layout' })).toBeNull();

    await panelAction(user, 'Location', 'Hide');
    await screen.findByRole('button', { name: '2 hidden panels' });
    expect(screen.queryByRole('menuitem', { name: 'Wider' })).toBeNull();
    expect(saves(api)).toEqual([]);
  });

  it('stacks the panels on a phone, faults first, then the values, facts, media and map', async () => {
    screenWidth(767);
    setUp({ operates: ['device.view', 'device.manage'], saved: [{ i: 'map', x: 0, y: 0, w: 12, h: 8 }] });
    await screen.findByRole('region', { name: 'Process values' });
    const order = [...document.querySelectorAll('.sluice-dashboard-stack [data-panel]')].map((el) =>
      el.getAttribute('data-panel'),
    );
    expect(order).toEqual(['alarms', 'p11', 'info', 'images', 'map']);
    expect(screen.queryByText(/Drag a panel by its title/)).toBeNull();
  });
});
