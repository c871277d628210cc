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

const port = Number(process.env.E2E_PORT ?? 3210);
const videoPort = port + 2;
/** The ezuikit-js version the server serves (apps/server/package.json pins it). */
const KIT_VERSION = '9.0.22';
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

  // The list is 20 % of the panel wide (at least 180 px, at most 320 px), pinned open.
  const list = panel.getByRole('navigation', { name: 'Camera list' });
  const panelBox = await panel.boundingBox();
  const listBox = await list.boundingBox();
  if (!panelBox || !listBox) throw new Error('the panel has no box');
  expect(Math.abs(listBox.width - Math.min(320, Math.max(180, panelBox.width * 0.2)))).toBeLessThanOrEqual(1);
  // Unpinned, it folds to a strip at the panel's edge and opens while the pointer is on it.
  await panel.getByRole('button', { name: 'Show the list on hover' }).click();
  // (the pin button keeps the keyboard focus, which holds the list open too: click the player's side)
  await page.mouse.click(panelBox.x + panelBox.width - 10, panelBox.y + panelBox.height - 10);
  await expect.poll(async () => (await list.boundingBox())?.x ?? 0).toBeLessThan(panelBox.x - 100);
  await page.mouse.move(panelBox.x + 5, panelBox.y + 40);
  await expect.poll(async () => Math.round((await list.boundingBox())?.x ?? 0)).toBe(Math.round(panelBox.x));
  await panel.getByRole('button', { name: 'Keep the list open' }).click();

  // Edited: a new name.
  await panel.getByRole('button', { name: 'Edit Yard stream' }).click();
  const edit = page.getByRole('dialog', { name: /Edit/ });
  await edit.getByLabel('Name').fill('Yard stream 2');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await panel.getByRole('button', { name: 'Yard stream 2', exact: true }).click();
  await expect(panel.getByText('Playing', { exact: true })).toBeVisible();
  await expect.poll(() => videoTime(page)).toBeGreaterThan(1);
  await panel.getByRole('button', { name: 'Stop' }).click();
  await expect(panel.getByText('Stopped', { exact: true })).toBeVisible();

  await panel.getByRole('button', { name: 'Delete Yard stream 2' }).click();
  await expect(page.getByText('Delete the camera “Yard stream 2”?')).toBeVisible();
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

  // The dialog's defaults: SD card, today 00:00:00 to 23:59:59; a start after the end is refused.
  await panel.getByRole('button', { name: 'Playback' }).click();
  const choose = page.getByRole('dialog', { name: 'Choose playback time and type' });
  const today = new Date();
  const day = `${String(today.getFullYear())}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
  await expect(choose.getByRole('radio', { name: 'SD card / NVR' })).toBeChecked();
  await expect(choose.getByLabel('Start time')).toHaveValue(`${day} 00:00:00`);
  await expect(choose.getByLabel('End time')).toHaveValue(`${day} 23:59:59`);
  await choose.getByLabel('End time').click();
  await choose.getByLabel('End time').fill(`${day} 00:00:00`);
  await choose.getByLabel('End time').press('Enter');
  await choose.getByLabel('Start time').click();
  await choose.getByLabel('Start time').fill(`${day} 01:00:00`);
  await choose.getByLabel('Start time').press('Enter');
  await choose.getByRole('button', { name: 'Confirm' }).click();
  await expect(choose.getByText('The start must not be after the end').first()).toBeVisible();
  await choose.getByRole('button', { name: 'Cancel' }).click();
  await expect(choose).toBeHidden();

  // Cloud storage holds nothing: said so.
  await panel.getByRole('button', { name: 'Playback' }).click();
  await expect(choose.getByLabel('Start time')).toHaveValue(`${day} 00:00:00`);
  await choose.getByText('Cloud storage').click();
  await choose.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Playback failed: no recorded segments found')).toBeVisible();

  // The SD card's recordings of today (default range): the time line, playing from the first segment.
  await panel.getByRole('button', { name: 'Playback' }).click();
  await choose.getByRole('button', { name: 'Confirm' }).click();
  const timeline = panel.getByTestId('video-timeline');
  await expect(timeline).toBeVisible();
  expect((await timeline.boundingBox())?.height).toBe(48);
  await expect(timeline).toHaveAttribute('aria-valuetext', /2 recorded segments/);
  await expect(panel.getByTestId('video-elapsed')).toContainText(/At \d{4}-\d{2}-\d{2} 01:00:/);

  // A click at 14:30 restarts playback there.
  const box = await timeline.boundingBox();
  if (!box) throw new Error('the time line has no box');
  await timeline.click({ position: { x: box.width * (14.5 / 24), y: box.height / 2 } });
  await expect(panel.getByTestId('video-elapsed')).toContainText(/At \d{4}-\d{2}-\d{2} 14:(2|3)\d:/);
  await expect.poll(() => videoTime(page)).toBeGreaterThan(0.5);

  await deleteCamera(page, panel, 'Inlet camera');
});

const EZOPEN = `ezopen://open.ys7.com/${E2E_EZVIZ.serial}/1.live`;

async function addEzopenCamera(page: Page, panel: ReturnType<Page['getByTestId']>, name: string, address = EZOPEN) {
  await panel.getByRole('button', { name: 'Add camera' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add camera' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByText('EZVIZ cloud').click();
  await dialog.getByLabel('Serial number').fill(/\/([^/]+)\/\d+\./.exec(address)?.[1] ?? '');
  // Not an ezopen:// address: refused with the rule.
  await dialog.getByLabel('ezopen address').fill('https://open.ys7.com/live.m3u8');
  await dialog.getByLabel('App key').fill(E2E_EZVIZ.appKey);
  await dialog.getByLabel('App secret').fill(E2E_EZVIZ.appSecret);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Enter an ezopen:// address')).toBeVisible();
  await dialog.getByLabel('ezopen address').fill(address);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
}

async function deleteCamera(page: Page, panel: ReturnType<Page['getByTestId']>, name: string) {
  await panel.getByRole('button', { name: `Delete ${name}` }).click();
  const confirm = page.locator('.ant-popconfirm').filter({ hasText: `Delete the camera “${name}”?` });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Yes' }).click();
  await expect(panel.getByRole('button', { name, exact: true })).toHaveCount(0);
}

test('an ezopen:// camera plays in EZVIZ’s real player kit, served by the console, with its address, token and platform', async ({
  page,
}) => {
  const platform = `http://127.0.0.1:${String(videoPort + 1)}`;
  const fromPlatform: { url: string; body: string }[] = [];
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(platform)) fromPlatform.push({ url: request.url(), body: request.postData() ?? '' });
    if (['script', 'fetch', 'xhr', 'other'].includes(request.resourceType()) && /ezuikit/i.test(request.url()))
      scripts.push(request.url());
  });
  const sockets: string[] = [];
  page.on('websocket', (socket) => {
    sockets.push(socket.url());
  });
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  const panel = await openVideoTab(page);
  await addEzopenCamera(page, panel, 'Kit camera');
  // Nothing of the kit, nor hls.js, is loaded before a camera plays.
  expect(scripts).toEqual([]);
  expect(
    await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => /\/hls-[^/]*\.js$/.test(e.name)).length),
  ).toBe(0);

  const tokenAnswer = page.waitForResponse((response) => /\/DeviceVideo\/\d+\/Token$/.test(new URL(response.url()).pathname));
  await panel.getByRole('button', { name: 'Kit camera', exact: true }).click();
  const token = ((await (await tokenAnswer).json()) as { data: { AccessToken: string } }).data.AccessToken;
  expect(token).not.toBe('');

  // The kit's player, in our box, constructed with our settings (the kit keeps it at window.EZUIKit[id].player).
  const id = await panel.getByTestId('ezviz-kit').getAttribute('id');
  await expect
    .poll(() =>
      page.evaluate(
        (boxId) =>
          (window as unknown as { EZUIKit?: Record<string, { player?: unknown }> }).EZUIKit?.[boxId ?? '']?.player !== undefined,
        id,
      ),
    )
    .toBe(true);
  const params = await page.evaluate((boxId) => {
    const kit = (window as unknown as { EZUIKit: Record<string, { player: { params: Record<string, unknown> } }> }).EZUIKit;
    const { url, accessToken, env, staticPath, template, language, audio } = kit[boxId ?? '']?.player.params ?? {};
    return { url, accessToken, env, staticPath, template, language, audio };
  }, id);
  expect(params).toEqual({
    url: EZOPEN,
    accessToken: token,
    env: { domain: platform },
    staticPath: `/ezuikit/${KIT_VERSION}/ezuikit_static`,
    template: 'pcLive',
    language: 'en',
    audio: false,
  });

  // It asks the platform for the stream's address with the camera's token and address, and then
  // opens a WebSocket to the stream server the platform answered; the fake speaks no stream
  // protocol, so the console says the stream failed, in the kit's words, and offers a refresh.
  const alert = panel.getByRole('alert').filter({ hasText: 'Playback failed! Please refresh' });
  await expect(alert).toBeVisible({ timeout: 60_000 });
  const ask = fromPlatform.find((call) => call.url === `${platform}/api/lapp/live/url/ezopen`);
  expect(ask?.body).toContain(`name="accessToken"\r\n\r\n${token}\r\n`);
  expect(ask?.body).toContain(`name="ezopen"\r\n\r\n${EZOPEN}\r\n`);
  // (the kit speaks to the stream server's host and port; what to stream travels inside its protocol)
  expect(sockets.some((url) => url.startsWith(`ws://127.0.0.1:${String(videoPort + 1)}/`))).toBe(true);
  // Everything of the kit came from the console's own server, and the page's CSP refused nothing.
  expect(scripts.length).toBeGreaterThan(0);
  for (const url of scripts) expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${String(port)}/ezuikit/${KIT_VERSION}/`));
  expect(scripts.some((url) => url.includes('/ezuikit_static/'))).toBe(true);
  expect(refused).toEqual([]);

  await panel.getByRole('button', { name: 'Stop' }).click();
  await expect(panel.getByTestId('ezviz-kit')).toHaveCount(0);
  await deleteCamera(page, panel, 'Kit camera');
});

test('an ezopen:// camera the platform says is offline shows the platform’s reason', async ({ page }) => {
  const panel = await openVideoTab(page);
  await addEzopenCamera(page, panel, 'Offline kit camera', `ezopen://open.ys7.com/${E2E_EZVIZ.offlineSerial}/1.live`);
  await panel.getByRole('button', { name: 'Offline kit camera', exact: true }).click();
  const alert = panel.getByRole('alert').filter({ hasText: 'Playback failed! Please refresh' });
  await expect(alert).toContainText('设备不在线');
  await deleteCamera(page, panel, 'Offline kit camera');
});

test('when EZVIZ’s player kit cannot be loaded, the camera says so and plays its HLS address', async ({ page }) => {
  // The kit's script cannot be fetched (a proxy in the way, a server without its copy).
  await page.route('**/ezuikit/*/ezuikit.js', (route) => route.abort('connectionrefused'));
  const panel = await openVideoTab(page);
  await addEzopenCamera(page, panel, 'Blocked kit camera');
  await panel.getByRole('button', { name: 'Blocked kit camera', exact: true }).click();
  await expect(panel.getByText('EZVIZ’s web player could not be loaded; playing the camera’s HLS stream instead')).toBeVisible();
  await expect.poll(() => videoTime(page)).toBeGreaterThan(0.5);
  await deleteCamera(page, panel, 'Blocked kit camera');
});

test('the demo camera plays from the server itself, without the internet, in the camera panel of its device’s dashboard', async ({
  page,
}) => {
  await page.goto('/login');
  await signIn(page, ADMIN);
  await page.goto('/common/home/device/SL0000000101');
  // The device's camera video panel (type 6) on its grid, holding the video panel.
  const panel = page.getByRole('region', { name: 'Video', exact: true }).getByTestId('video-panel');
  await panel.getByRole('button', { name: '青山一站 进水口', exact: true }).click();
  await expect(panel.getByText('Playing', { exact: true })).toBeVisible();
  const start = await videoTime(page);
  await expect.poll(() => videoTime(page)).toBeGreaterThan(start + 1);
});
