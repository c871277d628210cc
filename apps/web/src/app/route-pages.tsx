/** One lazy component per built page, shared by the static routes and the run-time menu routes. */
import type { ReactNode } from 'react';
import { lazyComponent, type LazyComponent } from '../lib/lazy-page';
import type { AppRouteDef, AppRouteId } from './routes';

const pages = new Map<AppRouteId, LazyComponent<object>>();

export function pageOf(def: AppRouteDef): LazyComponent<object> {
  let page = pages.get(def.id);
  if (!page) {
    page = lazyComponent(def.load);
    pages.set(def.id, page);
  }
  return page;
}

/** The page of a route as an element. */
export function pageElement(def: AppRouteDef): ReactNode {
  const Page = pageOf(def);
  return <Page />;
}
