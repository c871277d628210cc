import { describe, expect, it } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DataDefineDto } from '@sluice/shared/data-define.schema';
import type { HardwareConfigDto } from '@sluice/shared/device-type.schema';
import { readFrame } from '@sluice/shared/modbus';
import { changeLanguage } from '../../../../lib/i18n';
import { fakeApi } from '../../../../test/fake-api';
import { renderRoutes } from '../../../../test/render';
import { HardwareTab } from './hardware-tab';
import { fill, setUpWorkbenchTests } from '../../../../test/workbench';

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
const row: HardwareConfigDto = {
  Id: 11,
  TypeId: 5,
  DataDefineId: 1,
  No: 'AI01',
  Sn: 1,
  ShowKey: 'Inflow',
  KeyType: 'float32',
  Max: 50,
  Min: 0,
  Comm: 'RTU',
  Port: 'COM1',
  ModbusSlave: 1,
  PLCType: 'S7-200 SMART',
  RegAd: 0,
  CMD: 3,
  Address: '40001',
  BitOffSet: 0,
  Lens: 1,
  ReadFrame: '01 03 00 00 00 01 84 0A',
  Crc: '840A',
};

function renderTab() {
  return renderRoutes(
    [
      {
        path: '/',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>
              <HardwareTab typeId={5} />
            </App>
          </ConfigProvider>
        ),
      },
    ],
    '/',
  );
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

describe('the hardware-config tab', () => {
  it('shows each row’s read request and CRC16 as the server sent them', async () => {
    fakeApi({ 'GET /api/type/5/TypeHardWareConfig': () => [row], 'GET /api/DataDefineLibrary': () => [inflow] });
    renderTab();
    expect(await screen.findByText('01 03 00 00 00 01 84 0A')).toBeTruthy();
    expect(screen.getByText('840A')).toBeTruthy();
    expect(screen.getByText('AI01')).toBeTruthy();
  });

  it('checks the Modbus rules (slave 1–247, bit offset 0–15, Min ≤ Max) before saving, then saves', async () => {
    const api = fakeApi({
      'GET /api/type/5/TypeHardWareConfig': () => [row],
      'GET /api/DataDefineLibrary': () => [inflow],
      'POST /api/type/5/TypeHardWareConfig': () => ({ status: 201, data: { ...row, Id: 12 }, message: 'Created' }),
    });
    renderTab();
    await screen.findByText('AI01');
    await userEvent.click(screen.getByRole('button', { name: 'Add hardware row' }));
    const dialog = await dialogTitled('Add hardware row');

    await userEvent.click(within(dialog).getByLabelText('Data point'));
    await userEvent.click(await screen.findByTitle('Inflow · Inflow'));
    await setNumber(dialog, 'Modbus slave', '300');
    await setNumber(dialog, 'Bit offset', '16');
    await setNumber(dialog, 'Min', '10');
    await setNumber(dialog, 'Max', '5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await within(dialog).findByText('A Modbus slave address is 1–247')).toBeTruthy();
    expect(within(dialog).getByText('A bit offset within a register is 0–15')).toBeTruthy();
    expect(within(dialog).getByText('Min cannot be greater than Max')).toBeTruthy();
    expect(api.callsTo('POST', '/api/type/5/TypeHardWareConfig')).toEqual([]);

    await setNumber(dialog, 'Modbus slave', '2');
    await setNumber(dialog, 'Bit offset', '3');
    await setNumber(dialog, 'Max', '50');
    // The read request of the row as typed, with its CRC, before it is saved.
    expect(within(dialog).getByText(readFrame(2, 3, 0, 1)?.frame ?? '')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(api.callsTo('POST', '/api/type/5/TypeHardWareConfig')).toHaveLength(1);
    });
    expect(api.callsTo('POST', '/api/type/5/TypeHardWareConfig')[0]?.body).toMatchObject({
      DataDefineId: 1,
      ModbusSlave: 2,
      BitOffSet: 3,
      Min: 10,
      Max: 50,
      CMD: 3,
      RegAd: 0,
      Lens: 1,
    });
    expect(api.callsTo('POST', '/api/type/5/TypeHardWareConfig')[0]?.body).not.toHaveProperty('ReadFrame');
  });

  it('says so in Chinese too', async () => {
    await changeLanguage('zh-CN');
    fakeApi({ 'GET /api/type/5/TypeHardWareConfig': () => [row], 'GET /api/DataDefineLibrary': () => [inflow] });
    renderTab();
    await screen.findByText('AI01');
    await userEvent.click(screen.getByRole('button', { name: '新增硬件配置' }));
    const dialog = await dialogTitled('新增硬件配置');
    await setNumber(dialog, 'Modbus 从站', '0');
    await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(await within(dialog).findByText('Modbus 从站地址为 1–247')).toBeTruthy();
  });
});
