/**
 * A device's log: each command's fate in words, a note added through the form (refused while
 * empty), the filters sent to the server, and deletion only for an administrator, after a question.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DeviceLogDto } from '@sluice/shared/telemetry.schema';
import { setSessionCookies } from '../../../lib/cookies';
import { fakeApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render';
import { DeviceLogTable } from './device-log-table';

const SN = 'SLC000000002';
const row = (id: number, fields: Partial<DeviceLogDto>): DeviceLogDto => ({
  Id: id,
  DeviceSn: SN,
  CommandId: `c${String(id)}`,
  Key: 'LiftPump1Run',
  KeyName: 'Lift pump 1 run',
  OldValue: '0',
  NewValue: '1',
  SendTime: Date.UTC(2026, 10, 26, 2, id),
  Time: null,
  State: 0,
  Message: '',
  UserName: 'Zhang',
  ...fields,
});

const ROWS = [
  row(1, { State: 1, Time: Date.UTC(2026, 10, 26, 2, 1, 1) }),
  row(2, { State: 2, Message: 'the equipment is faulted' }),
  row(3, { State: 4 }),
  row(4, { State: 5, Key: '', KeyName: '', OldValue: '', NewValue: '', Message: 'Cleaned the float switch' }),
];

function setUp(isAdmin: boolean) {
  const api = fakeApi({
    'GET /api/user/myinfo': () => ({
      data: {
        Id: 1,
        Account: 'someone',
        UserName: 'Someone',
        GroupId: 7,
        IsAdmin: isAdmin,
        Roles: [],
        Operates: ['device.view', 'device.control'],
        Config: { Theme: 'light' },
      },
    }),
    [`GET /api/7/${SN}/DeviceLog`]: () => ({ data: ROWS, count: 12 }),
    [`POST /api/7/${SN}/DeviceLog`]: (call) => ({
      status: 200,
      data: row(5, { State: 5, Message: (call.body as { Message: string }).Message }),
    }),
    [`DELETE /api/7/${SN}/DeviceLog/2`]: () => ({ status: 200, data: null, message: 'Deleted' }),
  });
  renderRoutes(
    [
      {
        path: '/',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>
              <DeviceLogTable g={7} sn={SN} />
            </App>
          </ConfigProvider>
        ),
      },
    ],
    '/',
  );
  return api;
}

function dialogTitled(title: string): Promise<HTMLElement> {
  return waitFor(() => {
    const found = screen.queryAllByRole('dialog').find((d) => within(d).queryAllByText(title).length > 0);
    if (!found) throw new Error(`no open dialog titled ${title}`);
    return found;
  });
}

describe('the device log', () => {
  beforeEach(() => {
    setSessionCookies({ account: 'someone' });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('tells each command’s fate, pages through the server, and adds a note (not an empty one)', async () => {
    const user = userEvent.setup();
    const api = setUp(false);
    expect(await screen.findByText('Done')).toBeTruthy();
    expect(screen.getByText('Refused by the device')).toBeTruthy();
    expect(screen.getByText('the equipment is faulted')).toBeTruthy();
    expect(screen.getByText('No answer')).toBeTruthy();
    expect(screen.getByText('Cleaned the float switch')).toBeTruthy();
    expect(screen.getByText('12 in all')).toBeTruthy();
    expect(api.callsTo('GET', `/api/7/${SN}/DeviceLog`)[0]?.query.get('OrderType')).toBe('desc');
    // Only an administrator deletes.
    expect(screen.queryAllByRole('button', { name: /^Delete the row of/ })).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Add a note' }));
    const dialog = await dialogTitled('Add a note');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect((await within(dialog).findAllByText('Required')).length).toBeGreaterThan(0);
    expect(api.callsTo('POST', `/api/7/${SN}/DeviceLog`)).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Note'), 'Pump 1 greased');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await screen.findByText('Note added');
    expect(api.callsTo('POST', `/api/7/${SN}/DeviceLog`).map((c) => c.body)).toEqual([{ Message: 'Pump 1 greased' }]);
  });

  it('lets an administrator delete a row after a question', async () => {
    const user = userEvent.setup();
    const api = setUp(true);
    await screen.findByText('Refused by the device');
    const buttons = await screen.findAllByRole('button', { name: /^Delete the row of/ });
    await user.click(buttons[1] as HTMLElement);
    const dialog = await dialogTitled('Delete this row of the device log?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('DELETE', `/api/7/${SN}/DeviceLog/2`)).toHaveLength(0);
    await user.click(buttons[1] as HTMLElement);
    const again = await dialogTitled('Delete this row of the device log?');
    await user.click(within(again).getByRole('button', { name: 'Delete' }));
    await waitFor(() => {
      expect(api.callsTo('DELETE', `/api/7/${SN}/DeviceLog/2`)).toHaveLength(1);
    });
  });
});
