/** What the tests of the data-definition and device-type screens share. */
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import userEvent from '@testing-library/user-event';
import { setSessionCookies } from '../lib/cookies';
import { loadDeviceTypesCatalog } from '../lib/feature-catalogs';
import { changeLanguage } from '../lib/i18n';

/** Their catalog once, an administrator's session before each test, stubs and language reset after. */
export function setUpWorkbenchTests(): void {
  beforeAll(async () => {
    await loadDeviceTypesCatalog();
  });
  beforeEach(() => {
    setSessionCookies({ account: 'admin' });
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    await changeLanguage('en-US');
  });
}

/** Types by pasting: one change per field rather than one per key (the form re-renders on each). */
export async function fill(input: HTMLElement, text: string): Promise<void> {
  await userEvent.click(input);
  await userEvent.paste(text);
}
