import { expect, test } from '@playwright/test';
import { ADMIN, png, signIn } from './fixtures.ts';

test.use({ locale: 'en-US' });

test('a project, a station and a device: created, on the map and in the lists, migrated, deleted and restored; a cover image and a device image cropped and uploaded', async ({
  page,
}) => {
  const stamp = String(Date.now()).slice(-6);
  const project = `E2E project ${stamp}`;
  const station = `E2E station ${stamp}`;
  const device = `E2E pump ${stamp}`;

  await page.goto('/login');
  await signIn(page, ADMIN);

  // A project from the projects list.
  await page.goto('/common/app/project');
  await page.getByRole('button', { name: 'New project' }).click();
  const projectDialog = page.getByRole('dialog', { name: 'New project' });
  await projectDialog.getByLabel('Name').fill(project);
  await projectDialog.getByLabel('Position (longitude,latitude)').fill('119.7001,30.6501');
  await projectDialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('article', { name: project })).toBeVisible();

  // A station in it, from the project's page on home.
  await page.getByRole('article', { name: project }).click();
  await expect(page).toHaveURL(/\/common\/home\/project\/\d+$/);
  await page.getByRole('button', { name: 'New station' }).click();
  const stationDialog = page.getByRole('dialog', { name: 'New station' });
  await stationDialog.getByLabel('Name').fill(station);
  await stationDialog.getByLabel('Position (longitude,latitude)').fill('119.7101,30.6601');
  await stationDialog.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('link', { name: new RegExp(station) }).click();
  await expect(page).toHaveURL(/\/common\/home\/station\/\d+$/);
  const stationUrl = new URL(page.url()).pathname;

  // A device in the station; its credential is shown once.
  await page.getByRole('button', { name: 'New device' }).click();
  const deviceDialog = page.getByRole('dialog', { name: 'New device' });
  await deviceDialog.getByLabel('Device name').fill(device);
  await deviceDialog.getByRole('button', { name: 'Save' }).click();
  const credential = page.getByRole('dialog', { name: 'Device credential' });
  await expect(credential.getByText('MQTT password')).toBeVisible();
  await credential.getByRole('button', { name: 'I have copied it' }).click();

  // On the map (at its station's position) and in the device list.
  await page.goto('/common/home');
  const map = page.getByRole('region', { name: 'Map of stations and devices' });
  await expect(map).toHaveAttribute('data-points', /\d+/);
  await page.goto(stationUrl);
  // The device stands at its station's position: one cluster of the two, until zoomed in far.
  await expect(map.getByRole('button', { name: /^2 places here/ })).toBeAttached();
  await page.goto('/common/app/device');
  await page.getByRole('searchbox', { name: 'Search by name or serial number' }).fill(device);
  await page.getByRole('searchbox', { name: 'Search by name or serial number' }).press('Enter');
  const card = page.getByRole('article', { name: `${device}, Offline` });
  await expect(card).toBeVisible();

  // Migrated to the first demo station, with the move in its history.
  await page.getByRole('button', { name: `Migrate ${device}` }).click();
  const migrate = page.getByRole('dialog', { name: `Migrate ${device}` });
  await migrate.getByLabel('Move to').click();
  await page
    .getByRole('tree')
    .getByText(/青山一站/)
    .click();
  await migrate.getByRole('button', { name: 'Migrate' }).click();
  await expect(migrate).toBeHidden();
  await expect(card).toContainText('青山一站');

  // Deleted to the recycle bin, then restored.
  await page.getByRole('button', { name: `Delete ${device}` }).click();
  await page
    .getByRole('dialog', { name: `Delete ${device}?` })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(card).toBeHidden();
  await page.goto('/device/recyclebin');
  const row = page.getByRole('row', { name: new RegExp(device) });
  await expect(row).toContainText('admin');
  await row.getByRole('button', { name: `Restore ${device}` }).click();
  await expect(row).toBeHidden();
  await page.goto('/common/app/device');
  await page.getByRole('searchbox', { name: 'Search by name or serial number' }).fill(device);
  await page.getByRole('searchbox', { name: 'Search by name or serial number' }).press('Enter');
  await expect(page.getByRole('article', { name: `${device}, Offline` })).toBeVisible();

  // A cover image for the project, cropped in the dialog and uploaded.
  await page.goto('/common/app/project');
  await page.getByRole('article', { name: project }).click();
  await page.getByRole('tab', { name: 'Images' }).click();
  await page.getByRole('button', { name: 'Upload image' }).click();
  const cropper = page.getByRole('dialog', { name: `Image of ${project}` });
  await cropper.getByLabel('Choose an image').setInputFiles({
    name: 'cover.png',
    mimeType: 'image/png',
    buffer: png(500, 200),
  });
  await expect(cropper.getByRole('group', { name: 'Crop area' }).locator('img')).toBeVisible();
  await cropper.getByRole('button', { name: 'Rotate right' }).click();
  await cropper.getByRole('button', { name: 'Reset' }).click();
  await cropper.getByRole('button', { name: 'Upload' }).click();
  await expect(cropper).toBeHidden();
  await expect(page.getByText('Cover', { exact: true })).toBeVisible();

  // A device image, cropped 4:3 in the same dialog: a square picture comes out 4:3.
  await page.goto('/common/app/device');
  await page.getByRole('searchbox', { name: 'Search by name or serial number' }).fill(device);
  await page.getByRole('searchbox', { name: 'Search by name or serial number' }).press('Enter');
  await page.getByRole('article', { name: `${device}, Offline` }).click();
  await expect(page).toHaveURL(/\/common\/home\/device\/\w+$/);
  await page.getByRole('tab', { name: 'Images' }).click();
  await page.getByRole('button', { name: 'Upload image' }).click();
  const deviceCropper = page.getByRole('dialog', { name: `Image of ${device}` });
  await expect(deviceCropper.getByText('png, jpeg, bmp, at most 5 MB')).toBeVisible();
  await deviceCropper
    .getByLabel('Choose an image')
    .setInputFiles({ name: 'pump.png', mimeType: 'image/png', buffer: png(300, 300) });
  await expect(deviceCropper.getByRole('group', { name: 'Crop area' }).locator('img')).toBeVisible();
  await deviceCropper.getByRole('button', { name: 'Upload' }).click();
  await expect(deviceCropper).toBeHidden();
  const uploaded = page.getByRole('img', { name: `${device}, image 1` });
  await expect(uploaded).toBeVisible();
  await expect
    .poll(() => uploaded.evaluate((img: HTMLImageElement) => (img.naturalHeight > 0 ? img.naturalWidth / img.naturalHeight : 0)))
    .toBeCloseTo(4 / 3, 2);
});

test('regions on /sys/areaset: added with a rectangle drawn on the map, renamed, searched and deleted', async ({ page }) => {
  const stamp = String(Date.now()).slice(-6);
  const region = `E2E region ${stamp}`;

  await page.goto('/login');
  await signIn(page, ADMIN);
  await page.goto('/sys/areaset');
  await expect(page.getByRole('heading', { name: 'Area set' })).toBeVisible();

  // A region with a rectangle drawn with the map's tool.
  await page.getByRole('button', { name: 'New region' }).click();
  const dialog = page.getByRole('dialog', { name: 'New region' });
  await dialog.getByLabel('Name').fill(region);
  await dialog.getByLabel('Region code').fill(`R${stamp}`);
  await expect(dialog.getByText('No shape drawn')).toBeVisible();
  const map = dialog.getByRole('region', { name: 'Map to draw the region on' });
  await map.getByTitle('Draw Rectangle').click();
  const box = await map.boundingBox();
  if (!box) throw new Error('the map has no size');
  await page.mouse.click(box.x + box.width * 0.4, box.y + box.height * 0.4);
  await page.mouse.click(box.x + box.width * 0.6, box.y + box.height * 0.6);
  await expect(dialog.getByText('Shape: Rectangle')).toBeVisible();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row', { name: new RegExp(region) });
  await expect(row).toContainText('Rectangle');
  await expect(row).toContainText(/\d+\.\d+,\d+\.\d+/);

  // Renamed in the edit dialog, which names it.
  await row.getByRole('button', { name: `Edit ${region}` }).click();
  const edit = page.getByRole('dialog', { name: `Edit ${region}` });
  await expect(edit.getByText('Shape: Rectangle')).toBeVisible();
  await edit.getByLabel('Name').fill(`${region} B`);
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();

  // Found by search, then deleted after a confirmation.
  await page.getByRole('searchbox', { name: 'Search' }).fill(`${region} B`);
  const renamed = page.getByRole('row', { name: new RegExp(`${region} B`) });
  await expect(renamed).toContainText('Rectangle');
  await renamed.getByRole('button', { name: `Delete ${region} B` }).click();
  await page
    .getByRole('dialog', { name: `Delete “${region} B”?` })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(renamed).toBeHidden();
});
