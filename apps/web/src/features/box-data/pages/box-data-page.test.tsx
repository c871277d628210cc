/** Box data: every device's newest report, its values by name and unit, a day's range, and a failed call told apart. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSessionCookies } from '../../../lib/cookies';
import { changeLanguage } from '../../../lib/i18n';
import '../../../lib/console-catalog';
import { fakeApi, type FakeCall } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render';
import { BoxDataPage } from './box-data-page';

const REPORTED = Date.parse('2026-11-20T08:30:00');
const rows = (call: FakeCall) => [
  {
    DeviceSn: 'SL0000000101',
    DeviceName: '1# 提升泵',
    ProjectId: 3,
    Online: true,
    State: 1,
    Time: REPORTED,
    Data: call.query.get('Dt') ? { TankLevel: 1.5 } : { TankLevel: 1.234, LiftPump1Run: 1 },
    ...(call.query.get('Dt')
      ? { Stats: { TankLevel: { Min: 0.5, Max: 2.25, Avg: 1.1, First: 0.5, Last: 1.5, Count: 12 } } }
      : {}),
  },
  { DeviceSn: 'SL0000000102', DeviceName: '2# 提升泵', ProjectId: 3, Online: false, State: 0, Time: null, Data: {} },
];
const library = [
  {
    Id: 1,
    DataKey: 'TankLevel',
    DataName: '调节池液位',
    Unit: 'm',
    DataType: 'readable',
    DefaultValue: '',
    Format: '{"Decimals":2}',
    Model: '',
    Category: '',
  },
  {
    Id: 2,
    DataKey: 'LiftPump1Run',
    DataName: '1#提升泵运行',
    Unit: '',
    DataType: 'boolean',
    DefaultValue: '',
    Format: '{"0":"停止","1":"运行"}',
    Model: '',
    Category: '',
  },
];

function renderPage() {
  return renderRoutes(
    [
      {
        path: '/',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>
              <BoxDataPage />
            </App>
          </ConfigProvider>
        ),
      },
    ],
    '/',
  );
}

describe('box data', () => {
  beforeEach(() => {
    setSessionCookies({ account: 'admin' });
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    await changeLanguage('en-US');
  });

  it('lists each device’s newest report and shows its values by name, in the user’s language, with units', async () => {
    fakeApi({
      'GET /api/7/DeviceMonitorData': rows,
      'GET /api/DataDefineLibrary': () => ({ data: library, count: library.length }),
      'GET /api/7/project': () => [],
    });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Box data' });
    const first = within(table).getByRole('row', { name: /1# 提升泵/ });
    expect(within(first).getByText('2026-11-20 08:30:00')).toBeTruthy();
    expect(within(first).getByText('Online')).toBeTruthy();
    expect(within(within(table).getByRole('row', { name: /2# 提升泵/ })).getByText('Never')).toBeTruthy();

    await userEvent.click(within(first).getByRole('button', { name: /expand/i }));
    const values = await screen.findByRole('table', { name: 'Values of 1# 提升泵' });
    expect(within(values).getByRole('row', { name: /TankLevel/ }).textContent).toContain('Tank level');
    expect(within(values).getByRole('row', { name: /TankLevel/ }).textContent).toContain('1.23 m');
    expect(within(values).getByRole('row', { name: /LiftPump1Run/ }).textContent).toContain('Run');
  });

  it('asks for a chosen day and shows that day’s range', async () => {
    const api = fakeApi({
      'GET /api/7/DeviceMonitorData': rows,
      'GET /api/DataDefineLibrary': () => ({ data: library, count: library.length }),
      'GET /api/7/project': () => [],
    });
    renderPage();
    await screen.findByRole('table', { name: 'Box data' });
    await userEvent.click(screen.getByLabelText('Day'));
    await userEvent.keyboard('2026-11-20{Enter}');
    expect(api.calls.some((c) => c.path === '/api/7/DeviceMonitorData' && c.query.get('Dt') === '2026-11-20')).toBe(true);
    const first = await screen.findByRole('row', { name: /1# 提升泵/ });
    await userEvent.click(within(first).getByRole('button', { name: /expand/i }));
    const values = await screen.findByRole('table', { name: 'Values of 1# 提升泵' });
    const level = within(values).getByRole('row', { name: /TankLevel/ });
    expect(level.textContent).toContain('0.50 m');
    expect(level.textContent).toContain('2.25 m');
  });

  it('tells a failed call from no data, and retries', async () => {
    let fail = true;
    fakeApi({
      'GET /api/7/DeviceMonitorData': () => (fail ? { status: 503, message: 'The database is not answering' } : { data: [] }),
      'GET /api/DataDefineLibrary': () => ({ data: [], count: 0 }),
      'GET /api/7/project': () => [],
    });
    renderPage();
    expect(await screen.findByText('The database is not answering')).toBeTruthy();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No device reported here yet')).toBeTruthy();
  });
});
