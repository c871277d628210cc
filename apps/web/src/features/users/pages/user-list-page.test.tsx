/**
 * The user list as an administrator meets it: user types and seeded roles by name in the UI
 * language, roles picked in the add-user dialog itself, and disabling a user asked first.
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
import { UserListPage } from './user-list-page';

const patrol = {
  Id: 5,
  Account: 'patrol',
  UserName: 'Li Patrol',
  Email: '',
  Phone: '',
  UserType: 1,
  Remark: '',
  Status: 1,
  Valide: true,
  RoleName: 'Operator',
  CreatedAt: Date.UTC(2026, 10, 23, 9, 49, 12),
};
const roles = [
  { Id: 1, Name: 'Administrator', IsAdmin: true, Admin: '是', ModuleId: null },
  { Id: 2, Name: 'Operator', IsAdmin: false, Admin: '否', ModuleId: null },
  { Id: 3, Name: '夜班 Night shift', IsAdmin: false, Admin: '否', ModuleId: null },
];

function renderPage() {
  return renderRoutes(
    [
      {
        path: '/user/list',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>
              <UserListPage />
            </App>
          </ConfigProvider>
        ),
      },
    ],
    '/user/list',
  );
}

/** The open dialog with this title (under jsdom Ant Design's dialogs are found by their title's text). */
async function dialogTitled(title: string): Promise<HTMLElement> {
  return waitFor(() => {
    const found = screen.queryAllByRole('dialog').find((dialog) => within(dialog).queryAllByText(title).length > 0);
    if (!found) throw new Error(`no open dialog titled ${title}`);
    return found;
  });
}

/** The row of a user (role queries over the whole table are slow under jsdom). */
async function rowOf(text: string): Promise<HTMLElement> {
  const cell = await screen.findByText(text);
  const row = cell.closest('tr');
  if (!row) throw new Error(`no row of ${text}`);
  return row;
}

function installApi() {
  return fakeApi({
    'GET /api/user': () => ({ data: [patrol], count: 1 }),
    'GET /api/group/7/Role/AllRoles': () => ({ data: roles, count: roles.length }),
    'POST /api/user/adduser': () => ({ status: 201, data: { Id: 9 }, message: 'Created' }),
    'PUT /api/user/status': () => ({ data: null, message: 'Saved' }),
  });
}

describe('the user list', () => {
  beforeEach(() => {
    setSessionCookies({ account: 'admin' });
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    await changeLanguage('en-US');
  });

  it('names user types and the seeded roles in the UI language, and shows the full creation date', async () => {
    await changeLanguage('zh-CN');
    installApi();
    renderPage();
    const row = await rowOf('Li Patrol');
    expect(within(row).getByText('运维人员', { selector: '.ant-tag' })).toBeTruthy();
    expect(row.textContent).toContain('管理员账号'); // the user type (1) by name, not "1"
    expect(row.textContent).toMatch(/2026-11-23 \d\d:49:12/);
  });

  it('picks roles in the add-user dialog and sends them with the new user', async () => {
    await changeLanguage('en-US');
    const api = installApi();
    renderPage();
    await rowOf('Li Patrol');
    await userEvent.click(screen.getByRole('button', { name: 'Add user' }));
    const dialog = await dialogTitled('Add user');
    await userEvent.type(within(dialog).getByLabelText('Account'), 'wang');
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Wang');
    await userEvent.type(within(dialog).getByLabelText('Password'), 'Patrol123');
    await userEvent.type(within(dialog).getByLabelText('Confirm password'), 'Patrol123');
    await userEvent.click(within(dialog).getByText('Administrator account'));
    await userEvent.click(within(dialog).getByLabelText('Roles'));
    await userEvent.click(await screen.findByTitle('夜班 Night shift'));
    await userEvent.click(screen.getByTitle('Operator'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(api.callsTo('POST', '/api/user/adduser')).toHaveLength(1);
    });
    expect(api.callsTo('POST', '/api/user/adduser')[0]?.body).toMatchObject({ Account: 'wang', UserType: 1, RoleIds: [3, 2] });
  });

  it('asks before disabling a user, and disables only on confirmation', async () => {
    await changeLanguage('en-US');
    const api = installApi();
    renderPage();
    const row = await rowOf('Li Patrol');
    await userEvent.click(within(row).getByRole('switch', { name: 'Let Li Patrol sign in' }));
    const confirm = await dialogTitled('Stop Li Patrol signing in?');
    expect(api.callsTo('PUT', '/api/user/status')).toHaveLength(0);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('PUT', '/api/user/status')).toHaveLength(0);
    await userEvent.click(within(row).getByRole('switch', { name: 'Let Li Patrol sign in' }));
    await userEvent.click(within(await dialogTitled('Stop Li Patrol signing in?')).getByRole('button', { name: 'Disable' }));
    await waitFor(() => {
      expect(api.callsTo('PUT', '/api/user/status')).toHaveLength(1);
    });
    expect(api.callsTo('PUT', '/api/user/status')[0]?.body).toEqual({ Id: 5, Status: 2 });
  });
});
