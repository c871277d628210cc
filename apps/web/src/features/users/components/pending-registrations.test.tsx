/** Registrations waiting: activated with one click, refused only after a question. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSessionCookies } from '../../../lib/cookies';
import { changeLanguage } from '../../../lib/i18n';
import '../../../lib/console-catalog';
import { fakeApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render';
import { PendingRegistrations } from './pending-registrations';

const applicant = {
  Id: 11,
  Account: 'newbie',
  UserName: 'New Operator',
  Email: '',
  Phone: '13800138000',
  UserType: 0,
  Remark: '',
  Status: 0,
  Valide: false,
  RoleName: '',
  CreatedAt: Date.UTC(2026, 10, 26, 8, 0, 0),
};

function renderPanel() {
  return renderRoutes(
    [
      {
        path: '/',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>
              <PendingRegistrations />
            </App>
          </ConfigProvider>
        ),
      },
    ],
    '/',
  );
}

describe('registrations waiting', () => {
  beforeEach(async () => {
    setSessionCookies({ account: 'admin' });
    await changeLanguage('en-US');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('asks for the inactive users and activates one', async () => {
    const api = fakeApi({
      'GET /api/user': () => ({ data: [applicant], count: 1 }),
      'PUT /api/user/status': () => ({ data: null, message: 'Saved' }),
    });
    renderPanel();
    expect(await screen.findByText('Registrations waiting (1)')).toBeTruthy();
    expect(api.callsTo('GET', '/api/user')[0]?.query.get('Status')).toBe('0');
    await userEvent.click(screen.getByRole('button', { name: 'Activate newbie' }));
    await waitFor(() => {
      expect(api.callsTo('PUT', '/api/user/status')[0]?.body).toEqual({ Id: 11, Status: 1 });
    });
  });

  it('refuses only after the question is confirmed, by deleting the registration', async () => {
    const api = fakeApi({
      'GET /api/user': () => ({ data: [applicant], count: 1 }),
      'DELETE /api/user/11': () => ({ data: null, message: 'Deleted' }),
    });
    renderPanel();
    await userEvent.click(await screen.findByRole('button', { name: 'Refuse newbie' }));
    const dialog = await waitFor(() => {
      const found = screen
        .queryAllByRole('dialog')
        .find((d) => within(d).queryAllByText('Refuse the registration of newbie?').length > 0);
      if (!found) throw new Error('no question');
      return found;
    });
    expect(api.callsTo('DELETE', '/api/user/11')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Refuse' }));
    await waitFor(() => {
      expect(api.callsTo('DELETE', '/api/user/11')).toHaveLength(1);
    });
  });

  it('shows nothing while no one waits', async () => {
    const api = fakeApi({ 'GET /api/user': () => ({ data: [], count: 0 }) });
    const view = renderPanel();
    await waitFor(() => {
      expect(api.callsTo('GET', '/api/user')).toHaveLength(1);
    });
    expect(view.container.textContent).toBe('');
  });
});
