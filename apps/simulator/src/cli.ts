/**
 * npm run simulate -- [options]: simulated stations speaking the device protocol.
 *
 * Which devices, one of:
 *   (nothing)                 the demo's own devices (npm start): signs in at --api as the demo
 *                             operator (--account/--password to sign in as someone else), and
 *                             drives the devices it can see that are offline, with their demo
 *                             secrets; those online are driven already (the server's own demo
 *                             fleet, or real gateways). Adds nothing.
 *   --add N                   adds a project, stations and N devices (of --type, else the group's
 *                             first device type) through the API (the account needs
 *                             device.manage) and keeps their credentials in
 *                             <data dir>/simulator/devices.json; the next run with --add drives
 *                             those again instead of adding more.
 *   --remove                  deletes what --add made (devices for good, stations, project) and
 *                             its file, then exits.
 *   --credentials file.json   [{ "DeviceSn", "Secret", "GroupId", "Station"? }, …]
 * Other options: --url mqtt://host:1883, --api http://host:3000, --data-dir (DATA_DIR, ./data),
 * --interval S (5), --qos 0|1 (1), --stations K (devices per station: 4), --duration S (run for
 * S seconds, then print figures), --faults R (faults per equipment per hour, 0.002),
 * --no-error-topic, --local-address 127.0.0.2 (the devices' connections leave from it: one
 * address has about 28,000 ports towards one broker), --ignore-commands SN,SN (those devices leave commands unanswered, so the
 * server times them out; 'all' for every device), --speed N (simulated seconds per second: 60
 * shows an hour of a station in a minute), and --topic-data … --topic-ack to map other
 * topic templates.
 *
 * HJ 212 logger mode: --hj212 host:port --mn MN --pw PASSWORD sends one station's effluent
 * analysers and flow as HJ 212-2017 minute data (2051) every --interval seconds over TCP to the
 * server's HJ212_PORT (the device with that MN and password; docs/hj212.md), re-sending what was
 * not answered after a reconnect.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_TOPICS, type TopicTemplates } from '@sluice/shared/device-protocol';
import { Fleet, type SimDevice } from './fleet.ts';
import { Hj212Logger } from './hj212-logger.ts';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string', default: 'mqtt://localhost:1883' },
    api: { type: 'string', default: 'http://localhost:3000' },
    account: { type: 'string', default: 'operator' },
    password: { type: 'string', default: 'operator123' },
    add: { type: 'string' },
    type: { type: 'string' },
    remove: { type: 'boolean', default: false },
    credentials: { type: 'string' },
    'data-dir': { type: 'string', default: process.env.DATA_DIR ?? './data' },
    interval: { type: 'string', default: '5' },
    qos: { type: 'string', default: '1' },
    stations: { type: 'string', default: '4' },
    duration: { type: 'string' },
    faults: { type: 'string', default: '0.002' },
    'no-error-topic': { type: 'boolean', default: false },
    'ignore-commands': { type: 'string' },
    speed: { type: 'string', default: '1' },
    'topic-data': { type: 'string' },
    'topic-error': { type: 'string' },
    'topic-status': { type: 'string' },
    'topic-cmd': { type: 'string' },
    'topic-ack': { type: 'string' },
    'local-address': { type: 'string' },
    hj212: { type: 'string' },
    mn: { type: 'string' },
    pw: { type: 'string' },
  },
});

interface Credential {
  DeviceSn: string;
  Secret: string;
  GroupId: number;
  Station?: string;
}

/** What --add made, kept under the data directory so that --remove can take it away. */
interface Made {
  GroupId: number;
  ProjectId: number;
  StationIds: number[];
  Devices: Credential[];
}

const madeFile = path.join(args['data-dir'], 'simulator', 'devices.json');

interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
}

async function api<T>(path: string, init: { method?: string; token?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(`${args.api.replace(/\/$/, '')}/api${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const body = (await response.json()) as Envelope<T>;
  if (!body.success) throw new Error(`${path}: ${body.message}`);
  return body.data;
}

async function signIn(): Promise<{ token: string; g: number }> {
  const { Token: token } = await api<{ Token: string }>('/User', {
    method: 'POST',
    body: { Account: args.account, Password: args.password },
  });
  const { GroupId: g } = await api<{ GroupId: number }>('/user/myinfo', { token });
  return { token, g };
}

/** The demo's devices that are offline now, with their demo secrets (docs/device-protocol.md). */
async function demoDevices(): Promise<Credential[]> {
  const { token, g } = await signIn();
  const devices = await api<{ DeviceSn: string; ProjectId: number | null; Online: boolean }[]>(`/${String(g)}/Device/AllDevice`, {
    token,
  });
  const offline = devices.filter((d) => !d.Online);
  console.log(
    `${String(devices.length - offline.length)} of the ${String(devices.length)} devices are online already (the server's own demo fleet, or real gateways); simulating the other ${String(offline.length)}`,
  );
  return offline.map((d) => ({
    DeviceSn: d.DeviceSn,
    Secret: `demo-${d.DeviceSn}-secret`,
    GroupId: g,
    Station: String(d.ProjectId ?? d.DeviceSn),
  }));
}

async function readMade(): Promise<Made | undefined> {
  try {
    return JSON.parse(await readFile(madeFile, 'utf8')) as Made;
  } catch {
    return undefined;
  }
}

/** Adds a project, its stations and `count` devices of a type, and keeps what it made. */
async function add(count: number, perStation: number): Promise<Made> {
  const { token, g } = await signIn();
  let typeId = args.type === undefined ? undefined : Number(args.type);
  if (typeId === undefined) {
    const types = await api<{ Id: number }[]>('/DeviceType/GetDeviceType', { token });
    typeId = types[0]?.Id;
    if (typeId === undefined) console.error('The group has no device type: the devices are added without one.');
  }
  const project = await api<{ Id: number }>(`/${String(g)}/project`, {
    method: 'POST',
    token,
    body: { Name: `模拟 Simulator ${new Date().toISOString().slice(0, 16)}`, ProjectType: 0, ParentId: 0 },
  });
  const made: Made = { GroupId: g, ProjectId: project.Id, StationIds: [], Devices: [] };
  const save = async () => {
    await mkdir(path.dirname(madeFile), { recursive: true });
    await writeFile(madeFile, JSON.stringify(made, null, 1), { mode: 0o600 });
  };
  await save();
  let station = 0;
  for (let i = 0; i < count; i++) {
    if (i % perStation === 0) {
      station = (
        await api<{ Id: number }>(`/${String(g)}/project`, {
          method: 'POST',
          token,
          body: { Name: `模拟站 Station ${String(i / perStation + 1)}`, ProjectType: 1, ParentId: project.Id },
        })
      ).Id;
      made.StationIds.push(station);
    }
    const created = await api<{ Device: { DeviceSn: string }; Credential: { Username: string; Password: string } }>(
      `/${String(g)}/Device`,
      {
        method: 'POST',
        token,
        body: {
          DeviceName: `模拟设备 Simulated ${String(i + 1)}`,
          ProjectId: station,
          ...(typeId === undefined ? {} : { TypeId: typeId }),
        },
      },
    );
    made.Devices.push({
      DeviceSn: created.Device.DeviceSn,
      Secret: created.Credential.Password,
      GroupId: g,
      Station: String(station),
    });
    await save();
  }
  return made;
}

/** Deletes what --add made: its devices for good, its stations and project, and its file. */
async function remove(): Promise<void> {
  const made = await readMade();
  if (!made) {
    console.log(`Nothing to remove: ${madeFile} does not exist.`);
    return;
  }
  const { token } = await signIn();
  const g = String(made.GroupId);
  const ignoreGone = (error: unknown) => {
    if (!(error instanceof Error && /not found|未找到/i.test(error.message))) throw error;
  };
  let binned = 0;
  for (const d of made.Devices) {
    await api(`/${g}/Device/${d.DeviceSn}`, { method: 'DELETE', token }).catch(ignoreGone);
    // Deleting from the recycle bin for good is for administrators; others leave them there.
    await api(`/Device/RecycleBin/${d.DeviceSn}`, { method: 'DELETE', token }).catch((error: unknown) => {
      if (!(error instanceof Error && /not found|未找到/i.test(error.message))) binned += 1;
    });
  }
  if (binned > 0)
    console.log(`${String(binned)} devices are in the recycle bin: an administrator deletes them from there for good.`);
  for (const id of [...made.StationIds, made.ProjectId]) {
    await api(`/${g}/project/${String(id)}`, { method: 'DELETE', token }).catch(ignoreGone);
  }
  await rm(madeFile, { force: true });
  console.log(`Removed ${String(made.Devices.length)} devices, ${String(made.StationIds.length)} stations and their project.`);
}

/** What to stop on SIGINT or SIGTERM; before the fleet runs, nothing: the process just ends. */
let stopping: () => Promise<void> = () => Promise.resolve();
const onSignal = () => {
  void stopping().then(() => process.exit(0));
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

/** --hj212: one simulated data logger, until stopped. */
async function runHj212Logger(address: string): Promise<void> {
  const [host = 'localhost', port = ''] = address.split(':');
  if (!args.mn || !args.pw || !/^\d+$/.test(port)) throw new Error('--hj212 host:port needs --mn and --pw');
  const logger = new Hj212Logger({ host, port: Number(port), mn: args.mn, password: args.pw });
  const intervalMs = Math.max(1, Number(args.interval)) * 1000;
  for (;;) {
    if (!logger.connected) {
      try {
        await logger.connect();
        console.log(`HJ 212 logger ${args.mn} connected to ${address}`);
      } catch (error) {
        console.error(`HJ 212 logger: ${error instanceof Error ? error.message : String(error)}; trying again`);
      }
    }
    logger.sendMinute();
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    console.log(`${String(logger.answered)} uploads answered, ${String(logger.pending)} waiting`);
  }
}

async function main(): Promise<void> {
  if (args.hj212) return runHj212Logger(args.hj212);
  const perStation = Math.max(1, Number(args.stations));
  if (args.remove) {
    await remove();
    return;
  }
  let credentials: Credential[];
  if (args.credentials) {
    credentials = JSON.parse(await readFile(args.credentials, 'utf8')) as Credential[];
  } else if (args.add !== undefined) {
    const before = await readMade();
    if (before) {
      credentials = before.Devices;
      console.log(`Driving the ${String(credentials.length)} devices added before (${madeFile}); --remove deletes them`);
    } else {
      credentials = (await add(Number(args.add), perStation)).Devices;
      console.log(`Added ${String(credentials.length)} devices, kept in ${madeFile}; --remove deletes them`);
    }
  } else {
    credentials = await demoDevices();
  }
  if (credentials.length === 0) {
    console.log('No device to simulate.');
    return;
  }
  const topics: TopicTemplates = {
    ...DEFAULT_TOPICS,
    ...(args['topic-data'] ? { data: args['topic-data'] } : {}),
    ...(args['topic-error'] ? { error: args['topic-error'] } : {}),
    ...(args['topic-status'] ? { status: args['topic-status'] } : {}),
    ...(args['topic-cmd'] ? { cmd: args['topic-cmd'] } : {}),
    ...(args['topic-ack'] ? { ack: args['topic-ack'] } : {}),
  };
  const devices: SimDevice[] = credentials.map((c, i) => ({
    deviceSn: c.DeviceSn,
    secret: c.Secret,
    groupId: c.GroupId,
    station: c.Station ?? String(Math.floor(i / perStation)),
  }));
  const started = Date.now();
  const fleet = await Fleet.start({
    url: args.url,
    devices,
    intervalMs: Number(args.interval) * 1000,
    qos: args.qos === '0' ? 0 : 1,
    topics,
    errorTopic: !args['no-error-topic'],
    speed: Number(args.speed) > 0 ? Number(args.speed) : 1,
    ...(args['local-address'] ? { localAddress: args['local-address'] } : {}),
    ...(args['ignore-commands']
      ? {
          ignoreCommands:
            args['ignore-commands'] === 'all'
              ? devices.map((d) => d.deviceSn)
              : args['ignore-commands'].split(',').map((x) => x.trim()),
        }
      : {}),
    station: { faultRate: Number(args.faults) },
    log: (m) => {
      console.error(m);
    },
  });
  console.log(
    `${String(fleet.stats.connected)} of ${String(devices.length)} devices connected to ${args.url}, publishing every ${args.interval} s`,
  );
  const report = () => {
    const s = fleet.stats;
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `${seconds.toFixed(0)} s: ${String(s.connected)} connected (${String(s.disconnects)} disconnections), ${String(s.published)} messages (${String(s.acknowledged)} acknowledged, ${String(s.failed)} failed), ${String(s.points)} points, ${String(s.commands)} commands`,
    );
  };
  const ticker = setInterval(report, 10_000);
  stopping = async () => {
    clearInterval(ticker);
    await fleet.stop();
    report();
  };
  if (args.duration) setTimeout(onSignal, Number(args.duration) * 1000);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
