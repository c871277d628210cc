/** Media queries in tests: jsdom has no matchMedia. */
import { vi } from 'vitest';

/** A media query's answer that never changes. */
export function mediaQueryList(query: string, matches: boolean): MediaQueryList {
  return {
    matches,
    media: query,
    onchange: null,
    // Old-style listeners, still called by some components.
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    addListener: () => undefined,
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  };
}

/** Media queries as a screen this many pixels wide answers them (max-width queries), for layout tests. */
export function screenWidth(width: number): void {
  vi.stubGlobal('matchMedia', (query: string) => {
    const max = /max-width:\s*([\d.]+)px/.exec(query)?.[1];
    return mediaQueryList(query, max !== undefined && width <= Number(max));
  });
}
