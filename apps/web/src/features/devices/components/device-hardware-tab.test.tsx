/**
 * A device's own hardware rows: the list with each row's read request, an add refused by the
 * shared Modbus rule before anything is sent, a delete only after a question, and add, edit and
 * delete hidden from a user who may only view devices.
 */
import { describe, expect, it } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useQuery } from '@tanstack/react-query';
import type { DataDefineDto } from '@sluice/shared/data-define.schema';
import type { DeviceHardwareDto } from '@sluice/shared/device-type.schema';
import { myInfoQueryOptions } from '../../../lib/current-user';
import { changeLanguage } from '../../../lib/i18n';
import { fakeApi, type FakeHandler } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render';
import { fill, setUpWorkbenchTests } from '../../../test/workbench';
import { DeviceHardwareTab } from './device-hardware-tab';

const SN = 'SLC000000002';
const ROWS_PATH = `/api/7/${SN}/DeviceHardware`;
const inflow: DataDefineDto = {
  Id: 1,
  DataKey: 'Inflow',
  DataName: 'Inflow',
  Unit: 'm3/H',
  DataType: 'readable',
  DefaultValue: '',
  Format: '2',
  Model: '',
  Category: '',
};
const row: DeviceHardwareDto = {
  Id: 21,
  DeviceSn: SN,
  DataDefineId: 1,
  No: 'AI07',
  Sn: 1,
  ShowKey: 'Inflow',
  KeyType: 'float32',
  Max: 50,
  Min: 0,
  Comm: 'RTU',
  Port: 'COM2',
  ModbusSlave: 2,
  PLCType: 'S7-200 SMART',
  RegAd: 16,
  CMD: 4,
  Address: '30017',
  BitOffSet: 0,
  Lens: 2,
  ReadFrame: '02 04 00 10 00 02 71 FD',
  Crc: '71FD',
};

/** Shows once the signed-in user's operates are known (so a hidden button is hidden by them). */
function UserProbe() {
  const { data } = useQuery(myInfoQueryOptions());
  return data ? <span>operates known</span> : null;
}

function setUp(handlers: Record<string, FakeHandler> = {}) {
  const api = fakeApi({
    [`GET ${ROWS_PATH}`]: () => ({ data: [row], count: 1 }),
    'GET /api/DataDefineLibrary': () => [inflow],
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
              <DeviceHardwareTab sn={SN} />
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

async function setNumber(dialog: HTMLElement, label: string, value: string) {
  const input = within(dialog).getByLabelText(label);
  await userEvent.clear(input);
  await fill(input, value);
}

setUpWorkbenchTests();

describe("a device's hardware tab", () => {
  it('lists the device’s rows with their read request, CRC16 and data point', async () => {
    const api = setUp();
    expect(await screen.findByText('02 04 00 10 00 02 71 FD')).toBeTruthy();
    expect(screen.getByText('71FD')).toBeTruthy();
    expect(screen.getByText('AI07')).toBeTruthy();
    expect(await screen.findByText('Inflow', { selector: 'code' })).toBeTruthy();
    expect(api.callsTo('GET', ROWS_PATH)[0]?.query.get('PageNo')).toBe('1');
  });

  it('refuses a slave address outside 1–247 by the shared rule, then adds the row to the device', async () => {
    const api = setUp({
      [`POST ${ROWS_PATH}`]: () => ({ status: 201, data: { ...row, Id: 22 }, message: 'Created' }),
    });
    await screen.findByText('AI07');
    await userEvent.click(screen.getByRole('button', { name: 'Add hardware row' }));
    const dialog = await dialogTitled('Add hardware row');
    await userEvent.click(within(dialog).getByLabelText('Data point'));
    await userEvent.click(await screen.findByTitle('Inflow · Inflow'));
    await setNumber(dialog, 'Modbus slave', '248');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('A Modbus slave address is 1–247')).toBeTruthy();
    expect(api.callsTo('POST', ROWS_PATH)).toEqual([]);

    await setNumber(dialog, 'Modbus slave', '3');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(api.callsTo('POST', ROWS_PATH)).toHaveLength(1);
    });
    expect(api.callsTo('POST', ROWS_PATH)[0]?.body).toMatchObject({ DataDefineId: 1, ModbusSlave: 3, CMD: 3, RegAd: 0, Lens: 1 });
    expect(api.callsTo('POST', ROWS_PATH)[0]?.body).not.toHaveProperty('ReadFrame');
  });

  it('deletes a row only after the question is answered', async () => {
    const api = setUp({ [`DELETE ${ROWS_PATH}/21`]: () => ({ status: 200, data: null, message: 'Deleted' }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete AI07' }));
    let confirm = await dialogTitled('Delete “AI07”?');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('DELETE', `${ROWS_PATH}/21`)).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Delete AI07' }));
    confirm = await dialogTitled('Delete “AI07”?');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => {
      expect(api.callsTo('DELETE', `${ROWS_PATH}/21`)).toHaveLength(1);
    });
  });

  const user = (operates: string[]) => ({
    'GET /api/user/myinfo': () => ({
      data: {
        Id: 2,
        Account: 'someone',
        UserName: 'Someone',
        GroupId: 7,
        IsAdmin: false,
        Roles: [],
        Operates: operates,
        Config: { Theme: 'light' },
      },
    }),
  });

  it('shows a viewer the rows without add, edit or delete', async () => {
    setUp(user(['device.view']));
    await screen.findByText('operates known');
    expect(await screen.findByText('AI07')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add hardware row' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit AI07' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete AI07' })).toBeNull();
  });

  it('offers add, edit and delete to a user who may manage devices', async () => {
    setUp(user(['device.view', 'device.manage']));
    expect(await screen.findByRole('button', { name: 'Delete AI07' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Edit AI07' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add hardware row' })).toBeTruthy();
  });

  it('says so in Chinese too', async () => {
    await changeLanguage('zh-CN');
    setUp();
    await screen.findByText('AI07');
    expect(screen.getByText(/该设备自己的 Modbus 配置/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '新增硬件配置' }));
    const dialog = await dialogTitled('新增硬件配置');
    await setNumber(dialog, 'Modbus 从站', '0');
    await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(await within(dialog).findByText('Modbus 从站地址为 1–247')).toBeTruthy();
  });
});
