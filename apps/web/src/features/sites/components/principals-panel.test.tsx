import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSessionCookies } from '../../../lib/cookies';
import { changeLanguage } from '../../../lib/i18n';
import { fakeApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render';
import { AffiliatesPanel } from './affiliates-panel';
import { PrincipalsPanel } from './principals-panel';

const PATH = '/api/station/5/ProjectPrincipals';

beforeEach(async () => {
  setSessionCookies({ account: 'admin' });
  await changeLanguage('en-US');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderPanel(panel: React.ReactNode) {
  renderRoutes(
    [
      {
        path: '/',
        element: (
          <ConfigProvider theme={{ token: { motion: false } }}>
            <App>{panel}</App>
          </ConfigProvider>
        ),
      },
    ],
    '/',
  );
}

describe('the people in charge', () => {
  it('lists them with a call link, adds one, edits one and deletes one after asking', async () => {
    let people = [{ Id: 1, Name: 'Wang Fang', Phone: '13800000001' }];
    const api = fakeApi({
      [`GET ${PATH}`]: () => people,
      [`POST ${PATH}`]: (call) => {
        const body = call.body as { Name: string; Phone: string };
        people = [...people, { Id: 2, ...body }];
        return { data: { Id: 2, ...body } };
      },
      [`PUT ${PATH}/1`]: (call) => {
        const body = call.body as { Name: string; Phone: string };
        people = people.map((p) => (p.Id === 1 ? { ...body, Id: 1 } : p));
        return { data: { ...body, Id: 1 } };
      },
      [`DELETE ${PATH}/2`]: () => {
        people = people.filter((p) => p.Id !== 2);
        return { data: null };
      },
    });
    renderPanel(<PrincipalsPanel kind="station" id={5} />);
    expect(await screen.findByText('Wang Fang')).toBeTruthy();
    expect(screen.getByRole('link', { name: /13800000001/ }).getAttribute('href')).toBe('tel:13800000001');

    await userEvent.click(await screen.findByRole('button', { name: /Add a person in charge/ }));
    await userEvent.type(screen.getByLabelText('Name'), 'Li Lei');
    await userEvent.type(screen.getByLabelText('Mobile'), '13900000002');
    await userEvent.click(screen.getByRole('button', { name: /Save/ }));
    expect(await screen.findByText('Li Lei')).toBeTruthy();
    expect(api.callsTo('POST', PATH)[0]?.body).toEqual({ Name: 'Li Lei', Phone: '13900000002' });

    await userEvent.click(screen.getByRole('button', { name: 'Edit Wang Fang' }));
    const name = screen.getByLabelText<HTMLInputElement>('Name');
    expect(name.value).toBe('Wang Fang');
    await userEvent.clear(name);
    await userEvent.type(name, 'Wang Min');
    await userEvent.click(screen.getByRole('button', { name: /Save/ }));
    expect(await screen.findByText('Wang Min')).toBeTruthy();
    expect(api.callsTo('PUT', `${PATH}/1`)[0]?.body).toMatchObject({ Name: 'Wang Min', Phone: '13800000001', Id: 1 });

    await userEvent.click(screen.getByRole('button', { name: 'Delete Li Lei' }));
    const confirm = await screen.findByRole('tooltip');
    expect(within(confirm).getByText('Delete Li Lei')).toBeTruthy();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => {
      expect(screen.queryByText('Li Lei')).toBeNull();
    });
    expect(api.callsTo('DELETE', `${PATH}/2`)).toHaveLength(1);
  });

  it("puts the server's field error on its field and keeps the form open", async () => {
    fakeApi({
      [`GET ${PATH}`]: () => [],
      [`POST ${PATH}`]: () => ({
        status: 400,
        message: 'Invalid request',
        data: { errors: [{ field: 'phone', message: 'This number is already in charge here' }] },
      }),
    });
    renderPanel(<PrincipalsPanel kind="station" id={5} />);
    expect(await screen.findByText('Nobody in charge yet')).toBeTruthy();
    await userEvent.click(await screen.findByRole('button', { name: /Add a person in charge/ }));
    await userEvent.type(screen.getByLabelText('Name'), 'Li Lei');
    await userEvent.type(screen.getByLabelText('Mobile'), '13900000002');
    await userEvent.click(screen.getByRole('button', { name: /Save/ }));
    expect(await screen.findByText('This number is already in charge here')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Name').value).toBe('Li Lei');
  });

  it('shows no add, edit or delete to a user who may not manage projects', async () => {
    fakeApi({
      'GET /api/user/myinfo': () => ({
        data: {
          Id: 2,
          Account: 'viewer',
          UserName: 'Viewer',
          GroupId: 7,
          IsAdmin: false,
          Roles: [],
          Operates: [],
          Config: { Theme: 'light' },
        },
      }),
      'GET /api/ProjectAffiliate': () => [{ Id: 3, ProjectId: 5, AffiliateName: 'Capacity', AffiliateValue: '' }],
    });
    renderPanel(<AffiliatesPanel projectId={5} />);
    expect(await screen.findByText('Capacity')).toBeTruthy();
    expect(screen.getByText('—')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Add a fact/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit Capacity' })).toBeNull();
  });
});
