/**
 * HJ 212 data loggers: the code table and a device's logger credential (routes), and the TCP
 * listener (a real socket into the real ingestion and database): minute data stored under the
 * mapped DataKeys with flags, invalid readings kept apart, answers only after storage, bad
 * packets refused with the reason counted while the connection and other loggers go on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHj212Packet, cpValue, parseHj212Time } from '@sluice/shared/hj212';
import type { Hj212CodeDto, Hj212LoggerDto } from '@sluice/shared/hj212.schema';
import type { LatestDto } from '@sluice/shared/telemetry.schema';
import { createTestApp, databaseKinds, fieldsOf, type TestApp } from './harness.ts';
import { buildDevice, buildTenant, buildUser, type BuiltTenant } from './factories.ts';
import { LoggerLink, newLoggerDevice } from './hj212-helpers.ts';
import { Hj212Logger } from '@sluice/simulator/hj212-logger';

let qn = 0;
/** A minute upload of COD (normal) and NH3-N (maintenance), asking for an answer. */
function minuteData(mn: string, pw: string, dataTime: string, cod: string, nh3n = '1.25') {
  qn += 1;
  const QN = `20260122103000${String(qn).padStart(3, '0')}`;
  return {
    qn: QN,
    text: buildHj212Packet({
      qn: QN,
      st: '32',
      cn: '2051',
      pw,
      mn,
      flag: 5,
      cp: [
        [['DataTime', dataTime]],
        [
          ['w01018-Avg', cod],
          ['w01018-Flag', 'N'],
        ],
        [
          ['w21003-Avg', nh3n],
          ['w21003-Flag', 'M'],
        ],
        [
          ['w00000-Avg', '2.5'],
          ['w00000-Cou', '0.15'],
        ],
      ],
    }),
  };
}

/** A packet of a logger asking for an answer (Flag=5 and more bits), with a fresh QN. */
function packet(
  mn: string,
  pw: string,
  cn: string,
  cp: [string, string][][],
  more: { flag?: number; pnum?: number; pno?: number; qn?: string } = {},
) {
  qn += 1;
  const QN = more.qn ?? `20260122110000${String(qn).padStart(3, '0')}`;
  return {
    qn: QN,
    text: buildHj212Packet({ qn: QN, st: '32', cn, pw, mn, flag: more.flag ?? 5, pnum: more.pnum, pno: more.pno, cp }),
  };
}

describe.each(databaseKinds)('HJ 212 loggers on %s', (kind) => {
  let t: TestApp;
  let tenant: BuiltTenant;
  let admin: string;
  let operator: string;
  let port: number;
  const links: LoggerLink[] = [];

  const logger = async (sn: string) =>
    (await t.json<Hj212LoggerDto>({ method: 'GET', url: `/api/${String(tenant.groupId)}/${sn}/Hj212Logger`, token: admin })).data;
  const latest = async (sn: string) =>
    (await t.json<LatestDto>({ method: 'GET', url: `/api/device/${sn}/DeviceHisData/Latest`, token: admin })).data;
  const newLogger = async (mn: string, password: string) => {
    const sn = await newLoggerDevice(t, tenant.groupId, admin, mn, password);
    const link = await LoggerLink.open(port);
    links.push(link);
    return { sn, link };
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { MQTT_PORT: '0', HJ212_PORT: '0', HOST: '127.0.0.1' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    await t.app.live.start();
    await t.app.hj212.start();
    port = t.app.hj212.port ?? 0;
    tenant = await buildTenant(t.app.ctx.db);
    admin = await t.login(tenant.account, tenant.password);
    await buildUser(t.app.ctx.db, {
      groupId: tenant.groupId,
      account: 'hjoperator',
      password: 'Operator123',
      roles: ['Operator'],
    });
    operator = await t.login('hjoperator', 'Operator123');
  });

  afterAll(async () => {
    for (const link of links) link.close();
    await t.close();
  });

  it('gives every group the common pollutant codes, editable by its administrators only', async () => {
    const list = await t.json<Hj212CodeDto[]>({ method: 'GET', url: '/api/Hj212Code?PageSize=50', token: operator });
    // Flow's total is its volume, the pollutants' their load, pH has none.
    expect(list.data.map((c) => `${c.Code}=${c.DataKey}/${c.Total}`)).toEqual([
      'w00000=Inflow/volume',
      'w01001=PH_Out/',
      'w01018=COD_Out/load',
      'w21001=TN_Out/load',
      'w21003=NH3_N_Out/load',
      'w21011=TP_Out/load',
    ]);
    const refused = await t.call({
      method: 'POST',
      url: '/api/Hj212Code',
      token: operator,
      payload: { Code: 'w01009', DataKey: 'DO' },
    });
    expect(refused.statusCode).toBe(403);
    const twice = await t.call({
      method: 'POST',
      url: '/api/Hj212Code',
      token: admin,
      payload: { Code: 'w01018', DataKey: 'X' },
    });
    expect(twice.statusCode).toBe(409);
    const bad = await t.call({
      method: 'POST',
      url: '/api/Hj212Code',
      token: admin,
      payload: { Code: 'w-1', DataKey: 'DO', Scale: 0, Total: 'weight' },
    });
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad).sort()).toEqual(['Code', 'Scale', 'Total']);
    const added = await t.call({
      method: 'POST',
      url: '/api/Hj212Code',
      token: admin,
      payload: { Code: 'w01009', DataKey: 'DO' },
    });
    expect(added.statusCode).toBe(201);
    // Another group's table is its own.
    const other = await buildTenant(t.app.ctx.db);
    const otherAdmin = await t.login(other.account, other.password);
    const theirs = await t.json<Hj212CodeDto[]>({ method: 'GET', url: '/api/Hj212Code?PageSize=50', token: otherAdmin });
    expect(theirs.data.map((c) => c.Code)).not.toContain('w01009');
  });

  it('makes a device a logger for those who manage devices, with a unique MN', async () => {
    const device = await buildDevice(t.app.ctx, { groupId: tenant.groupId });
    const url = `/api/${String(tenant.groupId)}/${device.sn}/Hj212Logger`;
    expect((await t.call({ method: 'PUT', url, token: operator, payload: { Mn: 'OPMN1', Password: '123456' } })).statusCode).toBe(
      403,
    );
    const bad = await t.call({ method: 'PUT', url, token: admin, payload: { Mn: 'MN;1', Password: '12;3' } });
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad).sort()).toEqual(['Mn', 'Password']);
    expect(
      (await t.call({ method: 'PUT', url, token: admin, payload: { Mn: 'UNIQUEMN1', Password: '123456' } })).statusCode,
    ).toBe(200);
    const second = await buildDevice(t.app.ctx, { groupId: tenant.groupId });
    const taken = await t.call({
      method: 'PUT',
      url: `/api/${String(tenant.groupId)}/${second.sn}/Hj212Logger`,
      token: admin,
      payload: { Mn: 'UNIQUEMN1', Password: '654321' },
    });
    expect(taken.statusCode).toBe(409);
    expect(fieldsOf(taken)).toEqual(['Mn']);
    expect((await logger(device.sn)).Mn).toBe('UNIQUEMN1');
    expect((await t.call({ method: 'DELETE', url, token: admin })).statusCode).toBe(200);
    expect((await logger(device.sn)).Mn).toBe('');
  });

  it('stores minute data under the mapped data points with their flags, and answers after storing', async () => {
    const { sn, link } = await newLogger('LOGGERA0000000000000001', '123456');
    const upload = minuteData('LOGGERA0000000000000001', '123456', '20260122103000', '28.6');
    link.send(upload.text);
    const answer = await link.next();
    expect(answer).toMatchObject({ cn: '9014', qn: upload.qn, mn: 'LOGGERA0000000000000001', st: '91' });
    const data = (await latest(sn)).Data;
    expect(data.COD_Out).toBe(28.6);
    expect(data.COD_Out_Flag).toBe('N');
    // NH3-N under maintenance: kept apart from the analyser's valid values.
    expect(data.NH3_N_Out).toBeUndefined();
    expect(data.NH3_N_Out_Invalid).toBe(1.25);
    expect(data.NH3_N_Out_Flag).toBe('M');
    // Flow in L/s, the data point in m³/h; the minute's volume (-Cou) in the standard's m³.
    expect(data.Inflow).toBe(9);
    expect(data.Inflow_Cou).toBe(0.15);
    expect((await latest(sn)).Time).toBe(Date.UTC(2026, 0, 22, 2, 30, 0));
    const stats = await logger(sn);
    expect(stats).toMatchObject({ Connected: true, Received: 1, Stored: 1, ListenerPort: port });
  });

  it('refuses bad packets with the reason counted, keeps the connection and other loggers going', async () => {
    const a = await newLogger('LOGGERB1', 'pw-b1');
    const b = await newLogger('LOGGERB2', 'pw-b2');
    // The connection names its logger first.
    const first = minuteData('LOGGERB1', 'pw-b1', '20260122103100', '30.0');
    a.link.send(first.text);
    expect((await a.link.next()).qn).toBe(first.qn);

    const good = minuteData('LOGGERB1', 'pw-b1', '20260122103200', '31.5');
    const badCrc = minuteData('LOGGERB1', 'pw-b1', '20260122103300', '99.0').text.replace(/[0-9A-F]{4}\r\n$/, '0000\r\n');
    const wrongPassword = minuteData('LOGGERB1', 'nope', '20260122103400', '98.0').text;
    const unknownMn = minuteData('NOSUCHMN', 'pw-b1', '20260122103500', '97.0').text;
    const noTime = buildHj212Packet({
      qn: '20260122103600999',
      st: '32',
      cn: '2051',
      pw: 'pw-b1',
      mn: 'LOGGERB1',
      flag: 5,
      cp: [[['w01018-Avg', '1']]],
    });
    a.link.send(`garbage${badCrc}${wrongPassword}${unknownMn}${noTime}`);
    // Meanwhile another logger is served.
    const other = minuteData('LOGGERB2', 'pw-b2', '20260122103000', '12.0');
    b.link.send(other.text);
    expect((await b.link.next()).qn).toBe(other.qn);
    a.link.send(good.text);
    // Nothing was answered for the CRC, password and MN refusals; the upload without DataTime is answered (refused for good).
    expect((await a.link.next()).qn).toBe('20260122103600999');
    expect((await a.link.next()).qn).toBe(good.qn);
    expect((await latest(a.sn)).Data.COD_Out).toBe(31.5);
    const stats = await logger(a.sn);
    expect(stats.Refused).toMatchObject({ crc: 1, password: 1, field: 1 });
    expect(stats.Refused.header).toBeGreaterThanOrEqual(1);
    expect(stats.LastRefusal).not.toBe('');
    expect(t.app.hj212.listener.unattributed.mn).toBeGreaterThanOrEqual(1);
    expect((await latest(b.sn)).Data.COD_Out).toBe(12);
    // The refusals are in the device's log too.
    const log = await t.json<{ Message: string }[]>({
      method: 'GET',
      url: `/api/device/${a.sn}/DeviceLog?PageSize=50`,
      token: admin,
    });
    expect(log.data.some((r) => r.Message.includes('CRC mismatch'))).toBe(true);
  });

  it('keeps hourly and daily data as the logger’s own figures, beside the readings', async () => {
    const { sn, link } = await newLogger('LOGGERH1', 'pw-h1');
    // A day, then an hour of the day after (the latest values take the newer on top of the older).
    const day = packet('LOGGERH1', 'pw-h1', '2031', [
      [['DataTime', '20260121000000']],
      [
        ['w01018-Avg', '24'],
        ['w01018-Flag', 'M'],
      ],
    ]);
    link.send(day.text);
    expect(await link.next()).toMatchObject({ cn: '9014', qn: day.qn });
    const hour = packet('LOGGERH1', 'pw-h1', '2061', [
      [['DataTime', '20260122100000']],
      [
        ['w01018-Avg', '25.5'],
        ['w01018-Min', '20'],
        ['w01018-Max', '30'],
        ['w01018-Cou', '1.2'],
        ['w01018-Flag', 'N'],
      ],
      [
        ['w00000-Avg', '2.5'],
        ['w00000-Cou', '9'],
      ],
    ]);
    link.send(hour.text);
    expect(await link.next()).toMatchObject({ cn: '9014', qn: hour.qn });
    const latest_ = await latest(sn);
    expect(latest_.Data).toMatchObject({
      COD_Out_HourAvg: 25.5,
      COD_Out_HourMin: 20,
      COD_Out_HourMax: 30,
      COD_Out_HourCou: 1.2,
      COD_Out_HourFlag: 'N',
      // Scaled like the readings (L/s → m³/h); the total stays in the standard's m³.
      Inflow_HourAvg: 9,
      Inflow_HourCou: 9,
      COD_Out_DayAvg: 24,
      COD_Out_DayFlag: 'M',
    });
    // Not readings: the analyser's values and Sluice's own roll-ups are left to the minute data.
    expect(latest_.Data.COD_Out).toBeUndefined();
    expect(latest_.Time).toBe(Date.UTC(2026, 0, 22, 2, 0, 0));
  });

  it('stores split uploads part by part and joins them, a later part taking the DataTime of the first', async () => {
    const { sn, link } = await newLogger('LOGGERS1', 'pw-s1');
    const QN = '20260122110100555';
    const first = packet('LOGGERS1', 'pw-s1', '2051', [[['DataTime', '20260122110100']], [['w01018-Avg', '11']]], {
      qn: QN,
      flag: 7,
      pnum: 2,
      pno: 1,
    });
    const second = packet('LOGGERS1', 'pw-s1', '2051', [[['w21011-Avg', '0.3']]], { qn: QN, flag: 7, pnum: 2, pno: 2 });
    link.send(first.text + second.text);
    // Each part answered once stored, so that a logger waiting for each answer goes on.
    expect(await link.next()).toMatchObject({ cn: '9014', qn: QN });
    expect(await link.next()).toMatchObject({ cn: '9014', qn: QN });
    const stored = await latest(sn);
    expect(stored.Data).toMatchObject({ COD_Out: 11, TP_Out: 0.3 });
    expect(stored.Time).toBe(Date.UTC(2026, 0, 22, 3, 1, 0));

    // A part numbered past PNUM: refused, answered.
    const past = packet('LOGGERS1', 'pw-s1', '2051', [[['DataTime', '20260122110200']], [['w21011-Avg', '0.9']]], {
      flag: 7,
      pnum: 2,
      pno: 3,
    });
    link.send(past.text);
    expect((await link.next()).qn).toBe(past.qn);
    expect(await logger(sn)).toMatchObject({ Stored: 2, Refused: { field: 1 }, LastRefusal: 'PNO 3 is not from 1 to PNUM 2' });

    // Splits left open: one whose first part never came (no DataTime to take), one whose last never came.
    const orphan = packet('LOGGERS1', 'pw-s1', '2051', [[['w21011-Avg', '0.9']]], { flag: 7, pnum: 3, pno: 2 });
    const unfinished = packet('LOGGERS1', 'pw-s1', '2051', [[['DataTime', '20260122110300']], [['w21011-Avg', '0.4']]], {
      flag: 7,
      pnum: 2,
      pno: 1,
    });
    link.send(orphan.text + unfinished.text);
    expect((await link.next()).qn).toBe(orphan.qn);
    expect((await link.next()).qn).toBe(unfinished.qn);
    // Kept, not yet stored as readings...
    expect((await latest(sn)).Data.TP_Out).toBe(0.3);
    // ...until they have waited ten minutes: then what came is joined (the sweep runs on the job leader).
    await t.app.hj212.listener.sweep(Date.now() + 9 * 60_000);
    expect((await latest(sn)).Data.TP_Out).toBe(0.3);
    await t.app.hj212.listener.sweep(Date.now() + 11 * 60_000);
    const after = await latest(sn);
    expect(after.Data.TP_Out).toBe(0.4);
    expect(after.Time).toBe(Date.UTC(2026, 0, 22, 3, 3, 0));
    const stats = await logger(sn);
    expect(stats).toMatchObject({ Stored: 4, Refused: { field: 2 } });
    const log = await t.json<{ Message: string }[]>({
      method: 'GET',
      url: `/api/device/${sn}/DeviceLog?PageSize=50`,
      token: admin,
    });
    const messages = log.data.map((r) => r.Message);
    expect(messages).toContainEqual(expect.stringContaining(`part 2 of QN ${orphan.qn} has no DataTime`));
    expect(messages).toContainEqual(expect.stringContaining(`part 2 of QN ${unfinished.qn} never came`));
  });

  it('answers a notification with 9013 and sets the clock of a logger that asks (1013)', async () => {
    const { link } = await newLogger('LOGGERT1', 'pw-t1');
    const ask = packet('LOGGERT1', 'pw-t1', '1013', [[['PolId', 'w01018']]]);
    const before = Date.now();
    link.send(ask.text);
    expect(await link.next()).toMatchObject({ cn: '9013', qn: ask.qn, st: '91' });
    const set = await link.next();
    expect(set).toMatchObject({ cn: '1012', mn: 'LOGGERT1', pw: 'pw-t1', flag: 5 });
    expect(cpValue(set, 'PolId')).toBe('w01018');
    // The stations' local time (UTC+8), to the second.
    const systemTime = parseHj212Time(cpValue(set, 'SystemTime') ?? '') ?? 0;
    expect(systemTime).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(systemTime).toBeLessThanOrEqual(Date.now());
    // The logger's answers to it are not answered again.
    link.send(packet('LOGGERT1', 'pw-t1', '9011', [[['QnRtn', '1']]], { qn: set.qn, flag: 4 }).text);
    const beat = packet('LOGGERT1', 'pw-t1', '9015', []);
    link.send(beat.text);
    expect((await link.next()).qn).toBe(beat.qn);
  });

  it('stores what the simulator’s HJ 212 logger sends', async () => {
    const sn = await newLoggerDevice(t, tenant.groupId, admin, 'SIMLOGGER1', 'sim-pw');
    const simulated = new Hj212Logger({ host: '127.0.0.1', port, mn: 'SIMLOGGER1', password: 'sim-pw', seed: 7 });
    await simulated.connect();
    try {
      const at = Math.floor(Date.now() / 60_000) * 60_000 - 60_000;
      await simulated.answer(simulated.sendMinute(at));
      const data = (await latest(sn)).Data;
      expect(data.COD_Out).toBe(simulated.value('COD_Out'));
      expect(data.PH_Out).toBe(simulated.value('PH_Out'));
      expect(data.COD_Out_Flag).toBe('N');
      expect(simulated.pending).toBe(0);
    } finally {
      simulated.close();
    }
  });

  it('joins a pollutant’s value and flag sent in different parts, across a server restart', async () => {
    const { sn, link } = await newLogger('LOGGERS2', 'pw-s2');
    const QN = '20260122110400555';
    // COD's value in the first part and its flag (a fault) in the second; NH3-N's flag (maintenance) first.
    const first = packet(
      'LOGGERS2',
      'pw-s2',
      '2051',
      [[['DataTime', '20260122110400']], [['w01018-Avg', '40']], [['w21003-Flag', 'M']]],
      { qn: QN, flag: 7, pnum: 2, pno: 1 },
    );
    link.send(first.text);
    expect(await link.next()).toMatchObject({ cn: '9014', qn: QN });
    // The first part was answered: it must survive the server's restart.
    link.close();
    await t.restart();
    await t.app.live.start();
    await t.app.hj212.start();
    port = t.app.hj212.port ?? 0;
    const again = await LoggerLink.open(port);
    links.push(again);
    const second = packet('LOGGERS2', 'pw-s2', '2051', [[['w01018-Flag', 'D']], [['w21003-Avg', '2']]], {
      qn: QN,
      flag: 7,
      pnum: 2,
      pno: 2,
    });
    again.send(second.text);
    expect(await again.next()).toMatchObject({ cn: '9014', qn: QN });
    const stored = await latest(sn);
    // Both readings are invalid: kept apart from the analyser's valid values, with their flags.
    expect(stored.Data).toMatchObject({ COD_Out_Invalid: 40, COD_Out_Flag: 'D', NH3_N_Out_Invalid: 2, NH3_N_Out_Flag: 'M' });
    expect(stored.Data.COD_Out).toBeUndefined();
    expect(stored.Data.NH3_N_Out).toBeUndefined();
    expect(stored.Time).toBe(Date.UTC(2026, 0, 22, 3, 4, 0));
  });
});
