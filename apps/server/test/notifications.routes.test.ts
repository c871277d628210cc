/**
 * The notification calls: channels (secrets sealed at rest, masked on the way out, kept when
 * sent back masked), rules (checked against the group's channels, users, warn types and
 * projects), quiet hours, the delivery history and its retry. Bad input is named by field in
 * the caller's language and changes nothing; callers without a session, without system.manage
 * or of another tenant are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET_MASK, type NotifyChannelDto, type NotifyDeliveryDto, type NotifyRuleDto } from '@sluice/shared/notify.schema';
import { createTestApp, databaseKinds, fieldsOf, type TestApp, type Users } from './harness.ts';
import { buildSites, buildUser, buildWarnType } from './factories.ts';

describe.each(databaseKinds)('notification calls on %s', (kind) => {
  let t: TestApp;
  let users: Users;
  let groupId: number;
  let warnType: number;
  let station: number;
  let person: number;
  let strangerUser: number;

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
    token = users.admin,
    lang?: string,
  ) => t.call({ method, url, token, ...(payload ? { payload } : {}), ...(lang ? { lang } : {}) });
  const countRows = async (table: 'notify_channels' | 'notify_rules') =>
    Number(
      (
        await t.app.ctx.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  const webhook = {
    Name: 'Duty webhook',
    Kind: 'webhook',
    Url: 'https://hooks.example.cn/sluice',
    Secret: 'whsec-0123456789abcdef',
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    users = await t.signInUsers();
    const db = t.app.ctx.db;
    groupId = (await db.selectFrom('users').select('group_id').where('account', '=', 'admin').executeTakeFirstOrThrow()).group_id;
    warnType = await buildWarnType(db, { groupId, name: 'Fault' });
    const sites = await buildSites(t.app.ctx, {
      groupId,
      tree: { projects: [{ name: 'North', stations: [{ name: 'Qingshan', devices: [] }] }] },
    });
    station = sites.id('Qingshan');
    person = (await buildUser(db, { groupId, email: 'wang@station.test', phone: '13800000001' })).id;
    strangerUser = (await buildUser(db, { groupId: users.other.groupId, email: 'x@other.test' })).id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('keeps a channel secret sealed at rest, sends it back masked, and keeps it when the mask comes back', async () => {
    const created = await call('POST', '/api/NotifyChannel', webhook);
    expect(created.statusCode).toBe(201);
    const dto = created.json<{ data: NotifyChannelDto }>().data;
    expect(dto).toMatchObject({
      Name: 'Duty webhook',
      Kind: 'webhook',
      Enabled: true,
      Url: webhook.Url,
      Secret: `${SECRET_MASK}cdef`,
    });
    const stored = await t.app.ctx.db
      .selectFrom('notify_channels')
      .select('secret')
      .where('id', '=', dto.Id)
      .executeTakeFirstOrThrow();
    expect(stored.secret.startsWith('v1:')).toBe(true);
    expect(stored.secret).not.toContain('whsec');
    expect(t.app.ctx.secrets.open(stored.secret)).toBe(webhook.Secret);

    const renamed = await call('PUT', '/api/NotifyChannel', { ...webhook, Id: dto.Id, Name: 'Duty system', Secret: dto.Secret });
    expect(renamed.statusCode).toBe(200);
    const after = await t.app.ctx.db.selectFrom('notify_channels').selectAll().where('id', '=', dto.Id).executeTakeFirstOrThrow();
    expect([after.name, t.app.ctx.secrets.open(after.secret)]).toEqual(['Duty system', webhook.Secret]);

    const listed = await t.json<NotifyChannelDto[]>({ method: 'GET', url: '/api/NotifyChannel', token: users.admin });
    expect(listed.data.map((c) => [c.Name, c.Secret])).toEqual([['Duty system', `${SECRET_MASK}cdef`]]);
    expect(JSON.stringify(listed)).not.toContain('whsec');
  });

  it("names the field a channel's kind needs, in the caller's language, and stores nothing", async () => {
    const before = await countRows('notify_channels');
    const noUrl = await call('POST', '/api/NotifyChannel', { Name: 'Hook', Kind: 'webhook', Secret: 'whsec-0123456789abcdef' });
    expect(noUrl.statusCode).toBe(400);
    expect(fieldsOf(noUrl)).toEqual(['Url']);
    const ftp = await call('POST', '/api/NotifyChannel', { ...webhook, Name: 'Hook', Url: 'ftp://x' }, users.admin, 'zh-CN');
    expect(fieldsOf(ftp)).toEqual(['Url']);
    expect(ftp.json<{ data: { errors: { message: string }[] } }>().data.errors[0]?.message).toBe(
      '请输入以 http:// 或 https:// 开头的地址',
    );
    const shortSecret = await call('POST', '/api/NotifyChannel', { ...webhook, Name: 'Hook', Secret: 'short' });
    expect(fieldsOf(shortSecret)).toEqual(['Secret']);
    const mail = await call('POST', '/api/NotifyChannel', {
      Name: 'Mail',
      Kind: 'email',
      SmtpHost: 'smtp.example.cn',
      Sender: 'not-an-address',
    });
    expect(fieldsOf(mail)).toEqual(['Sender']);
    const sms = await call('POST', '/api/NotifyChannel', { Name: 'SMS', Kind: 'sms', UserName: 'LTAI', Sender: 'Sluice' });
    expect(fieldsOf(sms).sort()).toEqual(['Secret', 'Template']);
    const kind = await call('POST', '/api/NotifyChannel', { Name: 'Pager', Kind: 'pager' });
    expect(fieldsOf(kind)).toContain('Kind');
    expect(await countRows('notify_channels')).toBe(before);
  });

  it("checks a rule against the group's channels, users, warn types and projects", async () => {
    const mail = await call('POST', '/api/NotifyChannel', {
      Name: 'Station mail',
      Kind: 'email',
      SmtpHost: 'smtp.example.cn',
      SmtpPort: 465,
      SmtpSecure: true,
      Sender: 'alarms@example.cn',
    });
    expect(mail.statusCode).toBe(201);
    const mailId = mail.json<{ data: { Id: number } }>().data.Id;
    const theirs = await call('POST', '/api/NotifyChannel', { ...webhook, Name: 'Theirs' }, users.otherAdmin);
    const theirChannel = theirs.json<{ data: { Id: number } }>().data.Id;
    const rule = {
      Name: 'North on call',
      Level: 1,
      DelayMinutes: 0,
      ChannelId: mailId,
      TypeIds: [warnType],
      ProjectIds: [station],
      UserIds: [person],
    };
    const before = await countRows('notify_rules');

    const refusals: [Record<string, unknown>, string][] = [
      [{ ...rule, ChannelId: theirChannel }, 'ChannelId'],
      [{ ...rule, UserIds: [] }, 'UserIds'],
      [{ ...rule, UserIds: [person, strangerUser] }, 'UserIds'],
      [{ ...rule, TypeIds: [999_999] }, 'TypeIds'],
      [{ ...rule, ProjectIds: [999_999] }, 'ProjectIds'],
      [{ ...rule, Level: 2, DelayMinutes: 0 }, 'DelayMinutes'],
      [{ ...rule, Level: 6, DelayMinutes: 5 }, 'Level'],
    ];
    for (const [body, field] of refusals) {
      const res = await call('POST', '/api/NotifyRule', body);
      expect([res.statusCode, fieldsOf(res)], JSON.stringify(body)).toEqual([400, [field]]);
    }
    expect(await countRows('notify_rules')).toBe(before);

    const created = await call('POST', '/api/NotifyRule', { ...rule, Urgent: true });
    expect(created.statusCode).toBe(201);
    const dto = created.json<{ data: NotifyRuleDto }>().data;
    expect(dto).toMatchObject({
      ChannelName: 'Station mail',
      ChannelKind: 'email',
      TypeIds: [warnType],
      ProjectIds: [station],
      UserIds: [person],
      Urgent: true,
      Enabled: true,
    });
    const escalation = await call('PUT', '/api/NotifyRule', { ...rule, Id: dto.Id, Level: 2, DelayMinutes: 15, TypeIds: [] });
    expect(escalation.json<{ data: NotifyRuleDto }>().data).toMatchObject({ Level: 2, DelayMinutes: 15, TypeIds: [] });

    // A channel in use stays; once its rules are gone it can go.
    const inUse = await call('DELETE', `/api/NotifyChannel/${String(mailId)}`);
    expect(inUse.statusCode).toBe(409);
    expect((await call('DELETE', `/api/NotifyRule/${String(dto.Id)}`)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/NotifyChannel/${String(mailId)}`)).statusCode).toBe(200);
  });

  it('keeps quiet hours per group as HH:mm, refusing other times', async () => {
    const initial = await t.json<{ Enabled: boolean; Start: string; End: string }>({
      method: 'GET',
      url: '/api/NotifySettings/QuietHours',
      token: users.admin,
    });
    expect(initial.data).toEqual({ Enabled: false, Start: '22:00', End: '07:00' });
    expect(
      fieldsOf(await call('PUT', '/api/NotifySettings/QuietHours', { Enabled: true, Start: '24:00', End: '07:00' })),
    ).toEqual(['Start']);
    expect(
      fieldsOf(await call('PUT', '/api/NotifySettings/QuietHours', { Enabled: true, Start: '07:00', End: '07:00' })),
    ).toEqual(['End']);
    expect(
      (await call('PUT', '/api/NotifySettings/QuietHours', { Enabled: true, Start: '23:30', End: '06:00' })).statusCode,
    ).toBe(200);
    const saved = await t.json<unknown>({ method: 'GET', url: '/api/NotifySettings/QuietHours', token: users.admin });
    expect(saved.data).toEqual({ Enabled: true, Start: '23:30', End: '06:00' });
    const theirs = await t.json<unknown>({ method: 'GET', url: '/api/NotifySettings/QuietHours', token: users.otherAdmin });
    expect(theirs.data).toEqual({ Enabled: false, Start: '22:00', End: '07:00' });
  });

  it('lists deliveries by state and sends only a failed one again', async () => {
    const now = Date.now();
    const base = {
      group_id: groupId,
      warn_id: 1,
      rule_id: null,
      channel_id: null,
      kind: 'webhook',
      level: 1,
      user_id: null,
      due_at: now,
      created_at: now,
      updated_at: now,
    };
    await t.app.ctx.db
      .insertInto('notify_deliveries')
      .values([
        { ...base, status: 'sent', done_at: now, recipient: 'hooks.example.cn', error: '', attempt: 1 },
        { ...base, status: 'failed', done_at: now, recipient: 'hooks.example.cn', error: 'HTTP 500', attempt: 2 },
      ])
      .execute();
    const failed = await t.json<NotifyDeliveryDto[]>({
      method: 'GET',
      url: '/api/NotifyDelivery?Status=failed',
      token: users.admin,
    });
    expect(failed.data.map((d) => [d.Status, d.Error, d.Attempt])).toEqual([['failed', 'HTTP 500', 2]]);
    const sent = await t.json<NotifyDeliveryDto[]>({ method: 'GET', url: '/api/NotifyDelivery?Status=sent', token: users.admin });
    expect(fieldsOf(await call('GET', '/api/NotifyDelivery?Status=lost'))).toEqual(['Status']);

    expect((await call('POST', '/api/NotifyDelivery/Retry', { Id: sent.data[0]?.Id })).statusCode).toBe(409);
    expect((await call('POST', '/api/NotifyDelivery/Retry', { Id: failed.data[0]?.Id }, users.otherAdmin)).statusCode).toBe(404);
    expect((await call('POST', '/api/NotifyDelivery/Retry', { Id: failed.data[0]?.Id })).statusCode).toBe(200);
    const queued = await t.json<NotifyDeliveryDto[]>({
      method: 'GET',
      url: '/api/NotifyDelivery?Status=pending',
      token: users.admin,
    });
    expect(queued.data.map((d) => [d.Attempt, d.Recipient])).toEqual([[3, 'hooks.example.cn']]);
    const theirs = await t.json<NotifyDeliveryDto[]>({ method: 'GET', url: '/api/NotifyDelivery', token: users.otherAdmin });
    expect(theirs.data).toEqual([]);
  });

  it('refuses every call without a session, without system.manage, or on another tenant’s records', async () => {
    const channel = (await t.json<NotifyChannelDto[]>({ method: 'GET', url: '/api/NotifyChannel', token: users.admin })).data[0];
    const calls: ['GET' | 'POST' | 'PUT' | 'DELETE', string, Record<string, unknown>?][] = [
      ['GET', '/api/NotifyChannel'],
      ['POST', '/api/NotifyChannel', webhook],
      ['GET', '/api/NotifyRule'],
      ['POST', '/api/NotifyRule', { Name: 'x', Level: 1, DelayMinutes: 0, ChannelId: channel?.Id }],
      ['GET', '/api/NotifyDelivery'],
      ['POST', '/api/NotifyDelivery/Retry', { Id: 1 }],
      ['GET', '/api/NotifySettings/QuietHours'],
      ['PUT', '/api/NotifySettings/QuietHours', { Enabled: true, Start: '22:00', End: '07:00' }],
    ];
    for (const [method, url, payload] of calls) {
      expect((await call(method, url, payload, '')).statusCode, `${method} ${url} without a session`).toBe(401);
      expect((await call(method, url, payload, users.operator)).statusCode, `${method} ${url} by an operator`).toBe(403);
    }
    const id = String(channel?.Id);
    expect((await call('GET', `/api/NotifyChannel/${id}`, undefined, users.otherAdmin)).statusCode).toBe(404);
    expect((await call('PUT', '/api/NotifyChannel', { ...webhook, Id: channel?.Id }, users.otherAdmin)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/NotifyChannel/${id}`, undefined, users.otherAdmin)).statusCode).toBe(404);
    const theirs = await t.json<NotifyChannelDto[]>({ method: 'GET', url: '/api/NotifyChannel', token: users.otherAdmin });
    expect(theirs.data.map((c) => c.Name)).toEqual(['Theirs']);
  });
});
