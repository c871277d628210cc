import { expect, test, type Route } from '@playwright/test';
import { ADMIN, signIn } from './fixtures.ts';

test.use({ locale: 'en-US' });

/** The network drops the call (as when the connection is lost), until the route is removed. */
const drop = (route: Route) => route.abort('connectionfailed');

test('a page whose call fails says so with a retry instead of "0 in all", and the retry loads it', async ({ page }) => {
  await page.goto('/login');
  await signIn(page, ADMIN);

  for (const [url, call, total] of [
    ['/common/app/project', '**/project/myProject?**', /^\d+ in all$/],
    ['/common/app/device', '**/Device/MyDevice?**', /^\d+ devices$/],
  ] as const) {
    await page.route(call, drop);
    await page.goto(url);
    const failure = page.getByRole('alert').filter({ hasText: 'The list could not be loaded' });
    await expect(failure).toBeVisible();
    await expect(page.getByText(total)).toHaveCount(0);
    await expect(page.getByText('No data')).toHaveCount(0);

    await page.unroute(call, drop);
    await failure.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('listitem').first()).toBeVisible();
    await expect(page.getByText(total)).toBeVisible();
    await expect(failure).toHaveCount(0);
  }
});
