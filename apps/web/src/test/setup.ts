/**
 * jsdom lacks a few browser APIs Ant Design relies on, and IndexedDB (an in-memory one stands
 * in); Testing Library cleans up between tests.
 */
import 'fake-indexeddb/auto';
// The signed-in screens' texts, which the app loads with its shell.
import '../lib/console-catalog';
import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { queryClient } from '../lib/query-client';
import { mediaQueryList } from './screen-width';

// What a user waits for can take seconds to render on a busy machine (CI shares two cores): find*
// and waitFor give up only after this long, instead of Testing Library's one second.
configure({ asyncUtilTimeout: 20_000 });

if (!('matchMedia' in window) || typeof window.matchMedia !== 'function') {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string): MediaQueryList => mediaQueryList(query, false),
  });
}

if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  }
  // Assigned, not vi.stubGlobal: tests call vi.unstubAllGlobals() for their fake fetch.
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}

// jsdom does not implement pseudo-element styles; Ant Design asks for them when measuring.
const getComputedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => getComputedStyle(element);

afterEach(() => {
  cleanup();
  // A test on the fake clock (test/fake-clock.ts) leaves the real one to the next.
  vi.useRealTimers();
  vi.unstubAllGlobals();
  queryClient.clear();
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
  sessionStorage.clear();
  localStorage.clear();
});
