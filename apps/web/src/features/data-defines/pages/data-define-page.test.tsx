import { describe, expect, it, vi } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DataDefineDto } from '@sluice/shared/data-define.schema';
import { fakeApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render';
import { DataDefinePage } from './data-define-page';
import { fill, setUpWorkbenchTests } from '../../../test/workbench';
import { changeLanguage } from '../../../lib/i18n';

const level: DataDefineDto = {
  Id: 3,
  DataKey: 'TankLevel',
  DataName: 'Tank level',
  Unit: 'm',
  DataType: 'readable',
  DefaultValue: '',
  Format: '2',
  Model: '',
  Category: 'Level',
};

function server() {
  return fakeApi({
    'GET /api/DataDefineLibrary': () => ({ data: [level], count: 1 }),
    'GET /api/Category/All': () => [{ Id: 1, Name: 'Level' }],
    'POST /api/DataDefineLibrary': (call) => ({ status: 201, data: { Id: 9, ...(call.body as object) }, message: 'Created' }),
  });
}

function renderPage() {
  return renderRoutes(
    [
      {
        path: '/sys/dataDefine',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>
              <DataDefinePage />
            </App>
          </ConfigProvider>
        ),
      },
    ],
    '/sys/dataDefine',
  );
}

async function openAdd(): Promise<HTMLElement> {
  await screen.findByText('TankLevel');
  await userEvent.click(screen.getByRole('button', { name: 'Add data point' }));
  const dialog = await waitFor(() => {
    const found = screen.queryAllByRole('dialog').find((d) => within(d).queryAllByText('Add data point').length > 0);
    if (!found) throw new Error('no dialog');
    return found;
  });
  await fill(within(dialog).getByLabelText('Data key'), 'Probe1');
  await fill(within(dialog).getByLabelText('Name'), 'Probe one');
  return dialog;
}

async function pickType(dialog: HTMLElement, title: string) {
  await userEvent.click(within(dialog).getByLabelText('Data type'));
  await userEvent.click(await screen.findByTitle(title));
}

const value = (dialog: HTMLElement, label: string) => within(dialog).getByLabelText<HTMLInputElement>(label).value;

setUpWorkbenchTests();

describe('the data point form: Format and DefaultValue fit the data type', () => {
  it('edits an enumeration’s options (low/mid/high by default) and picks the default among them', async () => {
    const api = server();
    renderPage();
    const dialog = await openAdd();
    await pickType(dialog, 'Enumeration');
    expect([1, 2, 3].map((i) => value(dialog, `Value of option ${String(i)}`))).toEqual(['0', '1', '2']);
    expect([1, 2, 3].map((i) => value(dialog, `Label of option ${String(i)}`))).toEqual(['low', 'mid', 'high']);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add an option' }));
    expect(value(dialog, 'Value of option 4')).toBe('3');
    await fill(within(dialog).getByLabelText('Label of option 4'), 'max');
    await userEvent.click(within(dialog).getByLabelText('Default value'));
    await userEvent.click(await screen.findByTitle('max (3)'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(api.callsTo('POST', '/api/DataDefineLibrary')).toHaveLength(1);
    });
    expect(api.callsTo('POST', '/api/DataDefineLibrary')[0]?.body).toMatchObject({
      DataKey: 'Probe1',
      DataType: 'enum',
      Format: '{"0":"low","1":"mid","2":"high","3":"max"}',
      DefaultValue: '3',
    });
  });

  it('refuses an enumeration without options', async () => {
    const api = server();
    renderPage();
    const dialog = await openAdd();
    await pickType(dialog, 'Enumeration');
    for (let i = 0; i < 3; i++) await userEvent.click(within(dialog).getByRole('button', { name: 'Remove option 1' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(/The format must be a JSON object of values and labels/)).toBeTruthy();
    expect(api.callsTo('POST', '/api/DataDefineLibrary')).toEqual([]);
  });

  it('labels a switch’s 0 and 1, whose values are fixed', async () => {
    const api = server();
    renderPage();
    const dialog = await openAdd();
    await pickType(dialog, 'Switch');
    expect(within(dialog).getByLabelText('Value of option 1')).toHaveProperty('readOnly', true);
    expect(within(dialog).queryByRole('button', { name: 'Remove option 1' })).toBeNull();
    const on = within(dialog).getByLabelText('Label of option 2');
    await userEvent.clear(on);
    await fill(on, 'On');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(api.callsTo('POST', '/api/DataDefineLibrary')).toHaveLength(1);
    });
    expect(api.callsTo('POST', '/api/DataDefineLibrary')[0]?.body).toMatchObject({
      DataType: 'boolean',
      Format: '{"0":"0","1":"On"}',
    });
  });

  it('gives a number its decimals and limits, and checks Min ≤ Max and the default against them', async () => {
    const api = server();
    renderPage();
    const dialog = await openAdd();
    await pickType(dialog, 'Set value (number)');
    await fill(within(dialog).getByLabelText('Decimals'), '2');
    await fill(within(dialog).getByLabelText('Min'), '10');
    await fill(within(dialog).getByLabelText('Max'), '5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Min cannot be greater than Max')).toBeTruthy();

    const max = within(dialog).getByLabelText('Max');
    await userEvent.clear(max);
    await fill(max, '50');
    await fill(within(dialog).getByLabelText('Default value'), '80');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('The value entered cannot be greater than 50')).toBeTruthy();
    expect(api.callsTo('POST', '/api/DataDefineLibrary')).toEqual([]);

    const fallback = within(dialog).getByLabelText('Default value');
    await userEvent.clear(fallback);
    await fill(fallback, '40');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(api.callsTo('POST', '/api/DataDefineLibrary')).toHaveLength(1);
    });
    expect(api.callsTo('POST', '/api/DataDefineLibrary')[0]?.body).toMatchObject({
      DataType: 'textbox',
      Format: '{"Min":10,"Max":50,"Decimals":2}',
      DefaultValue: '40',
    });
  });

  it('offers a select’s options (the baud rates by default) as its default', async () => {
    server();
    renderPage();
    const dialog = await openAdd();
    await pickType(dialog, 'Select');
    expect([1, 2].map((i) => value(dialog, `Value of option ${String(i)}`))).toEqual(['1200', '9600']);
    await userEvent.click(within(dialog).getByLabelText('Default value'));
    expect(await screen.findByTitle('9600')).toBeTruthy();
  });

  it('shows the server’s refusal to delete a data point a type uses', async () => {
    const api = server();
    api.on('DELETE /api/DataDefineLibrary/3', () => ({
      status: 409,
      message: 'The data point “TankLevel” is used by the device type “Village station (A/O)”; remove it there first',
    }));
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete TankLevel' }));
    const confirm = await waitFor(() => {
      const found = screen.queryAllByRole('dialog').find((d) => within(d).queryAllByText('Delete “TankLevel”?').length > 0);
      if (!found) throw new Error('no confirmation');
      return found;
    });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(/is used by the device type “Village station \(A\/O\)”/)).toBeTruthy();
    expect(screen.getByText('TankLevel')).toBeTruthy();
  });
});

describe('the library as a CSV file or an Excel workbook', () => {
  it('exports either format and imports either', async () => {
    const api = server();
    api.on('GET /api/DataDefineLibrary/Export', () => ({ data: null }));
    const saved: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    Object.assign(URL, { createObjectURL: () => 'blob:library', revokeObjectURL: () => undefined });
    try {
      renderPage();
      await screen.findByText('TankLevel');
      for (const [item, format] of [
        ['Excel workbook (.xlsx)', 'xlsx'],
        ['CSV file (.csv)', 'csv'],
      ] as const) {
        await userEvent.click(screen.getByRole('button', { name: /Export/ }));
        await userEvent.click(await screen.findByRole('menuitem', { name: item }));
        await waitFor(() => {
          expect(saved).toContain(`data-defines.${format}`);
        });
      }
      expect(api.callsTo('GET', '/api/DataDefineLibrary/Export').map((c) => c.query.get('Format'))).toEqual(['xlsx', 'csv']);
    } finally {
      click.mockRestore();
    }

    await userEvent.click(screen.getByRole('button', { name: 'Import' }));
    const dialog = await waitFor(() => {
      const found = screen
        .queryAllByRole('dialog')
        .find((d) => within(d).queryAllByText('Import data points from a CSV file or an Excel workbook').length > 0);
      if (!found) throw new Error('no dialog');
      return found;
    });
    const input = dialog.querySelector<HTMLInputElement>('input[type="file"]');
    expect(input?.accept.split(',')).toEqual(expect.arrayContaining(['.csv', '.xlsx']));
  });
});

describe('the library in the user’s language', () => {
  const pumpRun: DataDefineDto = {
    ...level,
    Id: 4,
    DataKey: 'LiftPump1Run',
    DataName: '1#提升泵运行',
    Unit: '',
    DataType: 'boolean',
    Format: '{"0":"停止","1":"运行"}',
    Category: '泵,报警',
  };
  const library = () =>
    fakeApi({
      'GET /api/DataDefineLibrary': () => ({ data: [pumpRun], count: 1 }),
      'GET /api/Category/All': () => [
        { Id: 1, Name: '泵' },
        { Id: 2, Name: '报警' },
      ],
    });

  it('shows a seeded Chinese name, its option labels and categories in English, and edits the stored name', async () => {
    library();
    renderPage();
    expect(await screen.findByText('Lift pump 1 run')).toBeTruthy();
    expect(screen.getByText('0 = Stop, 1 = Run')).toBeTruthy();
    expect(screen.getByText('Pumps')).toBeTruthy();
    expect(screen.getByText('Alarm')).toBeTruthy();
    // The stored name on hover, and in the form: what is saved stays as stored.
    expect(screen.getByText('Lift pump 1 run').getAttribute('title')).toBe('1#提升泵运行');
    await userEvent.click(screen.getByRole('button', { name: 'Edit LiftPump1Run' }));
    const dialog = await waitFor(() => {
      const found = screen.queryAllByRole('dialog').find((d) => within(d).queryAllByLabelText('Name').length > 0);
      if (!found) throw new Error('no dialog');
      return found;
    });
    expect(within(dialog).getByLabelText<HTMLInputElement>('Name').value).toBe('1#提升泵运行');
  });

  it('shows it as stored in Chinese', async () => {
    await changeLanguage('zh-CN');
    library();
    renderPage();
    expect(await screen.findByText('1#提升泵运行')).toBeTruthy();
    expect(screen.getByText('0 = 停止，1 = 运行')).toBeTruthy();
    expect(screen.queryByText('Lift pump 1 run')).toBeNull();
  });
});
