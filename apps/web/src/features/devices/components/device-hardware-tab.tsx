/**
 * A device's own hardware rows ({g}/{sn}/DeviceHardware): the same fields, Modbus rules and read
 * frames as a type's rows (components/hardware-rows). Loaded with the device-types catalog,
 * whose hardware texts it shares.
 */
import { useTranslation } from 'react-i18next';
import { HardwareRows } from '../../../components/hardware-rows/hardware-rows';
import { deviceHardwareResource } from '../api/device-hardware-api';

export function DeviceHardwareTab({ sn }: { sn: string }) {
  const { t } = useTranslation();
  return <HardwareRows resource={deviceHardwareResource} pathParams={{ sn }} description={t('deviceHardware.description')} />;
}
