import { useTranslation } from 'react-i18next';
import { distanceKm, distanceMeters, type LngLat } from '@sluice/shared/distance';

/** How far a place is from the viewer: 'x.xx km', or 'locating failed' when either is unknown (spec §8). */
export function DistanceText({ from, to }: { from: LngLat | string | null | undefined; to: LngLat | string | null | undefined }) {
  const { t } = useTranslation();
  const km = distanceKm(distanceMeters(from, to));
  return <span>{km === undefined ? t('map.locatingFailed') : t('map.km', { km })}</span>;
}
