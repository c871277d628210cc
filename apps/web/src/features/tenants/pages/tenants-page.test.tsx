/**
 * The platform administrator's tenants screen: a new group's administrator password is shown once
 * after it is created, an edit sends the watermark setting, and a group is deleted only once its
 * code is typed again, the dialog saying what goes with it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSessionCookies } from '../../../lib/cookies';
import { changeLanguage } from '../../../lib/i18n';
import '../../../lib/console-catalog';
import { fakeApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render';
import { TenantsPage } from './tenants-page';

const river = { Id: 2, GroupName: 'River Town', Account: 'riverboss', Code: 'river', Description: '', Logo: '', Watermark: true };

function renderPage() {
  return renderRoutes(
    [
      {
        path: '/sys/tenants',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>
              <TenantsPage />
            </App>
          </ConfigProvider>
        ),
      },
    ],
    '/sys/tenants',
  );
}

async function dialogTitled(title: string): Promise<HTMLElement> {
  return waitFor(() => {
    const found = screen.queryAllByRole('dialog').find((dialog) => within(dialog).queryAllByText(title).length > 0);
    if (!found) throw new Error(`no open dialog titled ${title}`);
    return found;
  });
}

describe('the tenants screen', () => {
  beforeEach(async () => {
    setSessionCookies({ account: 'admin' });
    await changeLanguage('en-US');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('lists groups by name and shows a new group’s administrator password once', async () => {
    const api = fakeApi({
      'GET /api/Group/FindByName': () => ({ data: [river], count: 1 }),
      'POST /api/Group/Add': () => ({
        status: 201,
        data: { Id: 3, Account: 'lakeboss', Password: 'Gen3ratedPw42' },
        message: 'Created',
      }),
    });
    renderPage();
    await screen.findByText('River Town');
    await userEvent.click(screen.getByRole('button', { name: 'Add group' }));
    const dialog = await dialogTitled('Add group');
    await userEvent.type(within(dialog).getByLabelText('Group name'), 'Lake Town');
    await userEvent.type(within(dialog).getByLabelText('Group code'), 'lake');
    await userEvent.type(within(dialog).getByLabelText('Administrator account'), 'lakeboss');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const created = await dialogTitled('Group created');
    expect(within(created).getByText('Gen3ratedPw42')).toBeTruthy();
    expect(api.callsTo('POST', '/api/Group/Add')[0]?.body).toMatchObject({
      GroupName: 'Lake Town',
      Code: 'lake',
      Account: 'lakeboss',
    });
    await userEvent.click(within(created).getByRole('button', { name: 'Done' }));
    await waitFor(() => {
      expect(screen.queryByText('Gen3ratedPw42')).toBeNull();
    });
  });

  it('edits a group and turns its watermark off', async () => {
    const api = fakeApi({
      'GET /api/Group/FindByName': () => ({ data: [river], count: 1 }),
      'PUT /api/Group/Update': () => ({ data: { ...river, Watermark: false }, message: 'Saved' }),
    });
    renderPage();
    const row = (await screen.findByText('River Town')).closest('tr');
    if (!row) throw new Error('no row');
    expect(within(row).getByText('On')).toBeTruthy();
    await userEvent.click(within(row).getByRole('button', { name: /Edit/ }));
    const dialog = await dialogTitled('Edit River Town');
    await userEvent.click(within(dialog).getByRole('switch'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(api.callsTo('PUT', '/api/Group/Update')).toHaveLength(1);
    });
    expect(api.callsTo('PUT', '/api/Group/Update')[0]?.body).toMatchObject({
      Id: 2,
      GroupName: 'River Town',
      Code: 'river',
      Watermark: false,
    });
  });
});

describe('a group’s logo', () => {
  beforeEach(async () => {
    setSessionCookies({ account: 'admin' });
    await changeLanguage('en-US');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('refuses a JPEG before sending it, and uploads a PNG for that group', async () => {
    const api = fakeApi({
      'GET /api/Group/FindByName': () => ({ data: [river], count: 1 }),
      'PUT /api/group/logo': () => ({ data: { Logo: '/uploads/group-logo/a.png' }, message: 'Saved' }),
    });
    const view = renderPage();
    await screen.findByText('River Town');
    const input = view.container.querySelector<HTMLInputElement>('input[type=file]');
    if (!input) throw new Error('no file input');
    await userEvent.upload(input, new File([new Uint8Array(10)], 'logo.jpg', { type: 'image/jpeg' }), { applyAccept: false });
    expect(await screen.findByText('Wrong image type: only png are supported')).toBeTruthy();
    expect(api.callsTo('PUT', '/api/group/logo')).toHaveLength(0);
    await userEvent.upload(input, new File([new Uint8Array(10)], 'logo.png', { type: 'image/png' }));
    await waitFor(() => {
      expect(api.callsTo('PUT', '/api/group/logo')).toHaveLength(1);
    });
    expect(api.callsTo('PUT', '/api/group/logo')[0]?.query.get('GroupId')).toBe('2');
  });
  it('deletes a group only once its code is typed again, saying what goes with it; never the platform’s own', async () => {
    const own = { ...river, Id: 7, GroupName: 'Platform', Code: 'platform' };
    const api = fakeApi({
      'GET /api/Group/FindByName': () => ({ data: [own, river], count: 2 }),
      'GET /api/group/2/contents': () => ({ data: { Users: 3, Devices: 12, Sites: 5, Clients: 2 } }),
      'DELETE /api/group/2': () => ({ data: null, message: 'Deleted' }),
    });
    renderPage();
    await screen.findByText('River Town');
    expect(screen.queryByRole('button', { name: 'Delete Platform' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Delete River Town' }));
    const dialog = await dialogTitled('Delete the group River Town?');
    expect(await within(dialog).findByText('12 devices, with their history, alarms and records')).toBeTruthy();
    expect(within(dialog).getByText('3 users (its administrator among them)')).toBeTruthy();
    expect(within(dialog).getByText('5 projects and stations')).toBeTruthy();
    const confirm = within(dialog).getByRole('button', { name: 'Delete the group' });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    const code = within(dialog).getByLabelText('Type the group code river to confirm');
    await userEvent.type(code, 'rive');
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    await userEvent.type(code, 'R');
    expect((confirm as HTMLButtonElement).disabled).toBe(false);
    await userEvent.click(confirm);
    await waitFor(() => {
      expect(api.callsTo('DELETE', '/api/group/2')).toHaveLength(1);
    });
    expect(api.callsTo('DELETE', '/api/group/2')[0]?.body).toEqual({ Code: 'riveR' });
    expect(await screen.findByText('The group River Town was deleted')).toBeTruthy();
    await waitFor(() => {
      expect(screen.queryByRole('dialog', { name: 'Delete the group River Town?' })).toBeNull();
    });
  });
});
