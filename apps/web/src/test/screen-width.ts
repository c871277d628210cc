/** Media queries as a screen this many pixels wide answers them (max-width queries), for layout tests. */
import { vi } from 'vitest';

export function screenWidth(width: number): void {
  vi.stubGlobal('matchMedia', (query: string) => {
    const max = /max-width:\s*([\d.]+)px/.exec(query)?.[1];
    return {
      matches: max !== undefined && width <= Number(max),
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    };
  });
}
