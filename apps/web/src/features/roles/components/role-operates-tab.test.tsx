/** A role's operates are ticked, then saved with one button, as its menus and projects are. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSessionCookies } from '../../../lib/cookies';
import { changeLanguage } from '../../../lib/i18n';
import '../../../lib/console-catalog';
import { fakeApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render';
import { RoleOperatesTab } from './role-operates-tab';

const role = { Id: 3, Name: 'Night shift', IsAdmin: false, Admin: '否' as const, ModuleId: null };

describe("a role's operates", () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    await changeLanguage('en-US');
  });

  it('sends nothing on a tick, and the ticked changes on Save', async () => {
    setSessionCookies({ account: 'admin' });
    await changeLanguage('en-US');
    const api = fakeApi({
      'GET /api/Module': () => [{ Id: 1, ModuleName: 'Clients', Code: 'clients' }],
      'GET /api/7/ModuleOperate': () => [
        { Id: 11, ModuleId: 1, Name: 'View clients', Code: 'client.view' },
        { Id: 12, ModuleId: 1, Name: 'Manage clients', Code: 'client.manage' },
      ],
      'GET /api/RoleModuleOperate/3': () => [{ Id: 12, ModuleId: 1, Name: 'Manage clients', Code: 'client.manage' }],
      'POST /api/RoleModuleOperate': () => ({ data: null }),
      'DELETE /api/RoleModuleOperate/3/12': () => ({ data: null }),
    });
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <ConfigProvider theme={{ token: { motion: false } }}>
              <App>
                <RoleOperatesTab role={role} readOnly={false} />
              </App>
            </ConfigProvider>
          ),
        },
      ],
      '/',
    );
    const save = await screen.findByRole('button', { name: 'Save operates' });
    expect(save).toHaveProperty('disabled', true);
    await userEvent.click(screen.getByRole('checkbox', { name: /View clients/ }));
    await userEvent.click(screen.getByRole('checkbox', { name: /Manage clients/ }));
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
    expect(api.calls.filter((c) => c.method !== 'GET')).toHaveLength(0);
    await userEvent.click(save);
    await waitFor(() => {
      expect(api.calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path}`)).toEqual([
        'POST /api/RoleModuleOperate',
        'DELETE /api/RoleModuleOperate/3/12',
      ]);
    });
    expect(api.callsTo('POST', '/api/RoleModuleOperate')[0]?.body).toMatchObject({ RoleId: 3, OperateId: 11 });
  });
});
