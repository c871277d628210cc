/**
 * The viewer's position from the browser (spec §4: asked with a 3 s time-out, failure ignored),
 * shifted to GCJ-02 like everything on the map. Asked once per page load.
 */
import { useEffect, useState } from 'react';
import { wgs84ToGcj02 } from '@sluice/shared/gcj02';

export const GEOLOCATION_TIMEOUT_MS = 3000;

let asked: Promise<[number, number] | undefined> | undefined;

function ask(): Promise<[number, number] | undefined> {
  asked ??= new Promise((resolve) => {
    if (typeof navigator === 'undefined' || !('geolocation' in navigator)) {
      resolve(undefined);
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (at) => {
        resolve(wgs84ToGcj02(at.coords.longitude, at.coords.latitude));
      },
      () => {
        resolve(undefined);
      },
      { timeout: GEOLOCATION_TIMEOUT_MS, maximumAge: 10 * 60_000 },
    );
  });
  return asked;
}

export function useBrowserPosition(): [number, number] | undefined {
  const [position, setPosition] = useState<[number, number]>();
  useEffect(() => {
    let live = true;
    void ask().then((at) => {
      if (live && at) setPosition(at);
    });
    return () => {
      live = false;
    };
  }, []);
  return position;
}
