/** The user's menu in session storage, and the first-time flag an empty menu sets (spec §4). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setSessionCookies } from './cookies';
import { fakeApi } from '../test/fake-api';
import { linkMenu } from '../test/menus';
import { fetchUserMenu, isFirstTime, MENU_STORAGE_KEY } from './user-menu';

describe('the user menu', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('sets the first-time flag when the menu is empty, and clears it once there is a menu', async () => {
    setSessionCookies({ account: 'newcomer' });
    let menus: unknown[] = [];
    fakeApi({ 'GET /api/SysMenu/GetUserMenu': () => ({ data: menus }) });
    expect(await fetchUserMenu()).toEqual([]);
    expect(isFirstTime()).toBe(true);
    expect(sessionStorage.getItem(MENU_STORAGE_KEY)).toBe('[]');

    menus = [linkMenu(1, 'Home', '/common/home', 'home')];
    expect(await fetchUserMenu()).toHaveLength(1);
    expect(isFirstTime()).toBe(false);
  });
});
