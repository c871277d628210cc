/**
 * Field records on a phone-sized Chromium (390 px): the operator records a water sample whose
 * NH3-N is over the station's class 1A limit and sees it marked; reports a repair, which the
 * administrator assigns; the operator starts it, adds an after photo and finishes it; the
 * administrator verifies it. An alarm in the notice centre becomes a repair in one click. The
 * station's monthly report holds the sample, on the page and in its Excel workbook; the month's
 * compliance lists the station.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { ADMIN, OPERATOR, choose, signIn } from './fixtures.ts';

/** 青山一站's analyser: its project holds GB 18918-2002 class 1A in the demo data. */
const SN = 'SL0000000104';
const STATION = '青山一站';
const PHONE = { width: 390, height: 844 };
/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

async function signedIn(browser: Browser, user: { account: string; password: string }): Promise<Page> {
  const page = await browser.newPage({ viewport: PHONE, locale: 'en-US' });
  await page.goto('/login');
  await signIn(page, user);
  return page;
}

async function api<T>(page: Page, method: 'GET' | 'POST', path: string, data?: unknown): Promise<T> {
  const token = (await page.context().cookies()).find((c) => c.name === 'token')?.value ?? '';
  const res = await page.request.fetch(`/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}` },
    ...(data === undefined ? {} : { data }),
  });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { data: T }).data;
}

/** Picks a choice of an Ant Design select or tree select opened by its label. */
test('a water sample over the standard is marked, a repair goes from reported to verified, an alarm becomes a repair', async ({
  browser,
}) => {
  const operator = await signedIn(browser, OPERATOR);
  const admin = await signedIn(browser, ADMIN);
  const title = `Blower 1 trips ${String(Date.now())}`;

  // The sample: NH3-N 9.5 mg/L is over class 1A (8 even in the cold).
  await operator.goto('/records/quality');
  await operator.getByRole('button', { name: 'Record a sample' }).click();
  const form = operator.getByRole('dialog');
  await form.getByLabel('Device').click();
  await operator.getByTitle(new RegExp(SN)).click();
  await form
    .getByLabel('Sampled at')
    .fill(new Date(Date.now() - 3_600_000 - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 16));
  await form.getByLabel('Sampled by').fill('Zhang Gong');
  await form.getByLabel('COD effluent').fill('31');
  await form.getByLabel('NH3-N effluent').fill('9.5');
  // pH outside 0–14 is refused on the field before anything is sent.
  await form.getByLabel('pH effluent').fill('15');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('pH must lie between 0 and 14')).toBeVisible();
  await form.getByLabel('pH effluent').fill('7.2');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  const sample = operator.locator('.ant-card, tr').filter({ hasText: 'NH3-N 9.5' }).first();
  await expect(sample).toContainText('Over the standard');
  await expect(sample).toContainText('NH3-N 9.5 mg/L · over');

  // The month's report of the station holds the sample and its parameter over the standard.
  await operator.goto('/records/report');
  await choose(operator, operator.getByLabel('Project or station'), STATION);
  await operator.getByLabel('Month').fill(new Date().toISOString().slice(0, 7));
  await expect(operator.getByText(`${STATION}, ${new Date().toISOString().slice(0, 7)}`)).toBeVisible();
  const nh3 = operator.getByRole('row').filter({ hasText: 'NH3-N' }).first();
  await expect(nh3).toContainText('9.5');
  await expect(operator.getByRole('button', { name: 'Print' })).toBeEnabled();
  // The same month downloads as an Excel workbook whose sheet of samples holds the sample.
  const downloading = operator.waitForEvent('download');
  await operator.getByRole('button', { name: 'Excel' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
  const ExcelJS = (await import('exceljs')).default;
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  const samples: string[] = [];
  workbook.getWorksheet('Samples')?.eachRow((row) => {
    samples.push((row.values as unknown[]).map(String).join('|'));
  });
  expect(samples.find((row) => row.includes('Zhang Gong'))).toContain('9.5');

  // The water-quality page's monthly compliance lists the station with its laboratory samples.
  await operator.goto('/records/quality');
  await operator.getByRole('tab', { name: 'Monthly compliance' }).click();
  await expect(operator.getByRole('row').filter({ hasText: STATION }).first()).toContainText('Lab');

  // The operator reports a repair at the station.
  await operator.goto('/records/repair');
  await operator.getByRole('button', { name: 'Report a repair' }).click();
  const report = operator.getByRole('dialog');
  await choose(operator, report.getByLabel('Station'), STATION);
  await report.getByLabel('Repair', { exact: true }).fill(title);
  await report.getByLabel('Fault (warn code)').fill('E201');
  await report.getByRole('button', { name: 'Save' }).click();
  await expect(report).toBeHidden();
  await expect(operator.getByText(title).first()).toBeVisible();
  // Assigning is the administrator's.
  await expect(operator.getByRole('button', { name: `Assign “${title}”` })).toHaveCount(0);

  await admin.goto('/records/repair');
  await admin.getByRole('button', { name: `Assign “${title}”` }).click();
  const assign = admin.getByRole('dialog');
  await choose(admin, admin.getByLabel('Assignee'), /张工/);
  await assign.getByRole('button', { name: 'Assign' }).click();
  await expect(assign).toBeHidden();

  await operator.getByRole('button', { name: 'Refresh' }).click();
  await operator.getByRole('button', { name: `Start “${title}”` }).click();
  await expect(operator.getByRole('button', { name: `Finish “${title}”` })).toBeVisible();
  // An after photo from the phone.
  await operator.getByRole('button', { name: `Photos of ${title}` }).click();
  const photos = operator.getByRole('dialog');
  await photos.getByText('After', { exact: true }).click();
  await photos.locator('input[type=file]').setInputFiles({ name: 'after.png', mimeType: 'image/png', buffer: PNG });
  await expect(photos.getByRole('img', { name: `Photo of ${title}` })).toBeVisible();
  await photos.getByRole('button', { name: 'Close' }).click();
  await operator.getByRole('button', { name: `Finish “${title}”` }).click();
  const finish = operator.getByRole('dialog');
  await finish.getByLabel('What was done').fill('Replaced the thermal relay');
  await finish.getByRole('button', { name: 'Finish' }).click();
  await expect(finish).toBeHidden();
  await expect(operator.locator('.ant-card, tr').filter({ hasText: title }).first()).toContainText('Done');

  await admin.getByRole('button', { name: 'Refresh' }).click();
  await admin.getByRole('button', { name: `Verify “${title}”` }).click();
  await expect(admin.locator('.ant-card, tr').filter({ hasText: title }).first()).toContainText('Verified');

  // An alarm turned into a repair from the notice centre, keeping the link.
  const warn = await api<{ Id: number }>(admin, 'POST', '/Warn/WarnAdd', {
    DeviceSn: SN,
    Code: 'E101',
    Comments: 'e2e field records',
  });
  await operator.goto('/common/notice/list/0/2');
  // The newest alarm comes first: the one just raised on the analyser.
  await operator
    .getByRole('button', { name: /^Turn .* on 出水在线监测仪 into a repair$/ })
    .first()
    .click();
  await expect(operator.getByText(/Repair #\d+ reported/)).toBeVisible();
  const repairs = await api<{ WarnId: number | null; FaultCode: string; State: string }[]>(
    operator,
    'GET',
    `/GetRepairPageList?DeviceSn=${SN}&PageSize=50`,
  );
  expect(repairs.find((r) => r.WarnId === warn.Id)).toMatchObject({ FaultCode: 'E101', State: 'reported' });
});
