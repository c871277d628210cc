/**
 * A device's newest values: what the server had when the page loaded (GET …/DeviceHisData/Latest),
 * overlaid with what arrived live since, once the live data is the newer.
 */
import { useQuery } from '@tanstack/react-query';
import { useLiveDevice } from '../../../lib/live/live-hooks';
import { latestDataQueryOptions } from '../api/device-data-api';

export function useCurrentValues(g: number, sn: string) {
  const latest = useQuery(latestDataQueryOptions(g, sn));
  const live = useLiveDevice(sn);
  const liveNewer = live.time !== undefined && (latest.data?.Time == null || live.time >= latest.data.Time);
  const valueOf = (key: string): number | string | undefined =>
    liveNewer ? (live.data[key] ?? latest.data?.Data[key]) : latest.data?.Data[key];
  return {
    latest,
    /** Live data is newer than what the page fetched. */
    liveNewer,
    liveData: live.data,
    valueOf,
    time: liveNewer ? live.time : (latest.data?.Time ?? undefined),
  };
}
