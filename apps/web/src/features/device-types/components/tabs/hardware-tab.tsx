/** Hardware configuration of a type (spec §3 Hardware config): the shared hardware rows over the type's calls. */
import { useTranslation } from 'react-i18next';
import { HardwareRows } from '../../../../components/hardware-rows/hardware-rows';
import { hardwareResource } from '../../api/device-types-api';

export function HardwareTab({ typeId }: { typeId: number }) {
  const { t } = useTranslation();
  return <HardwareRows resource={hardwareResource} pathParams={{ typeId }} description={t('typeHardware.description')} />;
}
