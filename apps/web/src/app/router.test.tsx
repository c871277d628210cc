import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSessionCookies } from '../lib/cookies';
import { renderRoutes } from '../test/render';
import { routeObjects } from './router';
import { urlOf } from '../test/fetch';

const fetchMock = vi.fn<typeof fetch>();

function signedInAs(user: { IsAdmin: boolean }) {
  setSessionCookies({ token: 'tok', account: 'someone' });
  fetchMock.mockImplementation((input) => {
    if (urlOf(input) === '/api/user/myinfo') {
      const data = {
        Id: 2,
        Account: 'someone',
        UserName: 'Zhang',
        GroupName: 'Demo Water',
        IsAdmin: user.IsAdmin,
        Roles: [],
        Picture: '',
        Status: 1,
        Config: { Theme: 'light' },
      };
      return Promise.resolve(new Response(JSON.stringify({ success: true, message: 'OK', data })));
    }
    return Promise.resolve(new Response(JSON.stringify({ success: true, message: 'OK', data: null })));
  });
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const path = (router: { state: { location: { pathname: string; search: string } } }) =>
  router.state.location.pathname + router.state.location.search;

describe('routes (spec §2)', () => {
  it("sends '/' to the sign-in page", async () => {
    const { router } = renderRoutes(routeObjects, '/');
    await waitFor(() => {
      expect(path(router)).toBe('/login');
    });
    expect(await screen.findByLabelText('Account')).toBeTruthy();
  });

  it('shows the not-found screen for an unknown path without sign-in', async () => {
    renderRoutes(routeObjects, '/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Sorry, this page does not exist' })).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it.each(['/sys', '/sys/', '/jurisdiction', '/user', '/device/'])('redirects the empty child path %s to /notFount', async (start) => {
    const { router } = renderRoutes(routeObjects, start);
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/notFount');
    });
  });

  it('asks for sign-in with the path to return to', async () => {
    const { router } = renderRoutes(routeObjects, '/user/list?page=2');
    await waitFor(() => {
      expect(path(router)).toBe('/login?redirect=%2Fuser%2Flist%3Fpage%3D2');
    });
  });

  it("sends '/common' to home, which needs a session", async () => {
    const { router } = renderRoutes(routeObjects, '/common');
    await waitFor(() => {
      expect(path(router)).toBe('/login?redirect=%2Fcommon%2Fhome');
    });
  });

  it('shows an unbuilt screen as a titled placeholder to an administrator', async () => {
    signedInAs({ IsAdmin: true });
    renderRoutes(routeObjects, '/sys/menu');
    expect(await screen.findByRole('heading', { name: 'Menu set — coming soon' }, { timeout: 5000 })).toBeTruthy();
    expect(document.title).toBe('Menu set - Sluice');
    expect(screen.getByRole('button', { name: 'User menu' })).toBeTruthy();
    // administrator groups are in the side menu
    const nav = within(screen.getByRole('navigation', { name: 'Main navigation' }));
    expect(nav.getByText('System Configure')).toBeTruthy();
    expect(nav.getByText('User Manager')).toBeTruthy();
  });

  it('switches to the dark theme from the user menu and saves it on the server', async () => {
    signedInAs({ IsAdmin: true });
    renderRoutes(routeObjects, '/common/user/info');
    await userEvent.click(await screen.findByRole('button', { name: 'User menu' }, { timeout: 5000 }));
    expect(screen.getByRole('switch', { name: 'Dark theme' }).getAttribute('aria-checked')).toBe('false');
    await userEvent.click(screen.getByRole('menuitem', { name: /Dark theme/ }));
    await waitFor(() => {
      expect(document.documentElement.dataset.theme).toBe('dark');
    });
    expect(localStorage.getItem('sluice.theme')).toBe('dark');
    const saved = fetchMock.mock.calls.find(([input, init]) => urlOf(input) === '/api/user/config' && init?.method === 'PUT');
    expect(saved?.[1]?.body).toBe('{"Theme":"dark"}');
  });

  it('keeps administrator screens and menus from other users', async () => {
    signedInAs({ IsAdmin: false });
    renderRoutes(routeObjects, '/sys/menu');
    expect(await screen.findByText('No permission', undefined, { timeout: 5000 })).toBeTruthy();
    const nav = within(screen.getByRole('navigation', { name: 'Main navigation' }));
    expect(nav.queryByText('System Configure')).toBeNull();
    expect(nav.queryByText('User Manager')).toBeNull();
    expect(nav.getByText('Stations')).toBeTruthy();
  });

  it('redirects a signed-in visitor of /login to where they were going', async () => {
    signedInAs({ IsAdmin: true });
    const { router } = renderRoutes(routeObjects, '/login?redirect=%2Fcommon%2Fapp%2Fstation');
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/common/app/station');
    });
    expect(await screen.findByRole('heading', { name: 'All stations', level: 1 }, { timeout: 5000 })).toBeTruthy();
  });
});
