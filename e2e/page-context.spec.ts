import { expect, test } from '@playwright/test';
import { ADMIN, signIn } from './fixtures.ts';

test.use({ locale: 'en-US' });

test('the browser tab and the header breadcrumb name the project, station or device shown', async ({ page }) => {
  await page.goto('/login');
  await signIn(page, ADMIN);
  const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(page).toHaveTitle('Home - Sluice');

  const projects = (await (await page.request.get('/api/1/project/myProject?PageNo=1&PageSize=1')).json()) as {
    data: { data: { Id: number; Name: string }[] };
  };
  const stations = (await (await page.request.get('/api/1/project/mySite?PageNo=1&PageSize=1')).json()) as {
    data: { data: { Id: number; Name: string }[] };
  };
  const devices = (await (await page.request.get('/api/1/Device/MyDevice?PageNo=1&PageSize=1')).json()) as {
    data: { DeviceSn: string; DeviceName: string }[];
  };
  const shown = [
    { path: `/common/home/project/${String(projects.data.data[0]?.Id)}`, name: projects.data.data[0]?.Name ?? '' },
    { path: `/common/home/station/${String(stations.data.data[0]?.Id)}`, name: stations.data.data[0]?.Name ?? '' },
    { path: `/common/home/device/${devices.data[0]?.DeviceSn ?? ''}`, name: devices.data[0]?.DeviceName ?? '' },
  ];
  for (const { path, name } of shown) {
    expect(name).not.toBe('');
    await page.goto(path);
    await expect(page).toHaveTitle(`${name} - Sluice`);
    await expect(breadcrumb).toContainText(name);
    await expect(breadcrumb.getByRole('link', { name: 'Home' })).toBeVisible();
  }

  // Back home, the page is Home again.
  await breadcrumb.getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveTitle('Home - Sluice');
  await expect(breadcrumb).not.toContainText(shown[2]?.name ?? '');
});
