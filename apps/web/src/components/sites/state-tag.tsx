import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLiveState } from '../../lib/live/live-hooks';
import type { LiveState } from '../../lib/live/live-store';

/** The i18n key naming a state. */
export function stateLabelKey(state: LiveState): 'map.state.warning' | 'map.state.online' | 'map.state.offline' {
  return state === 2 ? 'map.state.warning' : state === 1 ? 'map.state.online' : 'map.state.offline';
}

/** Online (green), online with a warning (amber) or offline (grey), in words as well as colour. */
export function StateTag({ online, warning = false }: { online: boolean; warning?: boolean }) {
  const { t } = useTranslation();
  if (online && warning) return <Tag color="warning">{t('map.state.warning')}</Tag>;
  if (online) return <Tag color="success">{t('map.state.online')}</Tag>;
  return <Tag>{t('map.state.offline')}</Tag>;
}

/** A device's state: as fetched (the server's State, 2 while an alarm is active), then as the live connection says. */
export function DeviceStateTag({ sn, online, state: fetched }: { sn: string; online: boolean; state?: number }) {
  const state = useLiveState(sn, !online ? 0 : fetched === 2 ? 2 : 1);
  return <StateTag online={state > 0} warning={state === 2} />;
}
