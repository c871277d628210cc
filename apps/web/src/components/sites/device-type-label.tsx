import { HddOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { DeviceTypeRef } from '../../lib/sites';
import { iconElement } from '../icon-name';

export function typeName(
  types: readonly DeviceTypeRef[] | undefined,
  typeId: number | null,
  t: (key: 'devices.typeN' | 'devices.noType', o?: { id: number }) => string,
): string {
  if (typeId === null) return t('devices.noType');
  return types?.find((type) => type.Id === typeId)?.TypeName ?? t('devices.typeN', { id: typeId });
}

/** A device type's icon (its ICON as an image address or an icon name), else a generic one. */
export function DeviceTypeIcon({
  types,
  typeId,
  size = 28,
}: {
  types: readonly DeviceTypeRef[] | undefined;
  typeId: number | null;
  size?: number;
}) {
  const icon = types?.find((type) => type.Id === typeId)?.ICON ?? '';
  if (/^(\/|https?:\/\/)/.test(icon))
    return <img src={icon} alt="" width={size} height={size} style={{ objectFit: 'contain' }} />;
  return iconElement(icon, size * 0.8) ?? <HddOutlined aria-hidden style={{ fontSize: size * 0.8 }} />;
}

export function DeviceTypeName({ types, typeId }: { types: readonly DeviceTypeRef[] | undefined; typeId: number | null }) {
  const { t } = useTranslation();
  return <>{typeName(types, typeId, t)}</>;
}
