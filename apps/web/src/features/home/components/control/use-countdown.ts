/**
 * A timed control's countdown (spec §4, §8, §9): while the device is online and the phase runs
 * (its current value above 0 and below the set value), the current value counts up by one second
 * every COUNTDOWN_TICK_MS from the last value the device reported, until it equals the set value;
 * then `onZero` runs once (the device switches to its next phase itself; the page fetches the new
 * values). A new report from the device starts the count again from what it says.
 */
import { useEffect, useState } from 'react';
import { COUNTDOWN_TICK_MS } from '@sluice/shared/control-values';

export interface Countdown {
  /** The current value, counted on from the last report. */
  current: number;
  /** What is left until the set value, in the control's unit. */
  remaining: number;
  running: boolean;
}

export function useCountdown(options: {
  current: number | undefined;
  set: number | undefined;
  online: boolean;
  /** How much of the control's unit one second is (1 for seconds, 1/60 for minutes). */
  perSecond: number | undefined;
  onZero?: () => void;
}): Countdown | undefined {
  const { current, set, online, perSecond, onZero } = options;
  // A new report, a new set value or a new state: count again from what the device says.
  const key = `${String(current)}|${String(set)}|${String(online)}`;
  const [count, setCount] = useState({ key, ticks: 0 });
  const ticks = count.key === key ? count.ticks : 0;
  const applies = current !== undefined && set !== undefined && perSecond !== undefined;
  const active = applies && online && current > 0 && current < set;
  const counted = applies ? Math.min(set, current + ticks * perSecond) : 0;
  const done = applies && counted >= set;

  useEffect(() => {
    if (!active || done) return;
    const timer = setInterval(() => {
      setCount((c) => ({ key, ticks: (c.key === key ? c.ticks : 0) + 1 }));
    }, COUNTDOWN_TICK_MS);
    return () => {
      clearInterval(timer);
    };
  }, [active, done, key]);

  const reachedZero = active && done;
  useEffect(() => {
    if (reachedZero) onZero?.();
  }, [reachedZero, onZero]);

  if (!applies || !active) return undefined;
  return { current: counted, remaining: Math.max(0, set - counted), running: !done };
}
