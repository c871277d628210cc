import { expect, test, type Locator, type Page } from '@playwright/test';
import { ADMIN, signIn } from './fixtures.ts';

test.use({ locale: 'en-US' });

/**
 * Picks an option of an Ant Design select in `scope` (a dialog) by its text, typed into the
 * search first when given; then checks the select shows it (its options open outside the dialog).
 */
async function choose(page: Page, scope: Locator, label: string, option: string | RegExp, search?: string) {
  const exact = typeof option === 'string';
  // The list can re-render under the pointer (the library refreshes after every write): until the
  // select shows the option, open it and pick again.
  let attempts = 0;
  await expect(async () => {
    const open = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
    if (attempts++ > 0 && (await open.count()) > 0) await page.keyboard.press('Escape');
    await scope.getByLabel(label, { exact: true }).click();
    if (search) await page.keyboard.type(search);
    await page.getByTitle(option, { exact }).filter({ visible: true }).last().click();
    await expect(scope.getByTitle(option, { exact })).toBeVisible({ timeout: 5000 });
  }).toPass({ timeout: 60_000 });
}

function dialog(page: Page, title: string) {
  return page.getByRole('dialog').filter({ has: page.getByText(title, { exact: true }) });
}

/** Calls the API with the page's session (for what no screen shows yet). */
async function apiGet<T>(page: Page, path: string): Promise<T> {
  const token = (await page.context().cookies()).find((c) => c.name === 'token')?.value ?? '';
  const response = await page.request.get(`/api${path}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { data: T }).data;
}

test('an administrator defines data points, builds a type with a module, a control, a statistic and a standard template, and a new device of the type starts from the template', async ({
  page,
}) => {
  test.slow();
  const stamp = String(Date.now()).slice(-6);
  const level = `E2eLevel${stamp}`;
  const setPoint = `E2eLevelSet${stamp}`;
  const typeName = `E2E tank ${stamp}`;
  const moduleName = `Tank module ${stamp}`;
  const template = `Standard ${stamp}`;
  const panel = `Levels ${stamp}`;
  const device = `E2E tank device ${stamp}`;

  await page.goto('/login');
  await signIn(page, ADMIN);

  // Two data points in the library: a reading with 2 decimals, a set value with limits and a default.
  await page.goto('/sys/dataDefine');
  await page.getByRole('button', { name: 'Add data point' }).first().click();
  let form = dialog(page, 'Add data point');
  await form.getByLabel('Data key').fill(level);
  await form.getByLabel('Name').fill(`Tank level ${stamp}`);
  await choose(page, form, 'Unit', 'm', 'm');
  await form.getByLabel('Decimals').fill('2');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();

  await page.getByRole('button', { name: 'Add data point' }).first().click();
  form = dialog(page, 'Add data point');
  await form.getByLabel('Data key').fill(setPoint);
  await form.getByLabel('Name').fill(`High level set-point ${stamp}`);
  await choose(page, form, 'Data type', 'Set value (number)');
  await form.getByLabel('Min').fill('0');
  await form.getByLabel('Max').fill('5');
  await form.getByLabel('Default value').fill('9');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('The value entered cannot be greater than 5')).toBeVisible();
  await form.getByLabel('Default value').fill('2.5');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await page.getByRole('searchbox', { name: 'Search' }).fill(stamp);
  await expect(page.getByRole('row', { name: new RegExp(setPoint) })).toContainText('0–5');

  // A type, and its workbench.
  await page.goto('/sys/devicetype');
  await page.getByRole('button', { name: 'Add device type' }).first().click();
  form = dialog(page, 'Add device type');
  await form.getByLabel('Type name').fill(typeName);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await page.getByRole('link', { name: typeName }).click();
  await expect(page.getByRole('heading', { name: `Device type: ${typeName}` })).toBeVisible();

  // Its data points, picked from the library.
  await expect(page.getByRole('tab', { name: 'Data points', selected: true })).toBeVisible();
  for (const key of [level, setPoint]) {
    // The toolbar's button (an empty tab offers its own too).
    await page.getByRole('button', { name: 'Add data point' }).first().click();
    form = dialog(page, 'Add data point');
    await choose(page, form, 'Data point', new RegExp(`^${key} · `), key);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form).toBeHidden();
  }
  await expect(page.getByRole('row', { name: new RegExp(setPoint) })).toBeVisible();

  // Two modules, put in another order by keyboard; a control with its formula in the second.
  await page.getByRole('tab', { name: 'Modules' }).click();
  for (const name of [`${moduleName} B`, moduleName]) {
    await page.getByRole('button', { name: 'Add module' }).first().click();
    form = dialog(page, 'Add module');
    await form.getByLabel('Module name').fill(name);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form).toBeHidden();
  }
  await page.getByRole('button', { name: `Move ${moduleName}`, exact: true }).focus();
  const saved = page.waitForResponse((response) => response.url().includes('/TypeModule/Sort') && response.ok());
  await page.keyboard.press('ArrowUp');
  await saved;
  await expect(page.getByRole('status').filter({ hasText: 'moved to position' })).toHaveText(
    `${moduleName} moved to position 1 of 2`,
  );
  await page.reload();
  await expect(page.getByRole('row').nth(1)).toContainText(moduleName);
  await expect(page.getByRole('row').nth(1)).not.toContainText(`${moduleName} B`);

  const moduleRow = page.getByRole('row').filter({ has: page.getByRole('cell', { name: moduleName, exact: true }) });
  await moduleRow.getByRole('button', { name: 'Expand row' }).click();
  await page.getByRole('button', { name: 'Add control' }).first().click();
  form = dialog(page, 'Add control');
  await choose(page, form, 'Data point', new RegExp(`^${setPoint} · `), setPoint);
  await expect(form.getByLabel('Control name')).toHaveValue(`High level set-point ${stamp}`);
  await form.getByText('JSON', { exact: true }).click();
  await form.getByLabel('Set value key').fill(setPoint);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(
    form.getByText('The formula is JSON with SettingValue and CurrentValue, or two keys separated by ||'),
  ).toBeVisible();
  await form.getByLabel('Current value key').fill(level);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  const controls = page.getByRole('heading', { name: `Controls of ${moduleName}` });
  await expect(controls).toBeVisible();
  // The innermost row with that cell (an expanded module's row holds its controls' table).
  const rowOf = (cell: string) =>
    page
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: cell, exact: true }) })
      .last();
  await expect(rowOf(`High level set-point ${stamp}`)).toContainText(`{"SettingValue":"${setPoint}","CurrentValue":"${level}"}`);

  // A statistic with a range filter.
  await page.getByRole('tab', { name: 'Statistics' }).click();
  await page.getByRole('button', { name: 'Add statistic' }).first().click();
  form = dialog(page, 'Add statistic');
  await form.getByLabel('Name').fill(`Level ${stamp}`);
  await choose(page, form, 'Data point', new RegExp(`^${level} · `), level);
  await form.getByText('Range (min,max)').click();
  await form.getByLabel('Filter range').fill('5,0');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('A range filter reads min,max with min not above max')).toBeVisible();
  await form.getByLabel('Filter range').fill('0,5');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(rowOf(`Level ${stamp}`)).toContainText('Instantaneous');

  // A standard template with a panel and the type's data points.
  await page.getByRole('tab', { name: 'Templates' }).click();
  await page.getByRole('button', { name: 'Add template' }).first().click();
  form = dialog(page, 'Add template');
  await form.getByLabel('Template name').fill(template);
  await form.getByRole('switch', { name: 'Standard template' }).click();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await page.getByRole('button', { name: `Parts of ${template}` }).click();
  const parts = page.getByRole('region', { name: `Parts of “${template}”` });
  await parts.getByRole('tab', { name: 'Panels' }).click();
  await parts.getByRole('button', { name: 'Add panel' }).first().click();
  form = dialog(page, 'Add panel');
  await form.getByLabel('Panel name').fill(panel);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await parts.getByRole('tab', { name: 'Data points' }).click();
  await parts.getByRole('button', { name: 'Add the type’s data points (2)' }).click();
  await expect(parts.getByRole('row', { name: new RegExp(level) })).toBeVisible();
  await expect(parts.getByRole('row', { name: new RegExp(setPoint) })).toContainText('2.5');

  // The library refuses to delete a data point the type uses, and says which type.
  await page.goto('/sys/dataDefine');
  await page.getByRole('searchbox', { name: 'Search' }).fill(level);
  await expect(page.getByRole('row')).toHaveCount(2);
  await page.getByRole('button', { name: `Delete ${level}`, exact: true }).click();
  const confirm = dialog(page, `Delete “${level}”?`);
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByText(new RegExp(`used by the device type “${typeName}”`))).toBeVisible();

  // A device of the type, in the first demo station.
  const group = (await apiGet<{ GroupId: number }>(page, '/user/myinfo')).GroupId;
  const stations = await apiGet<{ data: { Id: number }[] }>(page, `/${String(group)}/project/mySite?PageSize=1`);
  await page.goto(`/common/home/station/${String(stations.data[0]?.Id)}`);
  await page.getByRole('button', { name: 'New device' }).click();
  form = page.getByRole('dialog', { name: 'New device' });
  await form.getByLabel('Device name').fill(device);
  await choose(page, form, 'Type', typeName);
  await form.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('dialog', { name: 'Device credential' }).getByRole('button', { name: 'I have copied it' }).click();

  // Its data points and panels came from the standard template.
  const [created] = await apiGet<{ DeviceSn: string; TypeId: number }[]>(
    page,
    `/${String(group)}/Device/MyDevice?Search=${encodeURIComponent(device)}`,
  );
  expect(created?.DeviceSn).toBeTruthy();
  const sn = created?.DeviceSn ?? '';
  const defines = await apiGet<{ DataKey: string; DefaultValue: string }[]>(page, `/GetDeviceDataDefine?deviceSn=${sn}`);
  expect(defines.map((d) => d.DataKey).sort()).toEqual([level, setPoint].sort());
  expect(defines.find((d) => d.DataKey === setPoint)?.DefaultValue).toBe('2.5');
  const panels = await apiGet<{ PanelName: string }[]>(page, `/GetDevicePanels?deviceSn=${sn}`);
  expect(panels.map((p) => p.PanelName)).toEqual([panel]);

  // The device's page shows the template's panel and the data points, named and waiting for data.
  await page.goto(`/common/home/device/${sn}`);
  const shown = page.getByRole('region', { name: 'Live data' });
  await expect(shown.getByRole('region', { name: panel })).toBeVisible();
  await expect(shown.getByRole('row', { name: new RegExp(`Tank level ${stamp}`) })).toContainText('—');
  await expect(shown.getByRole('row', { name: new RegExp(`High level set-point ${stamp}`) })).toBeVisible();
});

test('the library loads in the background, and the workbench’s tabs each open', async ({ page }) => {
  await page.goto('/login');
  await signIn(page, ADMIN);
  const library = page.waitForRequest(
    (request) => request.url().includes('/api/DataDefineLibrary?') && request.url().includes('PageSize=100'),
  );
  await page.goto('/sys/devicetype');
  await library;
  await page.getByRole('link', { name: 'Village station (A/O)' }).click();
  for (const [tab, content] of [
    ['Hardware config', '01 03 00 00 00 02 C4 0B'],
    ['Schema', 'A/O process'],
    ['Module classes', 'Set-points'],
    ['Overview', 'Inflow'],
  ] as const) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page.getByRole('tabpanel', { name: tab }).getByText(content).first()).toBeVisible();
  }
});
