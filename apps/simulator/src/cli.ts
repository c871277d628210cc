/**
 * npm run simulate -- --devices N --interval S --url mqtt://host:1883 [options]
 *
 * Credentials, one of:
 *   --credentials file.json   [{ "DeviceSn", "Secret", "GroupId", "Station"? }, …]
 *   --api http://host:3000 --account A --password P
 *                             adds a project, a station and N devices through the API (the
 *                             account needs device.manage) and saves their credentials to
 *                             --save (default simulator-devices.json) for the next run
 * Other options: --qos 0|1 (1), --stations K (devices per station: 4), --duration S (run for
 * S seconds, then print figures), --faults R (faults per equipment per hour, 0.002),
 * --no-error-topic, and --topic-data … --topic-ack to map other topic templates.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { DEFAULT_TOPICS, type TopicTemplates } from '@sluice/shared/device-protocol';
import { Fleet, type SimDevice } from './fleet.ts';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string', default: 'mqtt://localhost:1883' },
    devices: { type: 'string', default: '10' },
    interval: { type: 'string', default: '5' },
    qos: { type: 'string', default: '1' },
    stations: { type: 'string', default: '4' },
    duration: { type: 'string' },
    faults: { type: 'string', default: '0.002' },
    credentials: { type: 'string' },
    api: { type: 'string' },
    account: { type: 'string' },
    password: { type: 'string' },
    save: { type: 'string', default: 'simulator-devices.json' },
    'no-error-topic': { type: 'boolean', default: false },
    'topic-data': { type: 'string' },
    'topic-error': { type: 'string' },
    'topic-status': { type: 'string' },
    'topic-cmd': { type: 'string' },
    'topic-ack': { type: 'string' },
  },
});

interface Credential {
  DeviceSn: string;
  Secret: string;
  GroupId: number;
  Station?: string;
}

interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
}

async function api<T>(base: string, path: string, init: { method?: string; token?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(`${base.replace(/\/$/, '')}/api${path}`, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const body = (await response.json()) as Envelope<T>;
  if (!body.success) throw new Error(`${path}: ${body.message}`);
  return body.data;
}

async function provision(
  base: string,
  account: string,
  password: string,
  count: number,
  perStation: number,
): Promise<Credential[]> {
  const { Token: token } = await api<{ Token: string }>(base, '/User', {
    method: 'POST',
    body: { Account: account, Password: password },
  });
  const { GroupId: g } = await api<{ GroupId: number }>(base, '/user/myinfo', { token });
  const project = await api<{ Id: number }>(base, `/${String(g)}/project`, {
    method: 'POST',
    token,
    body: { Name: `模拟 Simulator ${new Date().toISOString().slice(0, 16)}`, ProjectType: 0, ParentId: 0 },
  });
  const credentials: Credential[] = [];
  let station = 0;
  for (let i = 0; i < count; i++) {
    if (i % perStation === 0) {
      station = (
        await api<{ Id: number }>(base, `/${String(g)}/project`, {
          method: 'POST',
          token,
          body: { Name: `模拟站 Station ${String(i / perStation + 1)}`, ProjectType: 1, ParentId: project.Id },
        })
      ).Id;
    }
    const created = await api<{ Device: { DeviceSn: string }; Credential: { Username: string; Password: string } }>(
      base,
      `/${String(g)}/Device`,
      {
        method: 'POST',
        token,
        body: { DeviceName: `模拟设备 Simulated ${String(i + 1)}`, ProjectId: station },
      },
    );
    credentials.push({
      DeviceSn: created.Device.DeviceSn,
      Secret: created.Credential.Password,
      GroupId: g,
      Station: String(station),
    });
  }
  return credentials;
}

async function main(): Promise<void> {
  const count = Number(args.devices);
  const perStation = Math.max(1, Number(args.stations));
  let credentials: Credential[];
  if (args.credentials) {
    credentials = (JSON.parse(await readFile(args.credentials, 'utf8')) as Credential[]).slice(0, count);
  } else if (args.api && args.account && args.password) {
    credentials = await provision(args.api, args.account, args.password, count, perStation);
    await writeFile(args.save, JSON.stringify(credentials, null, 1));
    console.log(`Added ${String(credentials.length)} devices; credentials saved to ${args.save}`);
  } else {
    console.error(
      'Give --credentials file.json, or --api URL --account A --password P to add devices. See the top of apps/simulator/src/cli.ts.',
    );
    process.exit(2);
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
      `${seconds.toFixed(0)} s: ${String(s.connected)} connected, ${String(s.published)} messages (${String(s.acknowledged)} acknowledged, ${String(s.failed)} failed), ${String(s.points)} points, ${String(s.commands)} commands`,
    );
  };
  const ticker = setInterval(report, 10_000);
  const stop = async () => {
    clearInterval(ticker);
    await fleet.stop();
    report();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  if (args.duration) setTimeout(() => void stop(), Number(args.duration) * 1000);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
