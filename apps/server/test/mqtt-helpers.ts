/** MQTT clients for pipeline tests: devices over TCP, consoles over WebSocket, and waiting for things. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { freePort } from './scratch.ts';

export async function connect(url: string, options: IClientOptions): Promise<MqttClient> {
  return mqtt.connectAsync(url, { connectTimeout: 5000, reconnectPeriod: 0, protocolVersion: 4, ...options });
}

/** Connects and answers the CONNACK error instead of throwing. */
export async function connectRefused(url: string, options: IClientOptions): Promise<string | undefined> {
  try {
    const client = await connect(url, options);
    await client.endAsync();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Collects the messages a client receives. */
export function inbox(client: MqttClient): { topic: string; payload: string }[] {
  const messages: { topic: string; payload: string }[] = [];
  client.on('message', (topic, payload) => messages.push({ topic, payload: payload.toString() }));
  return messages;
}

/**
 * How long waitFor and closed wait for what should happen before they fail: a bound for a hung
 * test, not a speed target (on a busy machine a message can take seconds; speed is measured under
 * bench/).
 */
const PATIENCE_MS = 60_000;

/** Polls `probe` until it answers a value (not undefined or false), and answers that value. */
export async function waitFor<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  what = 'condition',
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > PATIENCE_MS) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Granted QoS of a subscription: 128 when refused. */
export async function subscribeQos(client: MqttClient, filter: string): Promise<number> {
  try {
    const granted = await client.subscribeAsync(filter, { qos: 0 });
    return granted[0]?.qos ?? -1;
  } catch (error) {
    // mqtt.js rejects a refused subscription (granted 0x80).
    if (error instanceof Error && error.message.startsWith('Subscribe error')) return 128;
    throw error;
  }
}

/** Whether the connection closes (false when it is still open after PATIENCE_MS). */
export function closed(client: MqttClient): Promise<boolean> {
  if (!client.connected) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      resolve(false);
    }, PATIENCE_MS);
    client.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** The Mosquitto binary, when installed. */
export function mosquittoBinary(): string | undefined {
  for (const candidate of ['/usr/sbin/mosquitto', '/usr/bin/mosquitto', '/usr/local/sbin/mosquitto']) {
    if (spawnSync(candidate, ['-h']).error === undefined) return candidate;
  }
  return undefined;
}

export interface Mosquitto {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Mosquitto on a free port of 127.0.0.1, anonymous, without persistence, with `extra` lines of
 * configuration (mosquitto.conf); answers once a client can connect. Tests and bench/ use it.
 */
export async function startMosquitto(extra: string[] = []): Promise<Mosquitto> {
  const binary = mosquittoBinary();
  if (!binary) throw new Error('Mosquitto is not installed (apt-get install mosquitto)');
  const port = await freePort();
  const dir = await mkdtemp(path.join(tmpdir(), 'sluice-mosquitto-'));
  const conf = path.join(dir, 'mosquitto.conf');
  await writeFile(
    conf,
    [`listener ${String(port)} 127.0.0.1`, 'allow_anonymous true', 'persistence false', ...extra, ''].join('\n'),
  );
  const child = spawn(binary, ['-c', conf], { stdio: 'ignore' });
  const url = `mqtt://127.0.0.1:${String(port)}`;
  await waitFor(
    () =>
      connect(url, { clientId: `probe-${String(Date.now())}` }).then(
        (c) => c.endAsync().then(() => true),
        () => false,
      ),
    'Mosquitto',
  );
  return {
    url,
    child,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
