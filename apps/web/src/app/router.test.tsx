import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSessionCookies } from '../lib/cookies';
import { renderRoutes } from '../test/render';
import { routeObjects } from './router';
import { urlOf } from '../test/fetch';
import { linkMenu, seededMenus } from '../test/menus';
import type { MenuDto } from '@sluice/shared/menu.schema';

const fetchMock = vi.fn<typeof fetch>();

function signedInAs(user: { IsAdmin: boolean }, options: { menus?: MenuDto[]; subMenuHeld?: Promise<void> } = {}) {
  setSessionCookies({ account: 'someone' });
  const menus = options.menus ?? seededMenus({ operatorOnly: !user.IsAdmin });
  fetchMock.mockImplementation(async (input) => {
    const url = new URL(urlOf(input), 'http://localhost');
    if (url.pathname === '/api/user/myinfo') {
      const data = {
        Id: 2,
        Account: 'someone',
        UserName: 'Zhang',
        GroupId: 1,
        GroupName: 'Demo Water',
        IsAdmin: user.IsAdmin,
        Roles: [],
        Operates: user.IsAdmin ? [] : ['client.view', 'device.control', 'device.view', 'project.view'],
        Picture: '',
        Status: 1,
        Config: { Theme: 'light' },
      };
      return new Response(JSON.stringify({ success: true, message: 'OK', data }));
    }
    if (url.pathname === '/api/SysMenu/GetUserMenu')
      return new Response(JSON.stringify({ success: true, message: 'OK', data: menus }));
    if (url.pathname === '/api/SysMenu/GetSubMenu') {
      await options.subMenuHeld;
      const parent = Number(url.searchParams.get('menuId'));
      const data = menus.filter((menu) => menu.ParentId === parent);
      return new Response(JSON.stringify({ success: true, message: 'OK', data }));
    }
    return new Response(JSON.stringify({ success: true, message: 'OK', data: null }));
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

  it.each(['/sys', '/sys/', '/jurisdiction', '/user', '/device/'])(
    'redirects the empty child path %s to /notFount',
    async (start) => {
      const { router } = renderRoutes(routeObjects, start);
      await waitFor(() => {
        expect(router.state.location.pathname).toBe('/notFount');
      });
    },
  );

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

  it('opens box data from the System Configure menu for an administrator', async () => {
    // Box data is listed in one menu only (spec §2): the seeded System Configure menu.
    signedInAs({ IsAdmin: true });
    renderRoutes(routeObjects, '/sys/boxData');
    expect(await screen.findByRole('heading', { name: 'Box data', level: 1 })).toBeTruthy();
    expect(document.title).toBe('Box data - Sluice');
    expect(screen.getByRole('button', { name: 'User menu' })).toBeTruthy();
    // administrator groups are in the side menu
    const nav = within(screen.getByRole('navigation', { name: 'Main navigation' }));
    expect(nav.getByText('System Configure')).toBeTruthy();
    expect(nav.getByText('User Manager')).toBeTruthy();
  });

  it('switches to the dark theme from the user menu and saves it on the server', async () => {
    signedInAs({ IsAdmin: true });
    renderRoutes(routeObjects, '/common/user/info');
    await userEvent.click(await screen.findByRole('button', { name: 'User menu' }));
    expect(screen.getByRole('switch', { name: 'Dark theme' }).getAttribute('aria-checked')).toBe('false');
    await userEvent.click(screen.getByRole('menuitem', { name: /Dark theme/ }));
    await waitFor(() => {
      expect(document.documentElement.dataset.theme).toBe('dark');
    });
    expect(localStorage.getItem('sluice.theme')).toBe('dark');
    const saved = fetchMock.mock.calls.find(([input, init]) => urlOf(input) === '/api/user/config' && init?.method === 'PUT');
    expect(saved?.[1]?.body).toBe('{"Theme":"dark"}');
  });

  it('shows a screen the user’s menu does not lead to as not permitted, and only their menu', async () => {
    signedInAs({ IsAdmin: false });
    renderRoutes(routeObjects, '/sys/menu');
    expect(await screen.findByText('No permission')).toBeTruthy();
    const nav = within(screen.getByRole('navigation', { name: 'Main navigation' }));
    expect(nav.queryByText('System Configure')).toBeNull();
    expect(nav.queryByText('User Manager')).toBeNull();
    expect(nav.getByText('Stations')).toBeTruthy();
    expect(nav.getByText('Notice Manager')).toBeTruthy();
    expect(JSON.parse(sessionStorage.getItem('sluice.menu') ?? '[]')).toHaveLength(seededMenus({ operatorOnly: true }).length);
  });

  it('lets anyone open home and their own information, whatever the menu', async () => {
    signedInAs({ IsAdmin: false }, { menus: [] });
    renderRoutes(routeObjects, '/common/user/info');
    expect(await screen.findByRole('heading', { name: 'User information' })).toBeTruthy();
  });

  it('opens a navigation menu with a loading placeholder until its sub-menu arrives', async () => {
    let release: (() => void) | undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    signedInAs({ IsAdmin: true }, { subMenuHeld: held });
    renderRoutes(routeObjects, '/common/home');
    const nav = within(await screen.findByRole('navigation', { name: 'Main navigation' }));
    await userEvent.click(nav.getByText('User Manager'));
    expect(await nav.findByText('Sub menu loading…')).toBeTruthy();
    release?.();
    expect(await nav.findByRole('link', { name: 'Client list' })).toBeTruthy();
    expect(nav.queryByText('Sub menu loading…')).toBeNull();
  });

  it('says so when a navigation menu has no sub-menu', async () => {
    signedInAs(
      { IsAdmin: true },
      { menus: [linkMenu(1, 'Home', '/common/home', 'home'), { ...linkMenu(2, 'Reports', '', ''), Router: '', MenuType: 0 }] },
    );
    renderRoutes(routeObjects, '/common/home');
    const nav = within(await screen.findByRole('navigation', { name: 'Main navigation' }));
    await userEvent.click(nav.getByText('Reports'));
    expect(await nav.findByText('No sub menu')).toBeTruthy();
  });

  it('routes a menu item’s own path to the page its componentUrl names', async () => {
    signedInAs(
      { IsAdmin: false },
      { menus: [linkMenu(1, 'Home', '/common/home', 'home'), linkMenu(2, 'My account', '/me', 'common/user/info')] },
    );
    renderRoutes(routeObjects, '/me');
    expect(await screen.findByRole('heading', { name: 'User information' })).toBeTruthy();
    expect(document.title).toBe('My account - Sluice');
  });

  it('shows a translated placeholder for a menu item naming an unknown component', async () => {
    signedInAs({ IsAdmin: false }, { menus: [linkMenu(1, 'Reports', '/reports/daily', 'reports/daily')] });
    renderRoutes(routeObjects, '/reports/daily');
    expect(await screen.findByRole('heading', { name: '“Reports” is not available in this console' })).toBeTruthy();
    expect(screen.getByText(/opens the component “reports\/daily”/)).toBeTruthy();
  });

  it('shows not-found inside the console for a path no menu leads to', async () => {
    signedInAs({ IsAdmin: true });
    renderRoutes(routeObjects, '/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Sorry, this page does not exist' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'User menu' })).toBeTruthy();
  });

  it('redirects a signed-in visitor of /login to where they were going', async () => {
    signedInAs({ IsAdmin: true });
    const { router } = renderRoutes(routeObjects, '/login?redirect=%2Fcommon%2Fapp%2Fstation');
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/common/app/station');
    });
    expect(await screen.findByRole('heading', { name: 'All stations', level: 1 })).toBeTruthy();
  });
});
