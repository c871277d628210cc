/**
 * The audit trail as an administrator meets it: entries with their action and kind in the UI
 * language, the filters a History link puts in the address sent with the list and the export,
 * and an entry's record before and after, field by field — changed fields first and marked,
 * secrets masked, the others on demand — on a wide screen and on a phone.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuditEntryDetailDto, AuditEntryDto } from '@sluice/shared/audit.schema';
import { setSessionCookies } from '../../../lib/cookies';
import { changeLanguage } from '../../../lib/i18n';
import { fakeApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render';
import { AuditHistoryButton } from '../../../components/audit-history-button';
import { AuditPage } from './audit-page';
import { screenWidth } from '../../../test/screen-width';

const roleChange: AuditEntryDto = {
  Id: 41,
  At: Date.UTC(2026, 10, 28, 2, 3, 4),
  GroupId: 7,
  GroupName: 'Sluice',
  UserId: 1,
  Account: 'admin',
  UserName: 'Admin',
  Address: '10.0.0.8',
  Action: 'update',
  ResourceKind: 'user',
  ResourceId: '5',
  ResourceName: 'patrol',
  OwnerKind: 'user',
  OwnerId: '5',
  Route: 'POST /api/UserRole/SaveUserRole',
  Changed: ['Roles', 'Password'],
};
const detail: AuditEntryDetailDto = {
  ...roleChange,
  Before: { Id: 5, Account: 'patrol', Roles: ['Operator'], Password: '••••••', Phone: '13800000000' },
  After: { Id: 5, Account: 'patrol', Roles: ['Engineers'], Password: '••••••', Phone: '13800000000' },
};
const created: AuditEntryDetailDto = {
  ...roleChange,
  Id: 42,
  Action: 'create',
  ResourceKind: 'client',
  ResourceId: '3',
  ResourceName: 'Water Bureau',
  Changed: ['Id', 'ClientName'],
  Before: null,
  After: { Id: 3, ClientName: 'Water Bureau' },
};

function installApi() {
  return fakeApi({
    'GET /api/AuditLog': () => ({ data: [roleChange, created], count: 2 }),
    'GET /api/AuditLog/41': () => ({ data: detail }),
    'GET /api/AuditLog/42': () => ({ data: created }),
    'GET /api/AuditLog/Export': () => ({ data: null }),
  });
}

function renderPage(at = '/sys/audit') {
  return renderRoutes(
    [
      {
        path: '/sys/audit',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>
              <AuditPage />
            </App>
          </ConfigProvider>
        ),
      },
    ],
    at,
  );
}

/** The table row (or, on a phone, the card) of an entry. */
async function rowOf(text: string, holder = 'tr'): Promise<HTMLElement> {
  const cell = await screen.findByText(text);
  const row = cell.closest<HTMLElement>(holder);
  if (!row) throw new Error(`no row of ${text}`);
  return row;
}

describe('the audit trail screen', () => {
  beforeEach(() => {
    setSessionCookies({ account: 'admin' });
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    await changeLanguage('en-US');
  });

  it('lists entries in the UI language and sends the filters of a History link with the list and the export', async () => {
    await changeLanguage('zh-CN');
    const api = installApi();
    Object.assign(URL, { createObjectURL: () => 'blob:audit', revokeObjectURL: () => undefined });
    renderPage('/sys/audit?ResourceKind=user&ResourceId=5');
    const row = await rowOf('patrol #5');
    expect(row.textContent).toContain('修改');
    expect(row.textContent).toContain('用户');
    expect(row.textContent).toContain('10.0.0.8');
    const list = api.callsTo('GET', '/api/AuditLog')[0];
    expect(list?.query.get('ResourceKind')).toBe('user');
    expect(list?.query.get('ResourceId')).toBe('5');
    expect(list?.query.get('OrderBy')).toBe('At');
    expect(list?.query.get('OrderType')).toBe('desc');

    await userEvent.click(screen.getByRole('button', { name: /导出 Excel/ }));
    await waitFor(() => {
      expect(api.callsTo('GET', '/api/AuditLog/Export')).toHaveLength(1);
    });
    const exported = api.callsTo('GET', '/api/AuditLog/Export')[0];
    expect(exported?.query.get('Format')).toBe('xlsx');
    expect(exported?.query.get('ResourceKind')).toBe('user');
    expect(exported?.query.get('ResourceId')).toBe('5');
  });

  it('filters by account as typed and by action as chosen, the two together', async () => {
    const api = installApi();
    renderPage();
    await rowOf('patrol #5');
    await userEvent.type(screen.getByRole('textbox', { name: 'Account' }), 'admin');
    await waitFor(() => {
      expect(api.callsTo('GET', '/api/AuditLog').some((call) => call.query.get('Account') === 'admin')).toBe(true);
    });
    await userEvent.click(screen.getByRole('combobox', { name: 'Action' }));
    await userEvent.click(await screen.findByTitle('Deleted'));
    await waitFor(() => {
      const last = api.callsTo('GET', '/api/AuditLog').at(-1);
      expect(last?.query.get('Action')).toBe('delete');
      expect(last?.query.get('Account')).toBe('admin');
    });
  });

  it('shows an entry’s record before and after: changed fields marked, secrets masked, the rest on demand', async () => {
    installApi();
    renderPage();
    const row = await rowOf('patrol #5');
    await userEvent.click(within(row).getByRole('button', { name: 'Details of Changed User patrol' }));
    const drawer = await screen.findByRole('dialog');
    const roles = await within(drawer).findByText('Roles');
    const line = roles.closest('tr');
    if (!line) throw new Error('no line of Roles');
    expect(within(line).getByText('Operator')).toBeTruthy();
    expect(within(line).getByText('Engineers')).toBeTruthy();
    expect(within(line).getByText('changed')).toBeTruthy();
    const password = within(drawer).getByText('Password').closest('tr');
    expect(password?.textContent).toContain('secret');
    expect(password?.textContent).not.toContain('Patrol');
    // The unchanged fields come on demand.
    expect(within(drawer).queryByText('Phone')).toBeNull();
    await userEvent.click(within(drawer).getByRole('switch'));
    expect(await within(drawer).findByText('Phone')).toBeTruthy();
    expect(within(drawer).getByText('POST /api/UserRole/SaveUserRole')).toBeTruthy();
  });

  it('says a create had no record before, and lays fields out as cards on a phone', async () => {
    screenWidth(390);
    installApi();
    renderPage();
    const card = await rowOf('Water Bureau #3', '.ant-card');
    await userEvent.click(within(card).getByRole('button', { name: /Details of Created Client/ }));
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('Created: there was no record before.')).toBeTruthy();
    const name = within(drawer).getByText('ClientName').closest('.ant-card');
    expect(name?.textContent).toContain('After: Water Bureau');
    expect(name?.textContent).not.toContain('Before');
  });
});

describe('a record’s History button', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const renderButton = () =>
    renderRoutes(
      [
        { path: '/device', element: <AuditHistoryButton kind="device" id="SL0001" name="Lift pump" /> },
        { path: '/sys/audit', element: <p>audit list</p> },
      ],
      '/device',
    );

  it('opens the audit trail filtered to the record for those who may read it', async () => {
    fakeApi({});
    const { router } = renderButton();
    await userEvent.click(await screen.findByRole('button', { name: 'History of Lift pump' }));
    expect(await screen.findByText('audit list')).toBeTruthy();
    expect(router.state.location.pathname + router.state.location.search).toBe(
      '/sys/audit?ResourceKind=device&ResourceId=SL0001',
    );
  });

  it('is not there for a user without audit.view, and is for one whose role holds it', async () => {
    const user = (operates: string[]) => ({
      data: { Id: 2, Account: 'op', UserName: 'Op', GroupId: 7, IsAdmin: false, Roles: [], Operates: operates, Config: {} },
    });
    const api = fakeApi({ 'GET /api/user/myinfo': () => user(['device.view']) });
    const first = renderButton();
    await waitFor(() => {
      expect(api.callsTo('GET', '/api/user/myinfo')).toHaveLength(1);
    });
    // The user is known (the query settled): still no button.
    await waitFor(() => {
      expect(first.container.isConnected).toBe(true);
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.queryByRole('button', { name: 'History of Lift pump' })).toBeNull();
    first.unmount();
    fakeApi({ 'GET /api/user/myinfo': () => user(['device.view', 'audit.view']) });
    renderButton();
    expect(await screen.findByRole('button', { name: 'History of Lift pump' })).toBeTruthy();
  });
});
