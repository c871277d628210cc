/**
 * A fake clock for tests about time (a debounce, a delay): time moves only when the test or
 * Testing Library moves it, so a busy machine cannot turn "typed without a pause" into a pause.
 */
import { vi } from 'vitest';
import userEvent from '@testing-library/user-event';

const advance = (ms: number) => {
  vi.advanceTimersByTime(ms);
};

/**
 * Fakes the timers (not React's scheduler) and returns a userEvent that moves the fake clock by
 * its own delays. Testing Library's waitFor and find* queries move the clock in steps while they
 * wait, as they do under Jest's fake timers, which they recognise by a global `jest`.
 * The set-up's afterEach (test/setup.ts) gives the next test real timers again.
 */
export function useFakeClock() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  vi.stubGlobal('jest', { advanceTimersByTime: advance });
  return userEvent.setup({ advanceTimers: advance });
}
