/** React's view of the live connection: the connected flag, one device's live values, all live states. */
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { liveStore, startLive, stopLive } from './live-connection';
import type { LiveDevice, LiveState } from './live-store';

/** Keeps the live connection open while the signed-in shell is mounted. */
export function useLiveConnection(): void {
  useEffect(() => {
    startLive().catch((error: unknown) => {
      console.warn('Message queue: connect failed', error instanceof Error ? error.message : error);
    });
    return stopLive;
  }, []);
}

export function useLiveConnected(): boolean {
  return useSyncExternalStore(
    (listener) => liveStore.subscribeConnection(listener),
    () => liveStore.connected,
  );
}

export function useLiveDevice(sn: string): LiveDevice {
  const subscribe = useCallback((listener: () => void) => liveStore.subscribeDevice(sn, listener), [sn]);
  return useSyncExternalStore(subscribe, () => liveStore.device(sn));
}

/** A device's state: what was said live, else what the page fetched. */
export function useLiveState(sn: string, fetched: LiveState): LiveState {
  return useLiveDevice(sn).state ?? fetched;
}

/**
 * Every state said live since the page loaded, by serial number; with `throttleMs`, at most one
 * new map per that time (a fleet coming online must not redraw 10,000 markers per message).
 */
export function useLiveStates(throttleMs = 0): ReadonlyMap<string, LiveState> {
  const states = useSyncExternalStore(
    (listener) => liveStore.subscribeStates(listener),
    () => liveStore.stateSnapshot(),
  );
  const [shown, setShown] = useState(states);
  const last = useRef(0);
  useEffect(() => {
    if (throttleMs <= 0) return;
    const timer = setTimeout(
      () => {
        last.current = Date.now();
        setShown(states);
      },
      Math.max(0, last.current + throttleMs - Date.now()),
    );
    return () => {
      clearTimeout(timer);
    };
  }, [states, throttleMs]);
  return throttleMs > 0 ? shown : states;
}
