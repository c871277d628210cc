import { useCallback, useSyncExternalStore } from 'react';

/** Whether a CSS media query matches, following changes (window resize, rotation). */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => {
        list.removeEventListener('change', onChange);
      };
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Spec §9: the mobile breakpoint is 750 px. */
export const MOBILE_QUERY = '(max-width: 749.98px)';

/** Spec §2's breakpoints: under 1024 px the list panel and wide tables give way (tablets, a narrow window). */
export const NARROW_QUERY = '(max-width: 1023.98px)';
