import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSessionCookies } from '../../lib/cookies';
import { loadDeviceTypesCatalog } from '../../lib/feature-catalogs';
import { fakeApi } from '../../test/fake-api';
import { renderRoutes } from '../../test/render';
import { defineResource } from './resource';
import { ResourceTable } from './resource-table';
import type { ResourceTableConfig } from './resource-types';

interface ModuleRow {
  Id: number;
  ModuleName: string;
  Sn: number;
}

const modules = defineResource<ModuleRow>({
  key: 'test-modules',
  operate: 'system.manage',
  list: 'GET /type/{typeId}/TypeModule',
  paging: 'all',
  remove: 'DELETE /type/{typeId}/TypeModule/:id',
  reorder: { call: 'PUT /type/{typeId}/TypeModule/Sort', field: 'Sn' },
});

const moduleConfig: ResourceTableConfig<ModuleRow> = {
  resource: modules,
  rowName: (row) => row.ModuleName,
  columns: [{ key: 'ModuleName', title: 'clients.clientName' }],
};

interface CodeRow {
  Id: number;
  Code: string;
  WarnTypeId: number;
}
const codes = defineResource<CodeRow>({
  key: 'test-codes',
  operate: 'system.manage',
  list: 'GET /warnCode',
  remove: 'DELETE /{WarnTypeId}/warncode/{Code}',
});
const codeConfig: ResourceTableConfig<CodeRow> = {
  resource: codes,
  rowName: (row) => row.Code,
  columns: [{ key: 'Code', title: 'clients.clientName' }],
};

function renderTable(element: React.ReactNode) {
  return renderRoutes(
    [
      {
        path: '/',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>{element}</App>
          </ConfigProvider>
        ),
      },
    ],
    '/',
  );
}

let rows: ModuleRow[];

beforeAll(async () => {
  await loadDeviceTypesCatalog();
});

beforeEach(() => {
  setSessionCookies({ account: 'admin' });
  rows = [
    { Id: 1, ModuleName: 'Pumps', Sn: 1 },
    { Id: 2, ModuleName: 'Aeration', Sn: 2 },
    { Id: 3, ModuleName: 'Dosing', Sn: 3 },
  ];
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const names = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).queryByText(/Pumps|Aeration|Dosing/)?.textContent);

describe('a reorderable list under a parent', () => {
  it('fills the parent into its paths and loads the list whole, 100 a page', async () => {
    const api = fakeApi({ 'GET /api/type/5/TypeModule': () => ({ data: rows, count: rows.length }) });
    renderTable(<ResourceTable config={moduleConfig} pathParams={{ typeId: 5 }} />);
    expect(await screen.findByText('Aeration')).toBeTruthy();
    expect(api.callsTo('GET', '/api/type/5/TypeModule')[0]?.query.get('PageSize')).toBe('100');
  });

  it('moves a row with the arrow keys on its handle, saves the new numbers and says where it went', async () => {
    const api = fakeApi({
      'GET /api/type/5/TypeModule': () => ({ data: [...rows].sort((a, b) => a.Sn - b.Sn), count: rows.length }),
      'PUT /api/type/5/TypeModule/Sort': (call) => {
        for (const item of (call.body as { Items: { Id: number; Sn: number }[] }).Items) {
          const row = rows.find((r) => r.Id === item.Id);
          if (row) row.Sn = item.Sn;
        }
        return { data: null, message: 'Saved' };
      },
    });
    renderTable(<ResourceTable config={moduleConfig} pathParams={{ typeId: 5 }} />);
    const handle = await screen.findByRole('button', { name: 'Move Pumps' });
    handle.focus();
    await userEvent.keyboard('{ArrowDown}');
    await waitFor(() => {
      expect(api.callsTo('PUT', '/api/type/5/TypeModule/Sort')).toHaveLength(1);
    });
    expect(api.callsTo('PUT', '/api/type/5/TypeModule/Sort')[0]?.body).toEqual({
      Items: [
        { Id: 2, Sn: 1 },
        { Id: 1, Sn: 2 },
      ],
    });
    expect(screen.getByRole('status').textContent).toBe('Pumps moved to position 2 of 3');
    await waitFor(() => {
      expect(names()).toEqual(['Aeration', 'Pumps', 'Dosing']);
    });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move Pumps' }));
  });

  it('fills a row’s own fields into a path (a warn code by its type and code)', async () => {
    const api = fakeApi({
      'GET /api/warnCode': () => ({ data: [{ Id: 9, Code: 'E01', WarnTypeId: 3 }], count: 1 }),
      'DELETE /api/3/warncode/E01': () => ({ data: null, message: 'Deleted' }),
    });
    renderTable(<ResourceTable config={codeConfig} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete E01' }));
    const confirm = await waitFor(() => {
      const found = screen.queryAllByRole('dialog').find((d) => within(d).queryAllByText('Delete “E01”?').length > 0);
      if (!found) throw new Error('no confirmation');
      return found;
    });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => {
      expect(api.callsTo('DELETE', '/api/3/warncode/E01')).toHaveLength(1);
    });
  });
});
