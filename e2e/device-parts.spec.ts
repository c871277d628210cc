/** A device's own settings, SIM card and hardware rows, from its page on the home screen. */
import { expect, test } from '@playwright/test';
import { ADMIN, signIn } from './fixtures.ts';

test('a device gets a setting of its own and a SIM card, and the SIM provider’s answer is explained', async ({ page }) => {
  await page.goto('/login');
  await signIn(page, ADMIN);
  await page.goto('/common/home/device/SL0000000201');

  // A setting: name, data type and a value that fits the type.
  await page.getByRole('tab', { name: 'Settings' }).click();
  const settings = page.getByRole('tabpanel', { name: 'Settings' });
  await expect(settings.getByText('This device has no settings of its own')).toBeVisible();
  await settings.getByRole('button', { name: 'Add setting' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add setting' });
  // A number type takes a number (the input offers nothing else); the name is required.
  await dialog.getByRole('spinbutton', { name: 'Value' }).fill('60');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByText('Required')).toBeVisible();
  await dialog.getByLabel('Name').fill('Report interval');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(settings.getByRole('row', { name: /Report interval/ })).toContainText('60');

  // The SIM card: a wrong ICCID is refused with the rule, a right one kept.
  await page.getByRole('tab', { name: 'SIM card' }).click();
  const card = page.getByRole('tabpanel', { name: 'SIM card' });
  await expect(card.getByText('No SIM card is recorded for this device.')).toBeVisible();
  await card.getByLabel('ICCID').fill('12345');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByText('An ICCID has 19 or 20 digits')).toBeVisible();
  await card.getByLabel('ICCID').fill('89860012345678901234');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByRole('button', { name: 'Ask the SIM provider' })).toBeVisible();

  // No provider account is configured on this server: the page says so and where to add one.
  await card.getByRole('button', { name: 'Ask the SIM provider' }).click();
  await expect(card.getByText(/No SIM provider account is configured/)).toBeVisible();

  await page.reload();
  await page.getByRole('tab', { name: 'SIM card' }).click();
  await expect(page.getByRole('tabpanel', { name: 'SIM card' }).getByLabel('ICCID')).toHaveValue('89860012345678901234');
});

test('a device gets a hardware row of its own, checked by the Modbus rules and shown with its read request', async ({ page }) => {
  await page.goto('/login');
  await signIn(page, ADMIN);
  await page.goto('/common/home/device/SL0000000201');

  await page.getByRole('tab', { name: 'Hardware' }).click();
  const hardware = page.getByRole('tabpanel', { name: 'Hardware' });
  await hardware.getByRole('button', { name: 'Add hardware row' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add hardware row' });
  // The library's inflow point (the list can re-render under the pointer: pick again until chosen).
  let attempts = 0;
  await expect(async () => {
    const open = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
    if (attempts++ > 0 && (await open.count()) > 0) await page.keyboard.press('Escape');
    await dialog.getByLabel('Data point', { exact: true }).click();
    await page.keyboard.type('Inflow');
    await page
      .getByTitle(/^Inflow · /)
      .filter({ visible: true })
      .last()
      .click();
    await expect(dialog.getByTitle(/^Inflow · /)).toBeVisible({ timeout: 5000 });
  }).toPass({ timeout: 60_000 });
  await dialog.getByLabel('No.').fill('AI09');
  // The slave address is refused by the shared rule before anything is sent.
  await dialog.getByLabel('Modbus slave').fill('248');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('A Modbus slave address is 1–247')).toBeVisible();
  // A right one: the read request and its CRC16 are previewed, then shown in the row as the server computed them.
  await dialog.getByLabel('Modbus slave').fill('2');
  await expect(dialog.getByText('02 03 00 00 00 01 84 39')).toBeVisible();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(hardware.getByRole('row', { name: /AI09/ })).toContainText('02 03 00 00 00 01 84 39');
});
