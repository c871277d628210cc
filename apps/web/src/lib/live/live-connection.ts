/**
 * The one live connection of the signed-in console: GET /api/Mqtt/Config says where and what
 * to subscribe to; the username is the account, and the broker takes the session from the
 * HttpOnly cookie the WebSocket upgrade carries (the console never holds the token). Messages
 * go into the live store. Queries whose answers hold online states or counts carry
 * `meta: { live: true }`: they are fetched again after a reconnect (what happened while the
 * network was away) and, a little later, after state changes (a station's state, the counts).
 */
import { TopicCodec, type TopicTemplates } from '@sluice/shared/device-protocol';
import type { MqttConfigDto } from '@sluice/shared/telemetry.schema';
import { api } from '../api-client';
import { hasSession } from '../cookies';
import { queryClient } from '../query-client';
import { LiveStore } from './live-store';
import { MqClient } from './mq-client';

export const liveStore = new LiveStore();

/** After state changes, counts and station states are fetched again at most this often. */
const RESYNC_DELAY_MS = 3000;

let client: MqClient | undefined;
let resyncTimer: ReturnType<typeof setTimeout> | undefined;

function refetchLiveQueries(): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (q) => q.meta?.live === true });
}

/** After a reconnect: what the pages fetch now replaces what was heard before the drop. */
async function resyncAfterReconnect(): Promise<void> {
  const mark = liveStore.mark();
  await refetchLiveQueries();
  liveStore.forgetBefore(mark);
}

function scheduleResync(): void {
  resyncTimer ??= setTimeout(() => {
    resyncTimer = undefined;
    void refetchLiveQueries();
  }, RESYNC_DELAY_MS);
}

export function brokerUrl(config: Pick<MqttConfigDto, 'Url' | 'Path'>, location: Pick<Location, 'protocol' | 'host'>): string {
  if (config.Url) return config.Url;
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${config.Path}`;
}

/**
 * Connects (again) for the signed-in user; resolves when connected, rejects with the error
 * message when the first attempt fails (the client keeps trying in the background).
 */
export async function startLive(): Promise<void> {
  stopLive();
  if (!hasSession()) return;
  const [{ data: config }, mqtt] = await Promise.all([api.get<MqttConfigDto>('/Mqtt/Config'), import('mqtt')]);
  // No configuration (a server without live data): the console works without it.
  if (!(config as MqttConfigDto | null)?.Topics) return;
  const codec = new TopicCodec(config.Topics as TopicTemplates);
  // The browser build of mqtt.js exports its API as the default export.
  const { connect } = (mqtt as unknown as { default?: typeof mqtt }).default ?? mqtt;
  const mq = new MqClient((url, options) => connect(url, options));
  client = mq;
  mq.onStateChange((connected, reconnected) => {
    liveStore.setConnected(connected);
    if (reconnected) void resyncAfterReconnect();
  });
  const onMessage = (payload: unknown, topic: string, retained: boolean) => {
    const address = codec.parse(topic);
    if (!address) return;
    const before = liveStore.stateSnapshot();
    liveStore.receive(address.kind, address.deviceSn, payload, retained);
    if (liveStore.stateSnapshot() !== before) scheduleResync();
  };
  await Promise.all(config.Subscriptions.map((filter) => mq.subscribe(filter, onMessage)));
  await mq.connect({
    url: brokerUrl(config, window.location),
    username: config.Username,
    connectTimeoutMs: config.ConnectTimeout,
    keepaliveSeconds: config.KeepAlive,
    clean: config.Clean,
  });
}

export function stopLive(): void {
  client?.end();
  client = undefined;
  clearTimeout(resyncTimer);
  resyncTimer = undefined;
  liveStore.clear();
}

/** The live client, for once-only handlers (a command's acknowledgement) and the like. */
export function liveClient(): MqClient | undefined {
  return client;
}
