import { createElement, lazy, useState, type ComponentType, type ReactNode } from 'react';

/** Spec §9: a chunk that has not loaded after 120 s counts as failed. */
export const CHUNK_TIMEOUT_MS = 120_000;

export function withTimeout<T>(promise: Promise<T>, ms = CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`chunk load timed out after ${String(ms / 1000)} s`));
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** A component whose code loads on first use, or earlier through preload(). */
export interface LazyComponent<P extends object> {
  (props: P): ReactNode;
  /** Starts loading the chunk (once; again after a failure). */
  preload: () => Promise<ComponentType<P>>;
}

/**
 * React.lazy for a module's named component export, with the chunk time-out, that can be
 * loaded ahead of time. Once loaded it renders without suspending: a suspension shows the
 * nearest fallback, and React then holds the content back for up to 300 ms (its fallback
 * throttle), so a page whose chunks were preloaded appears that much sooner.
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>): LazyComponent<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = (): Promise<ComponentType<P>> => {
    loading ??= withTimeout(load()).then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        loading = undefined; // the next attempt loads again
        throw error;
      },
    );
    return loading;
  };
  const Suspending = lazy(() => preload().then((component) => ({ default: component })));
  const Lazy = (props: P): ReactNode => {
    // Chosen once per mount: swapping the element type on a later render would remount the page.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Suspending);
    return createElement(Component, props);
  };
  Lazy.preload = preload;
  return Lazy;
}
