import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SECRET_MASK, addSimAccountRequest, updateSimAccountRequest, type SimAccountDto } from '@sluice/shared/sim.schema';
import { setSessionCookies } from '../../lib/cookies';
import { fakeApi } from '../../test/fake-api';
import { renderRoutes } from '../../test/render';
import { defineResource } from './resource';
import { ResourceTable } from './resource-table';
import type { ResourceTableConfig } from './resource-types';

const accounts = defineResource<SimAccountDto>({
  key: 'test-sim',
  operate: 'system.manage',
  list: 'GET /simboss',
  paging: 'none',
  create: 'POST /simboss',
  update: 'PUT /simboss',
});
const config: ResourceTableConfig<SimAccountDto> = {
  resource: accounts,
  rowName: (row) => row.SimAccount,
  columns: [{ key: 'SimAccount', title: 'clients.clientName' }],
  form: {
    createSchema: addSimAccountRequest,
    updateSchema: updateSimAccountRequest,
    createTitle: 'clients.add',
    editTitle: 'clients.edit',
    toValues: (row) => ({ SimAccount: row.SimAccount, SimPassword: '' }),
    fields: [
      { name: 'SimAccount', label: 'clients.clientName', kind: 'text' },
      { name: 'SimPassword', label: 'clients.linkman', kind: 'password' },
    ],
  },
};

beforeEach(() => {
  setSessionCookies({ account: 'admin' });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const dialogTitled = (title: string) =>
  waitFor(() => {
    const found = screen.queryAllByRole('dialog').find((d) => within(d).queryAllByText(title).length > 0);
    if (!found) throw new Error(`no dialog ${title}`);
    return found;
  });

describe('the form dialog', () => {
  it('opens each time with its own values, not with what was typed in a dialog cancelled before', async () => {
    fakeApi({
      'GET /api/simboss': () => [{ Id: 1, SimAccount: 'acme', SimPassword: SECRET_MASK, AppId: 'a', AppSecret: SECRET_MASK }],
    });
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <ConfigProvider theme={{ token: { motion: false } }}>
              <App>
                <ResourceTable config={config} />
              </App>
            </ConfigProvider>
          ),
        },
      ],
      '/',
    );
    await screen.findByText('acme');
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    let dialog = await dialogTitled('Add client');
    await userEvent.type(within(dialog).getByLabelText('Client name'), 'typed');
    await userEvent.type(within(dialog).getByLabelText('Contact person'), 'typed-secret');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await userEvent.click(screen.getByRole('button', { name: 'Edit acme' }));
    dialog = await dialogTitled('Edit client');
    expect(within(dialog).getByLabelText<HTMLInputElement>('Client name').value).toBe('acme');
    expect(within(dialog).getByLabelText<HTMLInputElement>('Contact person').value).toBe('');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    dialog = await dialogTitled('Add client');
    expect(within(dialog).getByLabelText<HTMLInputElement>('Client name').value).toBe('');
  });
});
