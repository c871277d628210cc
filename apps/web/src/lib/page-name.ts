/**
 * The name of the record a page shows (a project's, a station's, a device's), when the route
 * alone does not name the page: the browser tab and the header breadcrumb show it.
 */
import { useEffect, useSyncExternalStore } from 'react';

let current: string | undefined;
const listeners = new Set<() => void>();

function set(name: string | undefined): void {
  if (name === current) return;
  current = name;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const read = () => current;

/** Names the page while the calling component shows `name` (undefined or '' names nothing). */
export function usePageName(name: string | undefined): void {
  useEffect(() => {
    set(name || undefined);
    return () => {
      set(undefined);
    };
  }, [name]);
}

/** The name the current page gave itself, if any. */
export function useCurrentPageName(): string | undefined {
  return useSyncExternalStore(subscribe, read, read);
}
