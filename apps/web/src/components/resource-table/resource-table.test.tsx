import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { App, ConfigProvider } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { addClientRequest, updateClientRequest, type ClientDto } from '@sluice/shared/client.schema';
import { changeLanguage } from '../../lib/i18n';
import { setSessionCookies } from '../../lib/cookies';
import { api } from '../../lib/api-client';
import { myInfoQueryOptions } from '../../lib/current-user';
import { renderRoutes } from '../../test/render';
import { urlOf } from '../../test/fetch';
import { useFakeClock } from '../../test/fake-clock';
import { defineResource } from './resource';
import { ResourceTable } from './resource-table';
import type { ResourceTableConfig } from './resource-types';

const resource = defineResource<ClientDto>({
  key: 'test-clients',
  operate: 'client.manage',
  list: 'GET /Client',
  create: 'POST /Client/Add',
  update: 'PUT /Client/Update',
  remove: 'POST /Client/Delete#Id',
});

const config: ResourceTableConfig<ClientDto> = {
  resource,
  rowName: (row) => row.ClientName,
  search: { placeholder: 'resource.search' },
  columns: [
    { key: 'ClientName', title: 'clients.clientName', sortKey: 'ClientName' },
    { key: 'Telephone', title: 'clients.telephone' },
  ],
  form: {
    createSchema: addClientRequest,
    updateSchema: updateClientRequest,
    createTitle: 'clients.add',
    editTitle: 'clients.edit',
    fields: [
      { name: 'ClientName', label: 'clients.clientName', kind: 'text' },
      { name: 'Telephone', label: 'clients.telephone', kind: 'text' },
    ],
  },
};

const client = (id: number): ClientDto => ({
  Id: id,
  ClientName: `Client ${String(id).padStart(2, '0')}`,
  ClientSn: `C${String(id)}`,
  Linkman: '',
  Telephone: '0572-5123456',
  Mobile: '',
  Address: '',
  Description: '',
});
const ALL = Array.from({ length: 23 }, (_, i) => client(i + 1));

const fetchMock = vi.fn<typeof fetch>();
const ok = (data: unknown, extra: Record<string, unknown> = {}) =>
  Promise.resolve(new Response(JSON.stringify({ success: true, message: 'OK', data, ...extra })));

const ADMIN = { Id: 1, Account: 'admin', GroupId: 7, IsAdmin: true, Roles: [], Operates: [], Config: { Theme: 'light' } };

/**
 * GET /api/Client lists, pages and searches ALL; writes answer as the `write` hook says; myinfo
 * answers `me` (an administrator unless told).
 */
function fakeServer(write: (url: string, init?: RequestInit) => Promise<Response> = () => ok(null), me: object = ADMIN) {
  fetchMock.mockImplementation((input, init) => {
    const url = new URL(urlOf(input), 'http://localhost');
    if (url.pathname === '/api/user/myinfo') return ok(me);
    if (url.pathname === '/api/Client' && (init?.method ?? 'GET') === 'GET') {
      const search = url.searchParams.get('Search') ?? '';
      const pageNo = Number(url.searchParams.get('PageNo') ?? 1);
      const size = Number(url.searchParams.get('PageSize') ?? 10);
      const matching = ALL.filter((row) => row.ClientName.includes(search));
      if (url.searchParams.get('OrderType') === 'desc') matching.reverse();
      return ok(matching.slice((pageNo - 1) * size, pageNo * size), { count: matching.length });
    }
    return write(url.pathname, init);
  });
}

/** The list calls made so far, as their query parameters. */
function listCalls(): URLSearchParams[] {
  return fetchMock.mock.calls
    .map(([input, init]) => ({ url: new URL(urlOf(input), 'http://localhost'), method: init?.method ?? 'GET' }))
    .filter(({ url, method }) => url.pathname === '/api/Client' && method === 'GET')
    .map(({ url }) => url.searchParams);
}

function writes(path: string): { method: string; body: unknown }[] {
  return fetchMock.mock.calls
    .filter(([input, init]) => urlOf(input).startsWith(path) && init?.method !== undefined && init.method !== 'GET')
    .map(([, init]) => ({
      method: init?.method ?? '',
      body: JSON.parse(typeof init?.body === 'string' ? init.body : 'null') as unknown,
    }));
}

/**
 * The open dialog with this title. (Under jsdom Ant Design's dialogs all get the test id
 * 'test-id' as their label, so they are found by their title's text.)
 */
function openDialog(title: string): HTMLElement | null {
  return screen.queryAllByRole('dialog').find((dialog) => within(dialog).queryAllByText(title).length > 0) ?? null;
}

async function dialogTitled(title: string): Promise<HTMLElement> {
  return waitFor(() => {
    const found = openDialog(title);
    if (!found) throw new Error(`no open dialog titled ${title}`);
    return found;
  });
}

/** One row's contents (role queries over the whole table are slow under jsdom, more so on a busy machine). */
function rowOf(name: string) {
  const row = screen.getByText(name).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return within(row);
}

/** Shows "operates known" once the signed-in user's operates have arrived. */
function UserProbe() {
  const { data } = useQuery(myInfoQueryOptions());
  return data ? <span>operates known</span> : null;
}

function renderTable(options: { readOnly?: boolean; config?: ResourceTableConfig<ClientDto>; extra?: ReactNode } = {}) {
  return renderRoutes(
    [
      {
        path: '/',
        element: (
          // No animations: a closed dialog leaves the page at once.
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>
              <ResourceTable config={options.config ?? config} title="Clients" syncUrl readOnly={options.readOnly} />
              {options.extra}
            </App>
          </ConfigProvider>
        ),
      },
    ],
    '/',
  );
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  setSessionCookies({ account: 'admin' });
});

afterEach(async () => {
  vi.unstubAllGlobals();
  await changeLanguage('en-US');
});

describe('ResourceTable', () => {
  it('asks the server for one page at a time and shows the total', async () => {
    fakeServer();
    const { router } = renderTable();
    expect(await screen.findByText('Client 01')).toBeTruthy();
    expect(screen.getByText('23 in all')).toBeTruthy();
    expect(listCalls()[0]?.toString()).toBe('PageNo=1&PageSize=10');

    await userEvent.click(screen.getByRole('listitem', { name: '3' }));
    expect(await screen.findByText('Client 21')).toBeTruthy();
    expect(listCalls().at(-1)?.get('PageNo')).toBe('3');
    expect(router.state.location.search).toBe('?page=3');
  });

  it('searches once typing pauses, from the first page', async () => {
    fakeServer();
    const user = useFakeClock();
    renderTable();
    await screen.findByText('Client 01');
    await user.click(screen.getByRole('listitem', { name: '2' }));
    await screen.findByText('Client 11');
    const before = listCalls().length;
    // Typed without a pause on the fake clock: however slow the machine, no key waits 300 ms.
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'nt 2');
    expect(listCalls().length).toBe(before);
    expect(await screen.findByText('Client 21')).toBeTruthy();
    const searches = listCalls().slice(before);
    // One request for the whole word, not one per key.
    expect(searches.map((p) => p.get('Search'))).toEqual(['nt 2']);
    expect(searches[0]?.get('PageNo')).toBe('1');
    expect(screen.queryByText('Client 11')).toBeNull();
  });

  it('sorts on the server by the column’s OrderBy, ascending then descending', async () => {
    fakeServer();
    renderTable();
    await screen.findByText('Client 01');
    const header = screen.getByRole('columnheader', { name: /Client name/ });
    await userEvent.click(header);
    await waitFor(() => {
      expect(listCalls().at(-1)?.get('OrderType')).toBe('asc');
    });
    expect(listCalls().at(-1)?.get('OrderBy')).toBe('ClientName');
    await userEvent.click(header);
    expect(await screen.findByText('Client 23')).toBeTruthy();
    expect(listCalls().at(-1)?.get('OrderType')).toBe('desc');
  });

  it('validates the form with the shared schema’s messages before sending anything', async () => {
    fakeServer();
    renderTable();
    await screen.findByText('Client 01');
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = await dialogTitled('Add client');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Required')).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText('Client name'), 'Qingshan');
    await userEvent.type(within(dialog).getByLabelText('Landline'), '12345678');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Enter a landline as area code-number, e.g. 0755-12345678')).toBeTruthy();
    expect(writes('/api/Client/Add')).toEqual([]);
  });

  it('gives the same rules’ messages in Chinese', async () => {
    await changeLanguage('zh-CN');
    fakeServer();
    renderTable();
    await screen.findByText('Client 01');
    await userEvent.click(screen.getByRole('button', { name: '新增' }));
    const dialog = await dialogTitled('新增客户');
    await userEvent.type(within(dialog).getByLabelText('座机'), '0755-123');
    await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(await within(dialog).findByText('必填')).toBeTruthy();
    expect(await within(dialog).findByText('请输入正确的座机号码，如 0755-12345678')).toBeTruthy();
    expect(writes('/api/Client/Add')).toEqual([]);
  });

  it('puts the server’s field errors on their fields, then saves', async () => {
    let attempts = 0;
    fakeServer(() => {
      attempts++;
      if (attempts === 1) {
        return Promise.resolve(
          new Response(
            JSON.stringify({
              success: false,
              message: 'ClientSn: taken',
              data: { errors: [{ field: 'ClientName', message: 'A client named so exists' }] },
            }),
            { status: 409 },
          ),
        );
      }
      return ok({ Id: 99 }, { message: 'Created' });
    });
    renderTable();
    await screen.findByText('Client 01');
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = await dialogTitled('Add client');
    await userEvent.type(within(dialog).getByLabelText('Client name'), 'Client 01');
    await userEvent.type(within(dialog).getByLabelText('Landline'), '0572-1234567{Enter}');
    expect(await within(dialog).findByText('A client named so exists')).toBeTruthy();
    await userEvent.clear(within(dialog).getByLabelText('Client name'));
    await userEvent.type(within(dialog).getByLabelText('Client name'), 'Client 24');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(openDialog('Add client')).toBeNull();
    });
    expect(writes('/api/Client/Add').map((w) => w.body)).toEqual([
      { ClientName: 'Client 01', Telephone: '0572-1234567' },
      { ClientName: 'Client 24', Telephone: '0572-1234567' },
    ]);
  });

  it('edits a row with its values and sends its Id', async () => {
    fakeServer(() => ok(null, { message: 'Saved' }));
    renderTable();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Client 02' }));
    const dialog = await dialogTitled('Edit client');
    const name = within(dialog).getByLabelText('Client name');
    expect((name as HTMLInputElement).value).toBe('Client 02');
    await userEvent.type(name, ' B');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(writes('/api/Client/Update')).toEqual([
        { method: 'PUT', body: { Id: 2, ClientName: 'Client 02 B', Telephone: '0572-5123456' } },
      ]);
    });
  });

  it("clears an emptied field: a text input sends '', a cleared select null", async () => {
    fakeServer(() => ok(null, { message: 'Saved' }));
    const form = config.form;
    if (!form) throw new Error('the test table has a form');
    const withSelect: ResourceTableConfig<ClientDto> = {
      ...config,
      form: {
        ...form,
        toValues: (row) => ({ ClientName: row.ClientName, Telephone: row.Telephone, Linkman: 'Wang' }),
        fields: [
          ...form.fields,
          { name: 'Linkman', label: 'clients.linkman', kind: 'select', options: [{ value: 'Wang', text: 'Wang' }] },
        ],
      },
    };
    const { container } = renderTable({ config: withSelect });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Client 02' }));
    const dialog = await dialogTitled('Edit client');
    await userEvent.clear(within(dialog).getByLabelText('Landline'));
    const clear = container.ownerDocument.querySelector('.ant-select-clear');
    if (!clear) throw new Error('the select offers no clear button');
    await userEvent.click(clear);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(writes('/api/Client/Update')).toEqual([
        { method: 'PUT', body: { Id: 2, ClientName: 'Client 02', Telephone: '', Linkman: null } },
      ]);
    });
  });

  it('deletes only after a confirmation naming the record', async () => {
    fakeServer(() => ok(null, { message: 'Deleted' }));
    renderTable();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Client 03' }));
    let confirm = await dialogTitled('Delete “Client 03”?');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => {
      expect(openDialog('Delete “Client 03”?')).toBeNull();
    });
    expect(writes('/api/Client/Delete')).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Delete Client 03' }));
    confirm = await dialogTitled('Delete “Client 03”?');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => {
      expect(writes('/api/Client/Delete')).toEqual([{ method: 'POST', body: { Id: 3 } }]);
    });
  });

  it('offers no add, edit or delete to a user who may only view', async () => {
    fakeServer();
    renderTable({ readOnly: true });
    expect(await screen.findByText('Client 01')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit Client 01' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Client 01' })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).toBeNull();
  });

  describe('by the user’s operates', () => {
    const operator = { ...ADMIN, Account: 'operator', IsAdmin: false, Operates: ['client.view', 'device.view'] };
    /** Renders the table, and waits until its rows are shown to a user whose operates are known. */
    async function renderFor(me: object) {
      fakeServer(undefined, me);
      renderTable({ extra: <UserProbe /> });
      await screen.findByText('operates known');
      await screen.findByText('Client 01');
    }

    it('offers no add, edit or delete to a user whose roles lack the resource’s operate', async () => {
      await renderFor(operator);
      expect(screen.queryByText('Add')).toBeNull();
      expect(rowOf('Client 01').queryAllByRole('button')).toEqual([]);
    });

    it('offers add, edit and delete to a user whose roles hold it', async () => {
      await renderFor({ ...operator, Operates: ['client.view', 'client.manage'] });
      expect(screen.getByText('Add')).toBeTruthy();
      expect(rowOf('Client 01').getByRole('button', { name: 'Edit Client 01' })).toBeTruthy();
      expect(rowOf('Client 01').getByRole('button', { name: 'Delete Client 01' })).toBeTruthy();
    });
  });

  describe('row actions', () => {
    const withActions: ResourceTableConfig<ClientDto> = {
      ...config,
      actions: [
        {
          key: 'restore',
          label: 'recycleBin.restore',
          namedLabel: 'recycleBin.restoreNamed',
          run: (row) => api.put(`/Client/Restore/${String(row.Id)}`),
          done: 'recycleBin.restored',
        },
        {
          key: 'purge',
          label: 'recycleBin.purge',
          namedLabel: 'recycleBin.purgeNamed',
          danger: true,
          adminOnly: true,
          visible: (row) => row.Id !== 2,
          confirm: { title: 'recycleBin.purgeTitle', content: 'recycleBin.purgeContent', okText: 'recycleBin.purge' },
          confirmValues: (row) => ({ sn: row.ClientSn }),
          run: (row) => api.delete(`/Client/Purge/${String(row.Id)}`),
          done: 'sites.actions.deleted',
        },
      ],
    };

    it('runs a call on the row and shows the server’s message, then lists again', async () => {
      fakeServer(() => ok(null, { message: 'Back in its project' }));
      renderTable({ config: withActions });
      await userEvent.click(await screen.findByRole('button', { name: 'Restore Client 04' }));
      expect(await screen.findByText('Back in its project')).toBeTruthy();
      expect(writes('/api/Client/Restore')).toEqual([{ method: 'PUT', body: null }]);
      expect(fetchMock.mock.calls.some(([input]) => urlOf(input).endsWith('/api/Client/Restore/4'))).toBe(true);
      await waitFor(() => {
        expect(listCalls().length).toBeGreaterThan(1);
      });
    });

    it('asks first when the action says so, naming the record, and calls nothing on Cancel', async () => {
      fakeServer(() => ok(null, { message: '' }));
      renderTable({ config: withActions });
      await userEvent.click(await screen.findByRole('button', { name: 'Purge Client 05' }));
      let confirm = await dialogTitled('Purge Client 05 for good?');
      expect(within(confirm).getByText(/Client 05 \(C5\) and its configuration/)).toBeTruthy();
      await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => {
        expect(openDialog('Purge Client 05 for good?')).toBeNull();
      });
      expect(writes('/api/Client/Purge')).toEqual([]);

      await userEvent.click(screen.getByRole('button', { name: 'Purge Client 05' }));
      confirm = await dialogTitled('Purge Client 05 for good?');
      await userEvent.click(within(confirm).getByRole('button', { name: 'Purge' }));
      // No message from the server: the action's own.
      expect(await screen.findByText('Deleted')).toBeTruthy();
      expect(writes('/api/Client/Purge')).toEqual([{ method: 'DELETE', body: null }]);
    });

    it('shows the server’s error when the call fails', async () => {
      fakeServer(() =>
        Promise.resolve(
          new Response(JSON.stringify({ success: false, message: 'The project is gone', data: null }), { status: 409 }),
        ),
      );
      renderTable({ config: withActions });
      await userEvent.click(await screen.findByRole('button', { name: 'Restore Client 06' }));
      expect(await screen.findByText('The project is gone')).toBeTruthy();
    });

    it('keeps an administrators’ action from other users who may write', async () => {
      fakeServer(undefined, { ...ADMIN, Account: 'operator', IsAdmin: false, Operates: ['client.view', 'client.manage'] });
      renderTable({ config: withActions });
      await screen.findByText('Client 01');
      expect(rowOf('Client 01').getByRole('button', { name: 'Restore Client 01' })).toBeTruthy();
      expect(rowOf('Client 01').queryByRole('button', { name: 'Purge Client 01' })).toBeNull();
    });

    it('shows an action only on the rows it is for', async () => {
      fakeServer();
      renderTable({ config: withActions });
      await screen.findByText('Client 02');
      expect(rowOf('Client 01').getByRole('button', { name: 'Purge Client 01' })).toBeTruthy();
      expect(rowOf('Client 02').queryByRole('button', { name: 'Purge Client 02' })).toBeNull();
      expect(rowOf('Client 02').getByRole('button', { name: 'Restore Client 02' })).toBeTruthy();
    });

    it('offers none of them on a read-only table', async () => {
      fakeServer();
      renderTable({ config: withActions, readOnly: true });
      expect(await screen.findByText('Client 01')).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Restore Client 01' })).toBeNull();
      expect(screen.queryByRole('columnheader', { name: 'Actions' })).toBeNull();
    });
  });

  it('names the record in an edit dialog’s title that asks for it', async () => {
    fakeServer();
    const form = config.form;
    if (!form) throw new Error('the test table has a form');
    renderTable({ config: { ...config, form: { ...form, editTitle: 'areaSet.edit' } } });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Client 07' }));
    expect(await dialogTitled('Edit Client 07')).toBeTruthy();
  });

  it('says what the list holds when it is empty', async () => {
    fetchMock.mockImplementation((input) => (urlOf(input) === '/api/user/myinfo' ? ok(ADMIN) : ok([], { count: 0 })));
    renderTable({ config: { ...config, empty: 'recycleBin.empty' } });
    expect(await screen.findByText('The recycle bin is empty')).toBeTruthy();
  });

  it('shows the server’s message and a retry when the list fails', async () => {
    fetchMock.mockImplementation((input) => {
      if (urlOf(input) === '/api/user/myinfo') return ok(ADMIN);
      return Promise.resolve(
        new Response(JSON.stringify({ success: false, message: 'You are not permitted to do this', data: null }), {
          status: 403,
        }),
      );
    });
    renderTable();
    expect(await screen.findByText('The list could not be loaded')).toBeTruthy();
    expect(screen.getByText('You are not permitted to do this')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    // A failure is not an empty list.
    expect(screen.queryAllByText('No data')).toHaveLength(0);
  });
});
