/**
 * The console as an operator meets it (issue 17), in Chinese with the light theme and in English
 * with the dark theme at 1440 × 900, and on a 390 px phone: states tell the truth after a reload
 * (a device in alarm is amber on its page, its station's tag and the map, with the alarm's name on
 * hover), a project's page counts that project, the device's page leads with the device, its
 * tabs are all in view, and the state tags read at WCAG AA contrast in both themes.
 *
 * With SCREENSHOT_DIR set, it also saves the operator's home, station, device and notice pages in
 * both themes there (docs/screenshots/ holds the committed ones; see docs/screenshots/README.md).
 */
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { ADMIN, OPERATOR, toggleTheme } from './fixtures.ts';

/** Xikou station's flow meter: online in the demo (the demo fleet speaks for it). */
const SN = 'SL0000000403';
const SCREENSHOTS = process.env.SCREENSHOT_DIR;

const passes = [
  {
    lang: 'zh-CN',
    theme: 'light',
    warning: '告警',
    alarmHint: /^当前告警：/,
    devicesTitle: '设备',
    back: '返回',
    live: '实时数据',
  },
  {
    lang: 'en-US',
    theme: 'dark',
    warning: 'Warning',
    alarmHint: /^Active alarm: /,
    devicesTitle: 'Devices',
    back: 'Back',
    live: 'Live data',
  },
] as const;

async function signInAs(page: Page, baseURL: string | undefined, lang: string) {
  await page.context().addCookies([{ name: 'lang', value: lang, url: baseURL ?? 'http://127.0.0.1' }]);
  await page.goto('/login');
  await page.getByLabel(/^(Account|账号)$/).fill(OPERATOR.account);
  await page.getByLabel(/^(Password|密码)$/).fill(OPERATOR.password);
  await page.getByRole('button', { name: /^(Sign in|登录)$/ }).click();
  await expect(page).toHaveURL(/\/common\/home/);
  await expect(page.getByRole('button', { name: /User menu|用户菜单/ })).toBeVisible();
}

async function apiData<T>(page: Page, url: string): Promise<T> {
  const response = await page.request.get(`/api${url}`);
  expect(response.ok(), url).toBe(true);
  return ((await response.json()) as { data: T }).data;
}

/** WCAG contrast of two CSS rgb() colours. */
function contrast(a: string, b: string): number {
  const lum = (css: string) => {
    const [r, g, bl] = (css.match(/[\d.]+/g) ?? []).map(Number).map((v) => v / 255);
    const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r ?? 0) + 0.7152 * lin(g ?? 0) + 0.0722 * lin(bl ?? 0);
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}

/** The tag's text colour against its own background over the page's (tags are tinted, translucent in dark). */
async function tagContrast(page: Page, tag: ReturnType<Page['locator']>): Promise<number> {
  const colours = await tag.evaluate((element) => {
    const style = getComputedStyle(element);
    const page = getComputedStyle(document.body).backgroundColor;
    return { text: style.color, background: style.backgroundColor, page };
  });
  // Blend a translucent background over the page.
  const parse = (css: string) => (css.match(/[\d.]+/g) ?? []).map(Number);
  const [r, g, b, alpha = 1] = parse(colours.background);
  const [pr, pg, pb] = parse(colours.page);
  const mix = (c: number | undefined, p: number | undefined) => Math.round((c ?? 0) * alpha + (p ?? 255) * (1 - alpha));
  return contrast(colours.text, `rgb(${String(mix(r, pr))}, ${String(mix(g, pg))}, ${String(mix(b, pb))})`);
}

async function shoot(page: Page, name: string) {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Let the map's tiles and the live values settle.
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

for (const pass of passes) {
  test(`the operator's walk in ${pass.lang}, ${pass.theme} theme, at 1440 × 900`, async ({ page, baseURL, playwright }) => {
    // The administrator raises the alarm (an operator may not).
    const admin = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL ?? '' } });
    expect((await admin.post('/api/User', { data: { Account: ADMIN.account, Password: ADMIN.password } })).ok()).toBe(true);
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInAs(page, baseURL, pass.lang);
    if (pass.theme === 'dark') {
      await toggleTheme(page);
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    }
    await expect(page.locator('[data-site-id]').first()).toBeVisible();
    await shoot(page, `${pass.theme}-home`);

    // A device in alarm, raised before its page opens: amber from the first fetch, after a reload too.
    const raised = await admin.post('/api/Warn/WarnAdd', {
      data: { DeviceSn: SN, Code: 'E201', Comments: 'operator walk' },
    });
    expect(raised.status()).toBe(201);
    const [device] = await apiData<{ DeviceName: string; ProjectId: number; ParentProjectId: number; State: number }[]>(
      page,
      `/1/Device/AllDevice?deviceSn=${SN}`,
    );
    expect(device?.State).toBe(2);
    await page.goto(`/common/home/device/${SN}`);
    await page.reload();

    // The device page leads with the device: its name as the heading, Back, its state and live values on the first screen.
    const headline = page.getByTestId('device-headline');
    await expect(headline.getByRole('heading', { level: 1, name: device?.DeviceName })).toBeInViewport();
    await expect(headline.getByRole('button', { name: pass.back })).toBeInViewport();
    const state = headline.locator('.ant-tag');
    await expect(state).toHaveText(pass.warning);
    await expect(state).toHaveAttribute('aria-description', pass.alarmHint);
    await state.hover();
    await expect(page.getByRole('tooltip')).toHaveText(pass.alarmHint);
    await expect(page.getByRole('region', { name: pass.live })).toBeInViewport({ ratio: 0.3 });
    const boxes = await Promise.all([
      page.getByRole('region', { name: pass.live }).boundingBox(),
      page.getByRole('region', { name: /^(Map of stations and devices|站点与设备地图)$/ }).boundingBox(),
    ]);
    expect((boxes[0]?.y ?? 0) < (boxes[1]?.y ?? 0), 'the map comes after the live values').toBe(true);
    // Every device tab is in view (they wrap rather than hide behind "···").
    const tabs = page.locator('.sluice-wrap-tabs [role="tab"]');
    expect(await tabs.count()).toBeGreaterThanOrEqual(6);
    for (const tab of await tabs.all()) await expect(tab).toBeVisible();
    await expect(page.locator('.sluice-wrap-tabs .ant-tabs-nav-more')).toBeHidden();
    // The state tags read at AA contrast in this theme.
    expect(await tagContrast(page, state)).toBeGreaterThanOrEqual(4.5);
    await shoot(page, `${pass.theme}-device`);

    // The station's page: its tag says warning too, and the statistics count the station only.
    const station = await apiData<{ Id: number; Name: string; DeviceNum: number; State: number }>(
      page,
      `/1/project/info/${String(device?.ProjectId)}`,
    );
    expect(station.State).toBe(2);
    await page.goto(`/common/home/station/${String(station.Id)}`);
    const list = page.getByRole('region', { name: /Projects, stations and devices|项目、站点与设备/ });
    await expect(list.getByRole('heading', { level: 2, name: station.Name }).locator('xpath=..').locator('.ant-tag')).toHaveText(
      pass.warning,
    );
    const stats = page.getByRole('complementary', { name: /^(Statistics|统计)$/ });
    await expect(stats.getByRole('heading', { level: 2 })).toContainText(station.Name);
    await shoot(page, `${pass.theme}-station`);

    // The project's page counts the project's devices, not the tenant's.
    const project = await apiData<{ Id: number; Name: string; DeviceNum: number }>(
      page,
      `/1/project/info/${String(device?.ParentProjectId)}`,
    );
    const all = await apiData<{ Num: number }>(page, '/1/Device/OverView');
    expect(project.DeviceNum).toBeLessThan(all.Num);
    await page.goto(`/common/home/project/${String(project.Id)}`);
    await expect(stats.getByRole('heading', { level: 2 })).toContainText(project.Name);
    await expect(
      stats.locator('.ant-statistic').filter({ hasText: pass.devicesTitle }).locator('.ant-statistic-content'),
    ).toHaveText(String(project.DeviceNum));

    // The notice centre lists the alarm.
    await page.goto('/common/notice/list/0/0');
    await expect(page.getByRole('row').filter({ hasText: SN }).first()).toBeVisible();
    await shoot(page, `${pass.theme}-notices`);

    // Handled, so that the next pass raises its own.
    const alarms = await apiData<{ Id: number; Source: string; State: number }[]>(page, `/${SN}/Warn`);
    for (const alarm of alarms.filter((a) => a.Source === 'manual' && a.State === 0)) {
      await admin.put(`/api/${SN}/Warn`, { data: { Id: alarm.Id, Comments: 'done' } });
    }
    await admin.dispose();
  });
}

test('on a 390 px phone the device page starts with its name and Back', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAs(page, baseURL, 'zh-CN');
  const [device] = await apiData<{ DeviceName: string }[]>(page, `/1/Device/AllDevice?deviceSn=${SN}`);
  await page.goto(`/common/home/device/${SN}`);
  const headline = page.getByTestId('device-headline');
  await expect(headline.getByRole('heading', { level: 1, name: device?.DeviceName })).toBeInViewport();
  await expect(headline.getByRole('button', { name: '返回' })).toBeInViewport();
  // No sideways scrolling on the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
