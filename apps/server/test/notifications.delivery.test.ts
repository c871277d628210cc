/**
 * Alarm notifications delivered for real, to receivers started here that speak the protocols:
 * an HTTP server taking the webhook (its HMAC checked as a receiver would), an SMTP server
 * (smtp-server, with a password), and a fake SMS provider checking the SendSms signature. Alarms
 * open through the alarms service as ingestion opens them; the job's tick is called with the
 * time each step needs (escalation after 30 minutes, back-off, quiet hours), never waited for.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { NotifyDeliveryDto } from '@sluice/shared/notify.schema';
import { createTestApp, databaseKinds, type TestApp, type Users } from './harness.ts';
import { buildSites, buildUser, buildWarnCode, buildWarnType } from './factories.ts';
import { smsSignature } from '../src/modules/notifications/channels/sms.channel.ts';
import type { KnownDevice } from '../src/modules/telemetry/device-directory.ts';

const MINUTE = 60_000;
const WEBHOOK_SECRET = 'whsec-0123456789abcdef';
const SMS_SECRET = 'sms-secret-0123456789';

interface Mail {
  from: string;
  to: string[];
  raw: string;
}

const bodyOf = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });

const listen = (server: Server) =>
  new Promise<number>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve((server.address() as AddressInfo).port);
    });
  });

describe.each(databaseKinds)('alarm notifications on %s', (kind) => {
  let t: TestApp;
  let users: Users;
  let groupId: number;
  const devices = new Map<string, KnownDevice>();

  // The webhook receiver: answers the next status of `webhookStatuses` (200 when none is left).
  const hooks: { headers: IncomingMessage['headers']; body: string; signatureValid: boolean }[] = [];
  const webhookStatuses: number[] = [];
  const webhook = createServer((req, res) => {
    void bodyOf(req).then((body) => {
      const ts = String(req.headers['x-sluice-timestamp']);
      const expected = `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(`${ts}.${body}`).digest('hex')}`;
      hooks.push({ headers: req.headers, body, signatureValid: req.headers['x-sluice-signature'] === expected });
      const status = webhookStatuses.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'receiver down');
    });
  });

  // The SMS provider: checks the signature, answers OK or the next refusal queued.
  const texts: { params: URLSearchParams; signatureValid: boolean }[] = [];
  const smsRefusals: { Code: string; Message: string }[] = [];
  const smsProvider = createServer((req, res) => {
    void bodyOf(req).then((body) => {
      const params = new URLSearchParams(body);
      const signed = Object.fromEntries([...params].filter(([k]) => k !== 'Signature'));
      texts.push({ params, signatureValid: params.get('Signature') === smsSignature('POST', signed, SMS_SECRET) });
      const refusal = smsRefusals.shift();
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(refusal ?? { Code: 'OK', Message: 'OK', BizId: '9006197469364984^0', RequestId: 'F655A8D5' }));
    });
  });

  // The mail server: one user with a password, no TLS on this loopback port.
  const mails: Mail[] = [];
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'alarms' && auth.password === 'mail-pass-123') callback(null, { user: 'alarms' });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });

  const admin = () => users.admin;
  const post = async (url: string, payload: Record<string, unknown>) => {
    const res = await t.call({ method: 'POST', url, token: admin(), payload });
    if (res.statusCode !== 201) throw new Error(`${url}: ${res.body}`);
    return res.json<{ data: { Id: number } }>().data.Id;
  };
  const deliveries = async (warnId: number) =>
    (
      await t.json<NotifyDeliveryDto[]>({
        method: 'GET',
        url: `/api/NotifyDelivery?WarnId=${String(warnId)}&PageSize=100&OrderBy=Id&OrderType=asc`,
        token: admin(),
      })
    ).data;
  /** Opens the code on the device as ingestion would, and waits until its deliveries are queued. */
  const open = async (sn: string, code: string, at = Date.now()) => {
    const device = devices.get(sn);
    if (!device) throw new Error(`no device ${sn}`);
    await t.app.live.alarms.change(device, code, true, at);
    await t.app.ctx.notifications.queued();
    const row = await t.app.ctx.db
      .selectFrom('warns')
      .select('id')
      .where('device_sn', '=', sn)
      .where('code', '=', code)
      .where('active', '=', 1)
      .executeTakeFirstOrThrow();
    return row.id;
  };
  const tick = (at: number) => t.app.ctx.notifications.tick(at);

  let smtpPort = 0;
  let emailRule = 0;

  beforeAll(async () => {
    const webhookPort = await listen(webhook);
    const smsPort = await listen(smsProvider);
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    smtpPort = (smtp.server.address() as AddressInfo).port;
    t = await createTestApp(kind, {
      SMS_API_URL: `http://127.0.0.1:${String(smsPort)}/`,
      NOTIFY_MAX_ATTEMPTS: '3',
      NOTIFY_RETRY_SECONDS: '30',
      UTC_OFFSET: '+08:00',
    });
    users = await t.signInUsers();
    const db = t.app.ctx.db;
    groupId = (await db.selectFrom('users').select('group_id').where('account', '=', 'admin').executeTakeFirstOrThrow()).group_id;
    const fault = await buildWarnType(db, { groupId, name: 'Fault' });
    const notice = await buildWarnType(db, { groupId, name: 'Notice' });
    await buildWarnCode(db, { groupId, warnTypeId: fault, code: 'E101', description: 'Lift pump 1 fault' });
    await buildWarnCode(db, { groupId, warnTypeId: fault, code: 'E102', description: 'Lift pump 2 fault' });
    await buildWarnCode(db, { groupId, warnTypeId: notice, code: 'N001', description: 'Filter due' });
    const sites = await buildSites(t.app.ctx, {
      groupId,
      tree: {
        projects: [
          {
            name: 'North',
            stations: [
              {
                name: 'Qingshan',
                devices: [
                  { sn: 'SLN000000001', name: 'Lift pump' },
                  { sn: 'SLN000000002' },
                  { sn: 'SLN000000003' },
                  { sn: 'SLN000000004' },
                ],
              },
            ],
          },
          { name: 'South', stations: [{ name: 'Baishui', devices: [{ sn: 'SLS000000001' }] }] },
        ],
      },
    });
    for (const sn of sites.devices.keys()) {
      const known = await t.app.live.directory.device(sn);
      if (!known) throw new Error(`device ${sn} unknown`);
      devices.set(sn, known);
    }
    const onCall = await buildUser(db, {
      groupId,
      userName: 'Wang On-call',
      email: 'wang@station.test',
      phone: '13800000001',
      config: { Language: 'en-US' },
    });
    const manager = await buildUser(db, { groupId, userName: 'Li Manager', email: 'li@station.test', phone: '13900000002' });
    const noMail = await buildUser(db, { groupId, userName: 'Zhao', phone: '13700000003' });

    const hook = await post('/api/NotifyChannel', {
      Name: 'Duty webhook',
      Kind: 'webhook',
      Url: `http://127.0.0.1:${String(webhookPort)}/alarms`,
      Secret: WEBHOOK_SECRET,
    });
    const mail = await post('/api/NotifyChannel', {
      Name: 'Station mail',
      Kind: 'email',
      SmtpHost: '127.0.0.1',
      SmtpPort: smtpPort,
      UserName: 'alarms',
      Secret: 'mail-pass-123',
      Sender: 'alarms@sluice.test',
    });
    const smsChannel = await post('/api/NotifyChannel', {
      Name: 'Aliyun SMS',
      Kind: 'sms',
      UserName: 'LTAI5tTestKey',
      Secret: SMS_SECRET,
      Sender: 'Sluice',
      Template: 'SMS_100001',
    });
    // Faults anywhere go to the webhook at once, even in quiet hours; North's alarms of any type
    // are mailed to the on-call operator (and to one without an address); a fault still not
    // handled after 30 minutes is texted to the manager.
    await post('/api/NotifyRule', {
      Name: 'Faults to duty system',
      Level: 1,
      DelayMinutes: 0,
      ChannelId: hook,
      TypeIds: [fault],
      Urgent: true,
    });
    emailRule = await post('/api/NotifyRule', {
      Name: 'North on call',
      Level: 1,
      DelayMinutes: 0,
      ChannelId: mail,
      ProjectIds: [sites.id('North')],
      UserIds: [onCall.id, noMail.id],
    });
    await post('/api/NotifyRule', {
      Name: 'Escalate to manager',
      Level: 2,
      DelayMinutes: 30,
      ChannelId: smsChannel,
      TypeIds: [fault],
      UserIds: [manager.id],
    });
  });

  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => webhook.close(resolve));
    await new Promise((resolve) => smsProvider.close(resolve));
    await new Promise<void>((resolve) => {
      smtp.close(resolve);
    });
  });

  it('posts a new fault to the webhook signed with HMAC-SHA256 and mails it over SMTP; the history shows each delivery', async () => {
    const now = Date.now();
    const id = await open('SLN000000001', 'E101', now);
    const queued = await deliveries(id);
    expect(queued.map((d) => [d.Kind, d.Level, d.Status, d.Recipient])).toEqual([
      ['webhook', 1, 'pending', expect.stringMatching(/^127\.0\.0\.1:\d+$/)],
      ['email', 1, 'pending', 'wang@station.test'],
      ['email', 1, 'failed', ''],
      ['sms', 2, 'pending', '13900000002'],
    ]);
    expect(queued[2]?.Error).toBe('The user has no e-mail address');
    expect(queued[3]?.DueAt).toBe(now + 30 * MINUTE);

    // The deliveries this instance finished, by channel kind and outcome (the metrics read them).
    const sent = (kind: string) => t.app.ctx.notifications.outcomes.get(`${kind}\u0000sent`) ?? 0;
    const sentBefore = { webhook: sent('webhook'), email: sent('email') };
    await tick(now);
    expect({ webhook: sent('webhook'), email: sent('email') }).toEqual({
      webhook: sentBefore.webhook + 1,
      email: sentBefore.email + 1,
    });
    expect(hooks).toHaveLength(1);
    const hook = hooks[0];
    expect(hook?.signatureValid).toBe(true);
    const payload = JSON.parse(hook?.body ?? '{}') as { Event: string; Level: number; Alarm: Record<string, unknown> };
    expect(payload.Event).toBe('alarm.opened');
    expect(payload.Alarm).toMatchObject({
      Id: id,
      Code: 'E101',
      Description: 'Lift pump 1 fault',
      DeviceSn: 'SLN000000001',
      DeviceName: 'Lift pump',
      ProjectName: 'Qingshan',
      TypeName: 'Fault',
    });
    expect(mails).toHaveLength(1);
    expect(mails[0]?.from).toBe('alarms@sluice.test');
    expect(mails[0]?.to).toEqual(['wang@station.test']);
    expect(mails[0]?.raw).toContain('Subject: [Sluice] Fault: E101 Lift pump 1 fault at Qingshan');
    expect(mails[0]?.raw).toContain('Device: Lift pump (SLN000000001)');
    const after = await deliveries(id);
    expect(after.map((d) => d.Status)).toEqual(['sent', 'sent', 'failed', 'pending']);
    expect(after[0]?.DoneAt).toBe(now);
  });

  it('escalates an alarm still unhandled after the delay to the next level by SMS, and cancels it for one handled in time', async () => {
    const now = Date.now();
    const unhandled = await open('SLN000000002', 'E101', now);
    const handled = await open('SLN000000002', 'E102', now);
    await tick(now);
    const handle = await t.call({
      method: 'PUT',
      url: '/api/SLN000000002/Warn',
      token: admin(),
      payload: { Id: handled, Comments: 'Pump 2 restarted' },
    });
    expect(handle.statusCode).toBe(200);
    const escalation = async (warnId: number) => (await deliveries(warnId)).find((d) => d.Level === 2);
    const textsFor = async (warnId: number) => {
      const id = String((await escalation(warnId))?.Id);
      return texts.filter((x) => x.params.get('OutId') === id);
    };

    await tick(now + 29 * MINUTE);
    expect(await textsFor(unhandled)).toHaveLength(0);
    await tick(now + 30 * MINUTE);
    expect(await textsFor(unhandled)).toHaveLength(1);
    expect(await textsFor(handled)).toHaveLength(0);
    const [sms] = await textsFor(unhandled);
    expect(sms?.signatureValid).toBe(true);
    expect(sms?.params.get('Action')).toBe('SendSms');
    expect(sms?.params.get('PhoneNumbers')).toBe('13900000002');
    expect(sms?.params.get('SignName')).toBe('Sluice');
    expect(sms?.params.get('TemplateCode')).toBe('SMS_100001');
    expect(sms?.params.get('AccessKeyId')).toBe('LTAI5tTestKey');
    expect(JSON.parse(sms?.params.get('TemplateParam') ?? '{}')).toMatchObject({
      code: 'E101',
      desc: 'Lift pump 1 fault',
      station: 'Qingshan',
      level: '2',
    });
    expect((await deliveries(unhandled)).find((d) => d.Level === 2)?.Status).toBe('sent');
    const cancelled = (await deliveries(handled)).find((d) => d.Level === 2);
    expect([cancelled?.Status, cancelled?.Error]).toEqual(['cancelled', 'The alarm was handled']);
  });

  it('retries a refused webhook with exponential back-off, records every attempt, and stops after the last', async () => {
    hooks.length = 0;
    webhookStatuses.push(500, 502, 503);
    const now = Date.now();
    const id = await open('SLS000000001', 'E101', now);
    await tick(now);
    await tick(now + 29_000);
    expect(hooks).toHaveLength(1);
    await tick(now + 30_000);
    expect(hooks).toHaveLength(2);
    await tick(now + 30_000 + 59_000);
    expect(hooks).toHaveLength(2);
    await tick(now + 30_000 + 60_000);
    expect(hooks).toHaveLength(3);
    await tick(now + 60 * MINUTE);
    const attempts = (await deliveries(id)).filter((d) => d.Kind === 'webhook');
    expect(attempts.map((d) => [d.Attempt, d.Status, d.Error])).toEqual([
      [1, 'failed', 'HTTP 500: receiver down'],
      [2, 'failed', 'HTTP 502: receiver down'],
      [3, 'failed', 'HTTP 503: receiver down'],
    ]);
    expect(hooks.every((h) => h.signatureValid)).toBe(true);

    // An administrator sends the last one again once the receiver is back.
    const retry = await t.call({
      method: 'POST',
      url: '/api/NotifyDelivery/Retry',
      token: admin(),
      payload: { Id: attempts[2]?.Id },
    });
    expect(retry.statusCode).toBe(200);
    const again = await t.call({
      method: 'POST',
      url: '/api/NotifyDelivery/Retry',
      token: admin(),
      payload: { Id: attempts[2]?.Id },
    });
    expect(again.statusCode).toBe(409);
    await tick(Date.now());
    expect(hooks).toHaveLength(4);
    expect((await deliveries(id)).filter((d) => d.Kind === 'webhook').map((d) => [d.Attempt, d.Status])).toContainEqual([
      4,
      'sent',
    ]);
  });

  it('holds what is not urgent during quiet hours until they end, while urgent rules deliver at once', async () => {
    const put = await t.call({
      method: 'PUT',
      url: '/api/NotifySettings/QuietHours',
      token: admin(),
      payload: { Enabled: true, Start: '22:00', End: '07:00' },
    });
    expect(put.statusCode).toBe(200);
    // 23:00 at +08:00 (15:00 UTC) on a day after now; the quiet hours end at 07:00 local (23:00 UTC).
    const day = new Date(Date.now() + 86_400_000);
    const night = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 15, 0);
    const morning = night + 8 * 60 * MINUTE;
    hooks.length = 0;
    mails.length = 0;
    const id = await open('SLN000000003', 'E101', Date.now());
    await tick(night);
    expect(hooks).toHaveLength(1);
    expect(mails).toHaveLength(0);
    const held = (await deliveries(id)).find((d) => d.Kind === 'email' && d.Recipient !== '');
    expect([held?.Status, held?.DueAt]).toEqual(['held', morning]);
    await tick(morning - 1);
    expect(mails).toHaveLength(0);
    await tick(morning);
    expect(mails).toHaveLength(1);
    await t.call({
      method: 'PUT',
      url: '/api/NotifySettings/QuietHours',
      token: admin(),
      payload: { Enabled: false, Start: '22:00', End: '07:00' },
    });
  });

  it("records the SMS provider's refusal and a refused SMTP sign-in as the reasons of failed deliveries", async () => {
    smsRefusals.push({ Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: 'too many messages to this number' });
    const now = Date.now();
    const id = await open('SLN000000004', 'E101', now);
    await tick(now + 30 * MINUTE);
    const sms = (await deliveries(id)).find((d) => d.Kind === 'sms');
    expect([sms?.Status, sms?.Error]).toEqual([
      'failed',
      'SMS provider: isv.BUSINESS_LIMIT_CONTROL too many messages to this number',
    ]);

    const channel = await t.json<{ Id: number }[]>({
      method: 'GET',
      url: '/api/NotifyChannel?Search=Station%20mail',
      token: admin(),
    });
    const mailChannel = channel.data[0]?.Id;
    const change = await t.call({
      method: 'PUT',
      url: '/api/NotifyChannel',
      token: admin(),
      payload: {
        Id: mailChannel,
        Name: 'Station mail',
        Kind: 'email',
        SmtpHost: '127.0.0.1',
        SmtpPort: smtpPort,
        UserName: 'alarms',
        Secret: 'wrong-password',
        Sender: 'alarms@sluice.test',
      },
    });
    expect(change.statusCode).toBe(200);
    const other = await open('SLN000000004', 'N001', now);
    await tick(now);
    const mail = (await deliveries(other)).find((d) => d.Kind === 'email' && d.Recipient !== '');
    expect(mail?.Status).toBe('failed');
    expect(mail?.Error).toMatch(/^SMTP 127\.0\.0\.1:\d+: .*Invalid username or password/);
    expect(mail?.RuleId).toBe(emailRule);
  });
});
