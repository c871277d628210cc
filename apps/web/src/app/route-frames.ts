/**
 * The lazy frames around the pages: every signed-in route's (the menu check, then the page) and
 * the run-time menu routes'. Shared by the router and the signed-in area, which preloads them.
 */
import { lazyComponent } from '../lib/lazy-page';

export const RoutePage = lazyComponent(() => import('./shell/route-page').then((m) => m.RoutePage));
export const MenuRoutePage = lazyComponent(() => import('./shell/menu-route-page').then((m) => m.MenuRoutePage));
