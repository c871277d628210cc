/**
 * The notice centre: tabs by warn type, the handling state in the address, alarms by their code
 * names, handling several with one (required) comment, and the server's failure told apart from
 * an empty list.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { WarnDto } from '@sluice/shared/alarm.schema';
import { setSessionCookies } from '../../../lib/cookies';
import { changeLanguage } from '../../../lib/i18n';
import '../../../lib/console-catalog';
import { fakeApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render';
import { NoticeCenterPage } from './notice-center-page';

const alarm = (id: number, fields: Partial<WarnDto>): WarnDto => ({
  Id: id,
  Code: 'E101',
  GroupCode: '',
  Dt: Date.UTC(2026, 10, 20, 2),
  DeviceNo: '',
  DeviceSn: `SL00000000${String(id)}`,
  DeviceName: `Pump ${String(id)}`,
  ProjectId: 3,
  ProjectName: 'Station One',
  Description: 'Lift pump 1 fault',
  Comments: '',
  TypeId: 2,
  TypeName: 'Fault',
  Color: '#f5222d',
  State: 0,
  Active: 1,
  Source: 'device',
  ClearedAt: null,
  HandledAt: null,
  HandledBy: '',
  ...fields,
});

function renderAt(path: string) {
  return renderRoutes(
    [
      {
        path: '/common/notice/list/:id/:status',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>
              <NoticeCenterPage />
            </App>
          </ConfigProvider>
        ),
      },
    ],
    path,
  );
}

describe('the notice centre', () => {
  beforeEach(() => {
    setSessionCookies({ account: 'admin' });
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    await changeLanguage('en-US');
  });

  it('lists the unhandled alarms of a warn type by name and handles two with one comment', async () => {
    const rows = [alarm(1, {}), alarm(2, { Code: 'A101', Description: 'High level', TypeId: 1, TypeName: 'Alarm' })];
    const api = fakeApi({
      'GET /api/warntype': () => [
        { Id: 1, TypeName: 'Alarm', Color: '#faad14', Icon: '' },
        { Id: 2, TypeName: 'Fault', Color: '#f5222d', Icon: '' },
      ],
      'GET /api/Warn': () => ({ data: rows, count: rows.length }),
      'PUT /api/Warn': (call) => ({ data: { Handled: (call.body as { Ids: number[] }).Ids }, message: '2 alarms handled' }),
    });
    const { router } = renderAt('/common/notice/list/2/0');
    expect(await screen.findByText('Lift pump 1 fault')).toBeTruthy();
    expect(screen.getByText('High level')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Fault', selected: true })).toBeTruthy();
    const listed = api.callsTo('GET', '/api/Warn')[0];
    expect(listed?.query.get('TypeId')).toBe('2');
    expect(listed?.query.get('State')).toBe('0');

    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Lift pump 1 fault' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select High level' }));
    await userEvent.click(screen.getByRole('button', { name: /Handle selected \(2\)/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Handle 2 alarms')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Handle' }));
    expect(await within(dialog).findByText('Please say what was done')).toBeTruthy();
    expect(api.callsTo('PUT', '/api/Warn')).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText('Comments'), 'Night round: both reset');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Handle' }));
    await waitFor(() => {
      expect(api.callsTo('PUT', '/api/Warn')).toHaveLength(1);
    });
    expect(api.callsTo('PUT', '/api/Warn')[0]?.body).toEqual({ Ids: [1, 2], Comments: 'Night round: both reset' });

    await userEvent.click(screen.getByText('All', { selector: '.ant-segmented-item-label' }));
    expect(router.state.location.pathname).toBe('/common/notice/list/2/2');
  });

  it("shows an alarm's details with its device's page, and deletes it after confirmation", async () => {
    const api = fakeApi({
      'GET /api/warntype': () => [],
      'GET /api/Warn': () => ({ data: [alarm(1, { Comments: 'Reset on site' })], count: 1 }),
      'POST /api/Warn/WarnDelete': () => ({ status: 200, data: null, message: 'Deleted' }),
    });
    renderAt('/common/notice/list/0/2');
    await userEvent.click(await screen.findByRole('button', { name: 'Details of Lift pump 1 fault' }));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByText('Reset on site')).toBeTruthy();
    expect(within(drawer).getByRole('link', { name: 'Pump 1' }).getAttribute('href')).toBe('/common/home/device/SL000000001');
    await userEvent.click(within(drawer).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Delete this alarm record?')).toBeTruthy();
    expect(api.callsTo('POST', '/api/Warn/WarnDelete')).toHaveLength(0);
    const confirm = screen.getAllByRole('button', { name: 'Delete' }).at(-1);
    if (!confirm) throw new Error('no confirmation');
    await userEvent.click(confirm);
    await waitFor(() => {
      expect(api.callsTo('POST', '/api/Warn/WarnDelete')).toHaveLength(1);
    });
    expect(api.callsTo('POST', '/api/Warn/WarnDelete')[0]?.body).toEqual({ Ids: [1] });
  });

  it('tells a failed call from an empty list', async () => {
    fakeApi({
      'GET /api/warntype': () => [],
      'GET /api/Warn': () => ({ status: 503, message: 'The database is not answering' }),
    });
    renderAt('/common/notice/list/0/0');
    expect(await screen.findByText('The database is not answering')).toBeTruthy();
    expect(screen.queryByText('No alarms')).toBeNull();
  });
});
