/**
 * Cameras on a device's page: a generic HLS camera (a test pattern ffmpeg made, served from this
 * machine by e2e/video-server.ts) is added, plays (the video element's time advances) and is
 * deleted after the confirmation; an EZVIZ camera (over the fake platform) plays back with the
 * time line of its recordings and jumps where the time line is clicked.
 * An EZVIZ camera with an ezopen:// address plays in EZVIZ's web player kit (a stand-in served by
 * e2e/video-server.ts, which keeps the settings it was given), or, when the kit is blocked, says
 * so and plays the camera's HLS address.
 * The demo's own camera (served by the server at /demo/video) plays too.
 */
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, signIn } from './fixtures.ts';
import { E2E_EZVIZ } from './video-server.ts';

const videoPort = Number(process.env.E2E_PORT ?? 3210) + 2;
const DEVICE = 'SL0000000103';

async function openVideoTab(page: Page) {
  await page.goto('/login');
  await signIn(page, ADMIN);
  await page.goto(`/common/home/device/${DEVICE}`);
  await page.getByRole('tab', { name: 'Video' }).click();
  return page.getByTestId('video-panel');
}

/** The video element's current time, in seconds. */
const videoTime = (page: Page) => page.getByTestId('camera-video').evaluate((video) => (video as HTMLVideoElement).currentTime);

test('a generic HLS camera is added, plays, and is deleted after the confirmation', async ({ page }) => {
  const panel = await openVideoTab(page);
  await expect(panel.getByText('Please select or add a camera from the left list')).toBeVisible();
  await expect(
    panel.getByRole('navigation', { name: 'Camera list' }).locator('.ant-empty-description', { hasText: 'No data' }),
  ).toBeVisible();

  await panel.getByRole('button', { name: 'Add camera' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add camera' });
  await dialog.getByLabel('Name').fill('Yard stream');
  // A wrong address is refused with the rule before anything is sent.
  await dialog.getByLabel('HLS address').fill('rtsp://camera/stream');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Enter an http:// or https:// address')).toBeVisible();
  await dialog.getByLabel('HLS address').fill(`http://127.0.0.1:${String(videoPort)}/live/index.m3u8`);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  await panel.getByRole('button', { name: 'Yard stream', exact: true }).click();
  await expect(panel.getByText('Playing', { exact: true })).toBeVisible();
  await expect.poll(() => videoTime(page)).toBeGreaterThan(1);
  await panel.getByRole('button', { name: 'Stop' }).click();
  await expect(panel.getByText('Stopped', { exact: true })).toBeVisible();

  await panel.getByRole('button', { name: 'Delete Yard stream' }).click();
  await expect(page.getByText('Delete the camera “Yard stream”?')).toBeVisible();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(
    panel.getByRole('navigation', { name: 'Camera list' }).locator('.ant-empty-description', { hasText: 'No data' }),
  ).toBeVisible();
  await expect(panel.getByText('Please select or add a camera from the left list')).toBeVisible();
});

test('an EZVIZ camera plays back with the time line of its recordings and jumps where it is clicked', async ({ page }) => {
  const panel = await openVideoTab(page);
  await panel.getByRole('button', { name: 'Add camera' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add camera' });
  await dialog.getByLabel('Name').fill('Inlet camera');
  await dialog.getByText('EZVIZ cloud').click();
  await dialog.getByLabel('Serial number').fill(E2E_EZVIZ.serial);
  await dialog.getByLabel('App key').fill(E2E_EZVIZ.appKey);
  await dialog.getByLabel('App secret').fill(E2E_EZVIZ.appSecret);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  // Live first: the token, then the platform's HLS address.
  await panel.getByRole('button', { name: 'Inlet camera', exact: true }).click();
  await expect.poll(() => videoTime(page)).toBeGreaterThan(0.5);

  // Cloud storage holds nothing: said so.
  await panel.getByRole('button', { name: 'Playback' }).click();
  const choose = page.getByRole('dialog', { name: 'Choose playback time and type' });
  await choose.getByText('Cloud storage').click();
  await choose.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Playback failed: no recorded segments found')).toBeVisible();

  // The SD card's recordings of today (default range): the time line, playing from the first segment.
  await panel.getByRole('button', { name: 'Playback' }).click();
  await choose.getByRole('button', { name: 'Confirm' }).click();
  const timeline = panel.getByTestId('video-timeline');
  await expect(timeline).toBeVisible();
  await expect(timeline).toHaveAttribute('aria-valuetext', /2 recorded segments/);
  await expect(panel.getByTestId('video-elapsed')).toContainText(/At \d{4}-\d{2}-\d{2} 01:00:/);

  // A click at 14:30 restarts playback there.
  const box = await timeline.boundingBox();
  if (!box) throw new Error('the time line has no box');
  await timeline.click({ position: { x: box.width * (14.5 / 24), y: box.height / 2 } });
  await expect(panel.getByTestId('video-elapsed')).toContainText(/At \d{4}-\d{2}-\d{2} 14:(2|3)\d:/);
  await expect.poll(() => videoTime(page)).toBeGreaterThan(0.5);

  await panel.getByRole('button', { name: 'Delete Inlet camera' }).click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(
    panel.getByRole('navigation', { name: 'Camera list' }).locator('.ant-empty-description', { hasText: 'No data' }),
  ).toBeVisible();
});

const EZOPEN = `ezopen://open.ys7.com/${E2E_EZVIZ.serial}/1.live`;

async function addEzopenCamera(page: Page, panel: ReturnType<Page['getByTestId']>, name: string) {
  await panel.getByRole('button', { name: 'Add camera' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add camera' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByText('EZVIZ cloud').click();
  await dialog.getByLabel('Serial number').fill(E2E_EZVIZ.serial);
  // Not an ezopen:// address: refused with the rule.
  await dialog.getByLabel('ezopen address').fill('https://open.ys7.com/live.m3u8');
  await dialog.getByLabel('App key').fill(E2E_EZVIZ.appKey);
  await dialog.getByLabel('App secret').fill(E2E_EZVIZ.appSecret);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Enter an ezopen:// address')).toBeVisible();
  await dialog.getByLabel('ezopen address').fill(EZOPEN);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
}

async function deleteCamera(page: Page, panel: ReturnType<Page['getByTestId']>, name: string) {
  await panel.getByRole('button', { name: `Delete ${name}` }).click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(
    panel.getByRole('navigation', { name: 'Camera list' }).locator('.ant-empty-description', { hasText: 'No data' }),
  ).toBeVisible();
}

test('an ezopen:// camera plays in EZVIZ’s player kit with its address, token and platform', async ({ page }) => {
  const panel = await openVideoTab(page);
  await addEzopenCamera(page, panel, 'Kit camera');

  const tokenAnswer = page.waitForResponse((response) => /\/DeviceVideo\/\d+\/Token$/.test(new URL(response.url()).pathname));
  await panel.getByRole('button', { name: 'Kit camera', exact: true }).click();
  const token = ((await (await tokenAnswer).json()) as { data: { AccessToken: string } }).data.AccessToken;
  expect(token).not.toBe('');
  await expect(panel.getByTestId('ezviz-kit')).toHaveText(`Fake EZVIZ kit: ${EZOPEN}`);
  await expect(panel.getByText('Playing', { exact: true })).toBeVisible();
  const players = await page.evaluate(() => (window as unknown as { fakeEzvizKit: { players: unknown[] } }).fakeEzvizKit.players);
  expect(players).toHaveLength(1);
  expect(players[0]).toMatchObject({
    url: EZOPEN,
    accessToken: token,
    env: { domain: `http://127.0.0.1:${String(videoPort + 1)}` },
    template: 'pcLive',
  });

  await panel.getByRole('button', { name: 'Stop' }).click();
  await expect(panel.getByTestId('ezviz-kit')).toHaveCount(0);
  await deleteCamera(page, panel, 'Kit camera');
});

test('when EZVIZ’s player kit cannot be loaded, the camera says so and plays its HLS address', async ({ page }) => {
  // The kit's origin is unreachable (blocked, offline).
  await page.route('**/kit/ezuikit.js', (route) => route.abort('connectionrefused'));
  const panel = await openVideoTab(page);
  await addEzopenCamera(page, panel, 'Kit camera');
  await panel.getByRole('button', { name: 'Kit camera', exact: true }).click();
  await expect(panel.getByText('EZVIZ’s web player could not be loaded; playing the camera’s HLS stream instead')).toBeVisible();
  await expect.poll(() => videoTime(page)).toBeGreaterThan(0.5);
  await deleteCamera(page, panel, 'Kit camera');
});

test('the demo camera plays from the server itself, without the internet', async ({ page }) => {
  await page.goto('/login');
  await signIn(page, ADMIN);
  await page.goto('/common/home/device/SL0000000101');
  await page.getByRole('tab', { name: 'Video' }).click();
  const panel = page.getByTestId('video-panel');
  await panel.getByRole('button', { name: '青山一站 进水口', exact: true }).click();
  await expect(panel.getByText('Playing', { exact: true })).toBeVisible();
  const start = await videoTime(page);
  await expect.poll(() => videoTime(page)).toBeGreaterThan(start + 1);
});
