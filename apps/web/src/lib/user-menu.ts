/**
 * The signed-in user's menu (GET /api/SysMenu/GetUserMenu, spec §2): fetched after sign-in,
 * cached in session storage for the session, and refreshed after writes like every GET.
 * Sub-menus (GET /api/SysMenu/GetSubMenu?menuId) are fetched when a navigation menu opens.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MenuDto } from '@sluice/shared/menu.schema';
import { api } from './api-client';

export const MENU_STORAGE_KEY = 'sluice.menu';
/** Set for the session when the user's menu came back empty (spec §4: an empty menu sets a first-time flag). */
export const FIRST_TIME_STORAGE_KEY = 'sluice.firstTime';

/** Whether this session's menu came back empty: a user not given any screen yet. */
export function isFirstTime(): boolean {
  try {
    return sessionStorage.getItem(FIRST_TIME_STORAGE_KEY) === '1';
  } catch {
    return false;
  }
}

export const userMenuKeys = {
  all: ['session', 'menu'] as const,
  mine: () => [...userMenuKeys.all, 'mine'] as const,
  sub: (menuId: number) => [...userMenuKeys.all, 'sub', menuId] as const,
};

function asMenus(data: unknown): MenuDto[] {
  return Array.isArray(data) ? (data as MenuDto[]) : [];
}

export function readStoredMenu(): MenuDto[] | undefined {
  try {
    const raw = sessionStorage.getItem(MENU_STORAGE_KEY);
    if (!raw) return undefined;
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? asMenus(parsed) : undefined;
  } catch {
    return undefined;
  }
}

function storeMenu(menus: MenuDto[]): void {
  try {
    sessionStorage.setItem(MENU_STORAGE_KEY, JSON.stringify(menus));
    if (menus.length === 0) sessionStorage.setItem(FIRST_TIME_STORAGE_KEY, '1');
    else sessionStorage.removeItem(FIRST_TIME_STORAGE_KEY);
  } catch {
    // storage full or blocked: the query cache still holds the menu
  }
}

export async function fetchUserMenu(signal?: AbortSignal): Promise<MenuDto[]> {
  const { data } = await api.get<MenuDto[]>('/SysMenu/GetUserMenu', undefined, { signal });
  const menus = asMenus(data);
  storeMenu(menus);
  return menus;
}

export async function fetchSubMenu(menuId: number, signal?: AbortSignal): Promise<MenuDto[]> {
  const { data } = await api.get<MenuDto[]>('/SysMenu/GetSubMenu', { menuId }, { signal });
  return asMenus(data);
}

/**
 * Session storage is this query's cache (not IndexedDB): a reload within the session shows the
 * menu at once; a new sign-in clears session storage and fetches it again.
 */
export const userMenuQueryOptions = () =>
  queryOptions({
    queryKey: userMenuKeys.mine(),
    queryFn: ({ signal }) => fetchUserMenu(signal),
    initialData: readStoredMenu,
    staleTime: Infinity,
    meta: { persist: false },
  });

export const subMenuQueryOptions = (menuId: number) =>
  queryOptions({
    queryKey: userMenuKeys.sub(menuId),
    queryFn: ({ signal }) => fetchSubMenu(menuId, signal),
    staleTime: Infinity,
    // Fetched again on each page load, so it always agrees with the freshly fetched user menu.
    meta: { persist: false },
  });

export function useUserMenu() {
  return useQuery(userMenuQueryOptions());
}
