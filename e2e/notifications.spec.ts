/**
 * Alarm notifications in the browser: an administrator adds a webhook channel pointing at a
 * receiver this test runs, a rule sending every alarm to it, and quiet hours (the rule urgent,
 * so they do not hold it); an alarm raised on a demo device reaches the receiver signed, and the
 * delivery history shows it sent.
 */
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, choose, openFromMenu, signIn } from './fixtures.ts';

test.use({ locale: 'en-US' });

const SECRET = 'e2e-webhook-secret-0123';
/** A demo device the demo fleet leaves alone. */
const SN = 'SL0000000601';

async function api<T>(page: Page, method: 'GET' | 'POST', path: string, data?: unknown): Promise<T> {
  const token = (await page.context().cookies()).find((c) => c.name === 'token')?.value ?? '';
  const res = await page.request.fetch(`/api${path}`, { method, data, headers: { authorization: `Bearer ${token}` } });
  expect(res.ok(), `${method} ${path}: ${await res.text()}`).toBe(true);
  return ((await res.json()) as { data: T }).data;
}

test('an alarm reaches a webhook set up in the console, and the delivery history shows it sent', async ({ page }) => {
  const received: { body: string; valid: boolean }[] = [];
  const receiver: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const ts = String(req.headers['x-sluice-timestamp']);
      const expected = `sha256=${createHmac('sha256', SECRET).update(`${ts}.${body}`).digest('hex')}`;
      received.push({ body, valid: req.headers['x-sluice-signature'] === expected });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;
  const suffix = Date.now().toString(36);

  try {
    await page.goto('/login');
    await signIn(page, ADMIN);

    // The channel, from the side menu.
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await nav.getByRole('menuitem', { name: 'Notice Manager' }).click();
    await openFromMenu(page, 'Notification channels');
    await page.getByRole('button', { name: 'Add channel' }).click();
    const addChannel = page.getByRole('dialog', { name: 'Add channel' });
    await addChannel.getByLabel('Name').fill(`Duty system ${suffix}`);
    await expect(addChannel.getByLabel('Webhook URL')).toBeVisible();
    await expect(addChannel.getByLabel('SMTP server')).toHaveCount(0);
    await addChannel.getByLabel('Webhook URL').fill('ftp://nowhere');
    await addChannel.getByLabel('Signing secret').fill(SECRET);
    await addChannel.getByRole('button', { name: 'Save' }).click();
    await expect(addChannel.getByText('Enter an http:// or https:// address')).toBeVisible();
    await addChannel.getByLabel('Webhook URL').fill(`http://127.0.0.1:${String(port)}/alarms`);
    await addChannel.getByRole('button', { name: 'Save' }).click();
    await expect(addChannel).toBeHidden();
    const channelRow = page.getByRole('row', { name: new RegExp(`Duty system ${suffix}`) });
    await expect(channelRow).toContainText('••••••0123');
    await expect(channelRow).not.toContainText(SECRET);

    // The rule: every alarm, at once, urgent.
    await openFromMenu(page, 'Notification rules');
    await page.getByRole('button', { name: 'Add rule' }).click();
    const addRule = page.getByRole('dialog', { name: 'Add rule' });
    await addRule.getByLabel('Name').fill(`Everything ${suffix}`);
    await choose(page, addRule.getByLabel('Channel'), new RegExp(`Duty system ${suffix}`));
    await addRule.getByRole('switch', { name: 'Urgent' }).click();
    await addRule.getByRole('button', { name: 'Save' }).click();
    await expect(addRule).toBeHidden();
    const ruleRow = page.getByRole('row', { name: new RegExp(`Everything ${suffix}`) });
    await expect(ruleRow).toContainText('Every warn type');
    await expect(ruleRow).toContainText('Urgent');

    // Quiet hours all day long: the urgent rule still delivers.
    await page.getByRole('button', { name: /Quiet hours/ }).click();
    const quiet = page.getByRole('dialog', { name: 'Quiet hours' });
    await quiet.getByRole('switch', { name: 'Hold notifications that are not urgent' }).click();
    await quiet.getByLabel('From').fill('00:00');
    await quiet.getByLabel('Until').fill('23:59');
    await quiet.getByRole('button', { name: 'Save' }).click();
    await expect(quiet).toBeHidden();
    await expect(page.getByRole('button', { name: 'Quiet hours: 00:00–23:59' })).toBeVisible();

    // An alarm raised by hand on a demo device goes out at once.
    const codes = await api<{ Code: string }[]>(page, 'GET', '/WarnCode/GetWarnCode');
    const code = codes[0]?.Code ?? '';
    await api(page, 'POST', '/Warn/WarnAdd', { DeviceSn: SN, Code: code, Comments: `e2e ${suffix}` });
    await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(received.every((r) => r.valid)).toBe(true);
    expect(JSON.parse(received[0]?.body ?? '{}')).toMatchObject({ Event: 'alarm.opened', Alarm: { DeviceSn: SN, Code: code } });

    await openFromMenu(page, 'Delivery history');
    const sent = page.getByRole('row', { name: new RegExp(`${code}.*Duty system ${suffix}`) }).first();
    await expect(sent).toContainText('Sent');
  } finally {
    // Leave the demo as it was for other tests: no quiet hours, and the rule and channel gone.
    const token = (await page.context().cookies()).find((c) => c.name === 'token')?.value ?? '';
    const call = (method: 'GET' | 'PUT' | 'DELETE', path: string, data?: unknown) =>
      page.request.fetch(`/api${path}`, { method, data, headers: { authorization: `Bearer ${token}` } });
    await call('PUT', '/NotifySettings/QuietHours', { Enabled: false, Start: '22:00', End: '07:00' }).catch(() => undefined);
    const idOf = async (path: string) =>
      ((await (await call('GET', `${path}?Search=${suffix}`)).json()) as { data?: { Id: number }[] }).data?.[0]?.Id;
    const rule = await idOf('/NotifyRule').catch(() => undefined);
    if (rule) await call('DELETE', `/NotifyRule/${String(rule)}`).catch(() => undefined);
    const channel = await idOf('/NotifyChannel').catch(() => undefined);
    if (channel) await call('DELETE', `/NotifyChannel/${String(channel)}`).catch(() => undefined);
    await new Promise((resolve) => receiver.close(resolve));
  }
});
