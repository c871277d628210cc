/** The fields of a place shared by the project, station and device dialogs. */
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { anyText, optional } from '@sluice/shared/rules';
import { optionalPosition } from '@sluice/shared/geo.schema';
import { zodFieldRules } from '../../lib/zod-form';
import { AreaCascader } from './area-cascader';
import { PositionInput } from './position-input';

/** Where a place is: its area, address and position (longitude,latitude), picked on a map or typed. */
export function LocationFields({ positionHint }: { positionHint?: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="AreaId" label={t('sites.fields.area')}>
        <AreaCascader />
      </Form.Item>
      <Form.Item name="Address" label={t('sites.fields.address')} rules={zodFieldRules(optional(anyText(0, 200)))}>
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item name="Position" label={t('sites.fields.position')} extra={positionHint} rules={zodFieldRules(optionalPosition)}>
        <PositionInput />
      </Form.Item>
    </>
  );
}
