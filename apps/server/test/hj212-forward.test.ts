/**
 * Forwarding to a supervising platform: a logger's minute data, stored through the HJ 212
 * listener, reaches a local fake platform as HJ 212 minute packets (averages in the standard's
 * units), each answered before the next period; an outage is retried and the missed periods are
 * back-filled in order; the platform's re-send request is answered and honoured, after a
 * restart too; a logger that reports only hourly or daily figures has them forwarded; the link's
 * state shows in the list. The forwarding job is driven tick by tick (no timers).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HJ212_CN, cpValue, formatHj212Time, type Hj212Packet } from '@sluice/shared/hj212';
import type { Hj212ForwardDto } from '@sluice/shared/hj212.schema';
import { Hj212Forwarder } from '../src/modules/hj212/hj212-forwarder.ts';
import { createTestApp, databaseKinds, fieldsOf, type TestApp } from './harness.ts';
import { buildTenant, buildUser, type BuiltTenant } from './factories.ts';
import { Hj212Platform } from '@sluice/simulator/hj212-platform';
import { LoggerLink, newLoggerDevice } from './hj212-helpers.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The stations' zone (UTC+8, the default UTC_OFFSET). */
const OFFSET = 8 * HOUR;

describe.each(databaseKinds)('HJ 212 forwarding on %s', (kind) => {
  let t: TestApp;
  let tenant: BuiltTenant;
  let admin: string;
  let platform: Hj212Platform;
  let logger: LoggerLink;
  let sn: string;
  let forwarder: Hj212Forwarder;
  let loggerPort: number;
  /** The minutes the logger reported, oldest first. */
  const minutes: number[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind, { MQTT_PORT: '0', HOST: '127.0.0.1', HJ212_FORWARD_GRACE: '0', HJ212_FORWARD_RETRY: '0' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    await t.app.live.start();
    loggerPort = await t.app.hj212.listener.listen(0, '127.0.0.1');
    tenant = await buildTenant(t.app.ctx.db);
    admin = await t.login(tenant.account, tenant.password);
    platform = await Hj212Platform.start();
    sn = await newLoggerDevice(t, tenant.groupId, admin, 'FWDLOGGER1', 'lp1');
    logger = await LoggerLink.open(loggerPort);
    // Three minutes of data, ten to eight minutes ago.
    const first = Math.floor((Date.now() - 10 * MINUTE) / MINUTE) * MINUTE;
    for (let i = 0; i < 3; i++) {
      const at = first + i * MINUTE;
      minutes.push(at);
      await logger.upload({ mn: 'FWDLOGGER1', pw: 'lp1' }, HJ212_CN.minute, at, [
        [
          ['w01018-Avg', String(20 + i)],
          ['w01018-Flag', 'N'],
        ],
        [['w00000-Avg', '2.5']],
      ]);
    }
    // The app's own forwarding job, not started: the test runs its turns.
    forwarder = t.app.hj212.forwarder;
  });

  afterAll(async () => {
    // Every packet Sluice sent was one the platform could read.
    expect(platform.refused).toEqual([]);
    logger.close();
    await platform.close();
    await t.close();
  });

  const links = async () => (await t.json<Hj212ForwardDto[]>({ method: 'GET', url: '/api/Hj212Forward', token: admin })).data;
  /** Adds a link to a platform on this machine: minute data every minute unless the fields say otherwise. */
  const addLink = async (fields: Record<string, unknown>) => {
    const res = await t.call({
      method: 'POST',
      url: '/api/Hj212Forward',
      token: admin,
      payload: { Host: '127.0.0.1', Kinds: 'minute', MinuteInterval: 1, ...fields },
    });
    expect(res.statusCode, res.body).toBe(201);
  };

  it('refuses a bad link naming the fields, and users who do not manage devices', async () => {
    await buildUser(t.app.ctx.db, {
      groupId: tenant.groupId,
      account: 'fwdoperator',
      password: 'Operator123',
      roles: ['Operator'],
    });
    const operator = await t.login('fwdoperator', 'Operator123');
    const link = {
      Name: 'Bureau',
      DeviceSn: sn,
      Host: '127.0.0.1',
      Port: platform.port,
      Mn: 'PLAT01',
      Password: 'pp1',
      Kinds: 'minute',
      MinuteInterval: 1,
    };
    expect((await t.call({ method: 'POST', url: '/api/Hj212Forward', token: operator, payload: link })).statusCode).toBe(403);
    const bad = await t.call({
      method: 'POST',
      url: '/api/Hj212Forward',
      token: admin,
      payload: { ...link, Port: 70000, Kinds: 'weekly', MinuteInterval: 7, DeviceSn: 'NOSUCHDEVICE' },
    });
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad).sort()).toEqual(['Kinds', 'MinuteInterval', 'Port']);
    const noDevice = await t.call({
      method: 'POST',
      url: '/api/Hj212Forward',
      token: admin,
      payload: { ...link, DeviceSn: 'NOSUCHDEVICE' },
    });
    expect(noDevice.statusCode).toBe(400);
    expect(fieldsOf(noDevice)).toEqual(['DeviceSn']);
  });

  it('sends each minute once answered, retries after an outage and back-fills in order', async () => {
    await addLink({
      Name: 'County bureau',
      DeviceSn: sn,
      Port: platform.port,
      Mn: 'PLAT01',
      Password: 'pp1',
      Codes: 'w01018,w00000',
      StartAt: Date.now() - 3_600_000,
    });
    const [before] = await links();
    expect(before).toMatchObject({ Password: '••••••', Connected: false, LastSent: null });

    // The platform is down for the first packet: nothing counts as sent.
    platform.dropNext(1);
    await forwarder.tick();
    expect(platform.received).toHaveLength(0);
    const [down] = await links();
    expect(down?.LastError).toBe('the platform closed the connection');
    // The minutes without data before the outage were passed over; those from the first data on wait.
    expect(down?.Backlog).toBeGreaterThanOrEqual(8);

    await forwarder.tick();
    const minutePackets = platform.received.filter((p) => p.cn === HJ212_CN.minute);
    expect(minutePackets.map((p) => cpValue(p, 'DataTime'))).toEqual(minutes.map((m) => formatHj212Time(m)));
    const firstPacket = minutePackets[0] as Hj212Packet;
    expect(firstPacket).toMatchObject({ mn: 'PLAT01', pw: 'pp1', st: '32', flag: 5 });
    expect(cpValue(firstPacket, 'w01018-Avg')).toBe('20');
    expect(cpValue(firstPacket, 'w01018-Flag')).toBe('N');
    // The data point holds m³/h; the platform gets the standard's L/s.
    expect(cpValue(firstPacket, 'w00000-Avg')).toBe('2.5');
    // Totals: the minute's volume (2.5 L/s × 60 s = 0.15 m³) and COD's load (20 mg/L × 0.15 m³ = 3 g).
    expect(cpValue(firstPacket, 'w00000-Cou')).toBe('0.15');
    expect(cpValue(firstPacket, 'w01018-Cou')).toBe('0.003');
    expect(minutePackets.map((p) => cpValue(p, 'w01018-Max'))).toEqual(['20', '21', '22']);
    const [up] = await links();
    expect(up).toMatchObject({ Connected: true, Backlog: 0, LastError: '' });
    expect(up?.LastSent).not.toBeNull();

    // Nothing new: nothing sent again.
    await forwarder.tick();
    expect(platform.received.filter((p) => p.cn === HJ212_CN.minute)).toHaveLength(3);
  });

  it('answers a re-send request, sends the range again and reports the result', async () => {
    const request = (qn: string, cn: string, pw: string, cp: [string, string][][]) => {
      platform.request({ qn, st: '32', cn, pw, mn: 'PLAT01', flag: 5, cp });
    };
    const answerTo = (qn: string, cn: string) => platform.waitFor((p) => p.qn === qn && p.cn === cn);
    // The two last minutes again (EndTime is the last one's DataTime).
    request('20260122103000123', HJ212_CN.minute, 'pp1', [
      [['BeginTime', formatHj212Time(minutes[1] ?? 0)]],
      [['EndTime', formatHj212Time(minutes[2] ?? 0)]],
    ]);
    expect(cpValue(await answerTo('20260122103000123', HJ212_CN.requestAnswer), 'QnRtn')).toBe('1');
    // A wrong password, and a request a forwarder does not carry out (setting its clock).
    request('20260122103000124', HJ212_CN.minute, 'wrong', [[['BeginTime', '20260101000000']], [['EndTime', '20260102000000']]]);
    expect(cpValue(await answerTo('20260122103000124', HJ212_CN.requestAnswer), 'QnRtn')).toBe('3');
    request('20260122103000125', HJ212_CN.setTime, 'pp1', [[['SystemTime', '20260122103000']]]);
    expect(cpValue(await answerTo('20260122103000125', HJ212_CN.requestAnswer), 'QnRtn')).toBe('2');

    const before = platform.received.filter((p) => p.cn === HJ212_CN.minute).length;
    await forwarder.tick();
    const again = platform.received.filter((p) => p.cn === HJ212_CN.minute).slice(before);
    expect(again.map((p) => cpValue(p, 'DataTime'))).toEqual(minutes.slice(1).map((m) => formatHj212Time(m)));
    const result = await answerTo('20260122103000123', HJ212_CN.executeResult);
    expect(cpValue(result, 'ExeRtn')).toBe('1');
    // After the data it was about.
    expect(platform.received.indexOf(result)).toBeGreaterThan(platform.received.indexOf(again.at(-1) as Hj212Packet));
    expect((await links())[0]?.Backlog).toBe(0);
  });

  it('forwards readings that are not valid with their flag, and a long period in parts', async () => {
    // Twenty more codes than the six every group has: a minute no longer fits one packet.
    for (let i = 1; i <= 20; i++) {
      const res = await t.call({
        method: 'POST',
        url: '/api/Hj212Code',
        token: admin,
        payload: { Code: `w990${String(i).padStart(2, '0')}`, DataKey: `Extra${String(i)}` },
      });
      expect(res.statusCode).toBe(201);
    }
    const flagged = await newLoggerDevice(t, tenant.groupId, admin, 'FWDLOGGER2', 'lp2');
    const at = Math.floor((Date.now() - 5 * MINUTE) / MINUTE) * MINUTE;
    const second = await LoggerLink.open(loggerPort);
    await second.upload({ mn: 'FWDLOGGER2', pw: 'lp2' }, HJ212_CN.minute, at, [
      [
        ['w01018-Avg', '50'],
        ['w01018-Flag', 'T'],
      ],
      [
        ['w21003-Avg', '3'],
        ['w21003-Flag', 'M'],
      ],
      [['w00000-Avg', '2']],
      ...Array.from({ length: 20 }, (_, i): [string, string][] => [[`w990${String(i + 1).padStart(2, '0')}-Avg`, String(i + 1)]]),
    ]);
    second.close();
    await addLink({
      Name: 'Province',
      DeviceSn: flagged,
      Port: platform.port,
      Mn: 'PLAT02',
      Password: 'pp2',
      StartAt: at,
    });
    await forwarder.tick();
    const parts = platform.received.filter((p) => p.mn === 'PLAT02' && p.cn === HJ212_CN.minute);
    expect(parts.map((p) => [p.pnum, p.pno])).toEqual([
      [2, 1],
      [2, 2],
    ]);
    expect(new Set(parts.map((p) => p.qn)).size).toBe(1);
    expect(parts.every((p) => p.flag === 7 && cpValue(p, 'DataTime') === formatHj212Time(at))).toBe(true);
    const all = { cp: parts.flatMap((p) => p.cp) };
    // Over the instrument's limit is still valid data, flagged T; maintenance is sent with M, not left out.
    expect(cpValue(all, 'w01018-Flag')).toBe('T');
    expect(cpValue(all, 'w01018-Avg')).toBe('50');
    expect(cpValue(all, 'w21003-Flag')).toBe('M');
    expect(cpValue(all, 'w21003-Avg')).toBe('3');
    // 2 L/s for a minute: 0.12 m³; NH3-N's load 3 mg/L × 0.12 m³ = 0.36 g, four decimals of a kg.
    expect(cpValue(all, 'w00000-Cou')).toBe('0.12');
    expect(cpValue(all, 'w21003-Cou')).toBe('0.0004');
    // Codes without a total have none.
    expect(cpValue(all, 'w99020-Avg')).toBe('20');
    expect(cpValue(all, 'w99020-Cou')).toBeUndefined();
  });

  it('waits longer after each failure (1 s, 2 s, 4 s…) and goes on once the platform answers', async () => {
    // Only this test's link is enabled; its own forwarder runs on a clock the test moves.
    for (const link of await links()) {
      const { Id, Name, DeviceSn, Host, Port, Mn, Codes, Kinds, MinuteInterval } = link;
      const fields = { Id, Name, DeviceSn, Host, Port, Mn, Codes, Kinds, MinuteInterval };
      const res = await t.call({ method: 'PUT', url: '/api/Hj212Forward', token: admin, payload: { ...fields, Enabled: false } });
      expect(res.statusCode, res.body).toBe(200);
    }
    const flaky = await Hj212Platform.start();
    try {
      await addLink({
        Name: 'Flaky',
        DeviceSn: sn,
        Port: flaky.port,
        Mn: 'PLAT03',
        Password: 'pp3',
        StartAt: minutes[0],
      });
      let clock = Date.now();
      const own = new Hj212Forwarder({
        repository: t.app.hj212.repository,
        history: t.app.live.history,
        secrets: t.app.ctx.secrets,
        offsetMinutes: 480,
        log: t.app.log,
        graceMs: 0,
        retryMs: 1000,
        now: () => clock,
      });
      const at = async (ms: number) => {
        clock += ms;
        await own.tick();
        return flaky.connections;
      };
      flaky.dropNext(3);
      expect(await at(0)).toBe(1);
      expect(await at(500)).toBe(1);
      expect(await at(500)).toBe(2); // 1 s after the first failure
      expect(await at(1500)).toBe(2);
      expect(await at(500)).toBe(3); // 2 s after the second
      expect(await at(3500)).toBe(3);
      expect(await at(500)).toBe(4); // 4 s after the third: answered now
      expect(flaky.received.filter((p) => p.cn === HJ212_CN.minute).map((p) => cpValue(p, 'DataTime'))).toEqual(
        minutes.map((m) => formatHj212Time(m)),
      );
      await own.stop();
    } finally {
      await flaky.close();
    }
  });
  it('forwards a logger’s own hourly and daily figures for periods without readings of their own', async () => {
    const hourly = await newLoggerDevice(t, tenant.groupId, admin, 'FWDLOGGER3', 'lp3');
    const link = await LoggerLink.open(loggerPort);
    // Two days ago (a local day), and the day before it.
    const day = Math.floor((Date.now() + OFFSET) / DAY) * DAY - OFFSET - 2 * DAY;
    const dayBefore = day - DAY;
    const [onlyFigures, withReadings] = [day + 10 * HOUR, day + 11 * HOUR];
    // QNs apart for uploads of the same period.
    const upload = (cn: string, at: number, cp: [string, string][][]) =>
      link.upload({ mn: 'FWDLOGGER3', pw: 'lp3' }, cn, at, cp, at + cp.length);
    // The logger's figures of an hour: COD in full, NH3-N's average only, the flow's average and volume.
    await upload(HJ212_CN.hourly, onlyFigures, [
      [
        ['w01018-Avg', '25.5'],
        ['w01018-Min', '20'],
        ['w01018-Max', '30'],
        ['w01018-Cou', '0.2'],
        ['w01018-Flag', 'N'],
      ],
      [['w21003-Avg', '2']],
      [
        ['w00000-Avg', '2.5'],
        ['w00000-Cou', '9.1'],
      ],
    ]);
    // An hour with a reading of its own and the logger's figures: the reading counts.
    await upload(HJ212_CN.minute, withReadings + 5 * MINUTE, [[['w01018-Avg', '30']]]);
    await upload(HJ212_CN.hourly, withReadings, [[['w01018-Avg', '99']]]);
    // The logger's figures of a whole day (under maintenance).
    await upload(HJ212_CN.daily, dayBefore, [
      [
        ['w01018-Avg', '24'],
        ['w01018-Flag', 'M'],
      ],
    ]);
    link.close();

    await addLink({
      Name: 'Hourly bureau',
      DeviceSn: hourly,
      Port: platform.port,
      Mn: 'PLAT05',
      Password: 'pp5',
      Codes: 'w01018,w21003,w00000',
      Kinds: 'hourly,daily',
      MinuteInterval: 60,
      StartAt: dayBefore,
    });
    // Hour by hour from the day before: more than one turn's worth of periods.
    for (let turn = 0; turn < 3; turn++) await forwarder.tick();

    const sent = (cn: string) => platform.received.filter((p) => p.mn === 'PLAT05' && p.cn === cn);
    const hours = sent(HJ212_CN.hourly);
    expect(hours.map((p) => cpValue(p, 'DataTime'))).toEqual([formatHj212Time(onlyFigures), formatHj212Time(withReadings)]);
    const [figures, readings] = hours as [Hj212Packet, Hj212Packet];
    // As the logger reported them, in the standard's units (the flow's scale undone), its totals as they were.
    expect(figures.cp.map((f) => `${f.key}=${f.value}`)).toEqual([
      'DataTime=' + formatHj212Time(onlyFigures),
      'w00000-Avg=2.5',
      'w00000-Cou=9.1',
      'w00000-Flag=N',
      'w01018-Avg=25.5',
      'w01018-Min=20',
      'w01018-Max=30',
      'w01018-Cou=0.2',
      'w01018-Flag=N',
      // Without a total of its own, NH3-N's load is computed from the flow's volume: 2 mg/L × 9.1 m³.
      'w21003-Avg=2',
      'w21003-Cou=0.0182',
      'w21003-Flag=N',
    ]);
    expect(cpValue(readings, 'w01018-Avg')).toBe('30');
    const days = sent(HJ212_CN.daily);
    expect(days.map((p) => cpValue(p, 'DataTime'))).toEqual([formatHj212Time(dayBefore), formatHj212Time(day)]);
    expect(cpValue(days[0] as Hj212Packet, 'w01018-Avg')).toBe('24');
    expect(cpValue(days[0] as Hj212Packet, 'w01018-Flag')).toBe('M');
    // The day with a reading is computed from it.
    expect(cpValue(days[1] as Hj212Packet, 'w01018-Avg')).toBe('30');
  });

  it('carries out a platform’s re-send request after a restart', async () => {
    const bureau = await Hj212Platform.start();
    try {
      await addLink({
        Name: 'Restarted',
        DeviceSn: sn,
        Port: bureau.port,
        Mn: 'PLAT04',
        Password: 'pp4',
        Codes: 'w01018',
        StartAt: minutes[0],
      });
      await t.app.hj212.forwarder.tick();
      const minuteTimes = () => bureau.received.filter((p) => p.cn === HJ212_CN.minute).map((p) => cpValue(p, 'DataTime'));
      expect(minuteTimes()).toEqual(minutes.map((m) => formatHj212Time(m)));

      // The first two minutes again: answered 9011 once the request is stored...
      const qn = '20260122113000777';
      bureau.request({
        qn,
        st: '32',
        cn: HJ212_CN.minute,
        pw: 'pp4',
        mn: 'PLAT04',
        flag: 5,
        cp: [[['BeginTime', formatHj212Time(minutes[0] ?? 0)]], [['EndTime', formatHj212Time(minutes[1] ?? 0)]]],
      });
      const ready = await bureau.waitFor((p) => p.qn === qn && p.cn === HJ212_CN.requestAnswer);
      expect(cpValue(ready, 'QnRtn')).toBe('1');
      // ...then the server restarts before its forwarding job's next turn.
      await t.restart();
      expect(bureau.received.some((p) => p.cn === HJ212_CN.executeResult)).toBe(false);

      await t.app.hj212.forwarder.tick();
      expect(minuteTimes()).toEqual([...minutes, minutes[0] ?? 0, minutes[1] ?? 0].map((m) => formatHj212Time(m)));
      const result = await bureau.waitFor((p) => p.qn === qn && p.cn === HJ212_CN.executeResult);
      expect(cpValue(result, 'ExeRtn')).toBe('1');
      // Carried out once: a further turn sends nothing more.
      await t.app.hj212.forwarder.tick();
      expect(minuteTimes()).toHaveLength(5);
      expect(bureau.received.filter((p) => p.cn === HJ212_CN.executeResult)).toHaveLength(1);
    } finally {
      await bureau.close();
    }
  });
});
