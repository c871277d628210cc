/**
 * The one way the console shows a device's, station's or project's state (spec §4): online
 * (green), online with a warning (amber; hovering names the active alarm) or offline (grey;
 * hovering says when it was last heard). Fed by the server's State and, for a device, by what
 * the live connection says since; cards, rows, tags, headers and the map legend use it.
 */
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/dates';
import { useLiveState } from '../../lib/live/live-hooks';
import type { LiveState } from '../../lib/live/live-store';
import { useStoredName } from '../../lib/stored-names';

/** The i18n key naming a state. */
export function stateLabelKey(state: LiveState): 'map.state.warning' | 'map.state.online' | 'map.state.offline' {
  return state === 2 ? 'map.state.warning' : state === 1 ? 'map.state.online' : 'map.state.offline';
}

/** A fetched State (0, 1, 2) as a LiveState; an online flag without a State reads as online. */
export function toLiveState(state: number | undefined, online: boolean): LiveState {
  if (!online) return 0;
  return state === 2 ? 2 : 1;
}

export interface StateFacts {
  state: LiveState;
  /** The active alarm's name (a device). */
  alarm?: string | null | undefined;
  /** How many devices are online with an active alarm (a project or station). */
  warnings?: number | undefined;
  /** When it was last heard (ms): shown while offline. */
  lastSeen?: number | null | undefined;
}

/** What hovering the state says: the alarm, or when it was last heard. */
export function useStateHint({ state, alarm, warnings, lastSeen }: StateFacts): string | undefined {
  const { t } = useTranslation();
  const name = useStoredName();
  if (state === 2) {
    if (alarm) return t('map.state.alarm', { name: name(alarm) });
    if (warnings) return t('map.state.alarms', { count: warnings });
    return t('map.state.alarmActive');
  }
  if (state === 0) return lastSeen ? t('map.state.lastSeen', { time: formatDateTime(lastSeen) }) : t('map.state.neverSeen');
  return undefined;
}

/** Online (green), online with a warning (amber) or offline (grey), in words as well as colour. */
export function StateTag(facts: StateFacts) {
  const { t } = useTranslation();
  const hint = useStateHint(facts);
  const { state } = facts;
  const tag = (
    <Tag
      color={state === 2 ? 'warning' : state === 1 ? 'success' : undefined}
      data-state={state}
      aria-description={hint}
      style={{ marginInlineEnd: 0, flex: 'none' }}
    >
      {t(stateLabelKey(state))}
    </Tag>
  );
  return hint ? <Tooltip title={hint}>{tag}</Tooltip> : tag;
}

/** The state of a device as fetched (Online, State, Alarm, LastSeen), then as the live connection says. */
export interface DeviceStateFacts {
  DeviceSn: string;
  Online: boolean;
  State?: number;
  Alarm?: string | null;
  LastSeen?: number | null;
}

/** A device's state: the server's, then the live connection's. */
export function useDeviceState(device: DeviceStateFacts): LiveState {
  return useLiveState(device.DeviceSn, toLiveState(device.State, device.Online));
}

export function DeviceStateTag({ device }: { device: DeviceStateFacts }) {
  const state = useDeviceState(device);
  // A live warning whose alarm the page has not fetched yet says an alarm is active, without a stale name.
  return <StateTag state={state} alarm={state === 2 ? device.Alarm : undefined} lastSeen={device.LastSeen} />;
}

/** A project's or station's state, from its counts. */
export function SiteStateTag({
  site,
}: {
  site: { State?: number; Online: boolean; WarningNum?: number; LastSeen?: number | null };
}) {
  return <StateTag state={toLiveState(site.State, site.Online)} warnings={site.WarningNum} lastSeen={site.LastSeen} />;
}
