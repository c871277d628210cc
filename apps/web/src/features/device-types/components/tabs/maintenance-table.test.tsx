/**
 * A type's service intervals by run hours: listed with their run switch and hours; a new one is
 * refused without its hours before anything is sent, then saved with its switch; the
 * server's refusal of a point that is not a switch is shown on the form.
 */
import { describe, expect, it } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DataDefineDto } from '@sluice/shared/data-define.schema';
import type { TypeMaintenanceDto } from '@sluice/shared/device-type.schema';
import { changeLanguage } from '../../../../lib/i18n';
import { fakeApi } from '../../../../test/fake-api';
import { renderRoutes } from '../../../../test/render';
import { fill, setUpWorkbenchTests } from '../../../../test/workbench';
import { MaintenanceTable } from './maintenance-table';

const blower: DataDefineDto = {
  Id: 3,
  DataKey: 'Blower1Run',
  DataName: 'Blower 1 run',
  Unit: '',
  DataType: 'boolean',
  DefaultValue: '',
  Format: '',
  Model: '',
  Category: '',
};
const row: TypeMaintenanceDto = { Id: 8, TypeId: 5, Key: 'Blower1Run', DataDefineId: 3, Name: 'Blower oil', IntervalHours: 2000 };
const PATH = '/api/type/5/TypeMaintenance';

function renderTable() {
  return renderRoutes(
    [
      {
        path: '/',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>
              <MaintenanceTable typeId={5} />
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

setUpWorkbenchTests();

describe('the service intervals by run hours', () => {
  it('lists them, refuses a missing interval before sending, and saves a new one with its switch', async () => {
    const api = fakeApi({
      [`GET ${PATH}`]: () => [row],
      'GET /api/DataDefineLibrary': () => [blower],
      [`POST ${PATH}`]: () => ({ status: 201, data: { ...row, Id: 9 }, message: 'Created' }),
    });
    renderTable();
    expect(await screen.findByText('Blower oil')).toBeTruthy();
    expect(screen.getByText('2000 h')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Add a service interval' }));
    const dialog = await dialogTitled('Add a service interval');
    await fill(within(dialog).getByLabelText('Service'), 'Blower belts');
    await userEvent.click(within(dialog).getByLabelText('Run switch'));
    await userEvent.click(await screen.findByTitle('Blower1Run · Blower 1 run'));
    // No hours yet: refused on the field.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Required')).toBeTruthy();
    expect(api.callsTo('POST', PATH)).toEqual([]);
    await fill(within(dialog).getByLabelText('Every (run hours)'), '3000');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(api.callsTo('POST', PATH)).toHaveLength(1);
    });
    expect(api.callsTo('POST', PATH)[0]?.body).toMatchObject({ Name: 'Blower belts', DataDefineId: 3, IntervalHours: 3000 });
  });

  it('shows the server’s refusal of a point that is not a switch, in Chinese', async () => {
    await changeLanguage('zh-CN');
    fakeApi({
      [`GET ${PATH}`]: () => [],
      'GET /api/DataDefineLibrary': () => [blower],
      [`POST ${PATH}`]: () => ({
        status: 400,
        message: '请选择运行开关（布尔型数据点）：其开启时间计为运行时间',
        data: { errors: [{ field: 'DataDefineId', message: '请选择运行开关（布尔型数据点）：其开启时间计为运行时间' }] },
      }),
    });
    renderTable();
    expect(await screen.findByText('暂无保养间隔')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '新增保养间隔' }));
    const dialog = await dialogTitled('新增保养间隔');
    await fill(within(dialog).getByLabelText('保养项目'), '风机换油');
    await userEvent.click(within(dialog).getByLabelText('运行开关'));
    await userEvent.click(await screen.findByTitle('Blower1Run · Blower 1 run'));
    await fill(within(dialog).getByLabelText('间隔（运行小时）'), '2000');
    await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    expect((await within(dialog).findAllByText('请选择运行开关（布尔型数据点）：其开启时间计为运行时间')).length).toBeGreaterThan(
      0,
    );
  });
});
