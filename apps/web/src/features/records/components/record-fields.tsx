/** Pieces the field-record forms share: a date-time input, a device picker, a compliance mark. */
import { Input, Select, Space, Tag, Tooltip, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DeviceInputDto } from '@sluice/shared/field-records.schema';
import type { FormFieldDef } from '../../../components/resource-table/resource-types';
import { api } from '../../../lib/api-client';
import { dayjs, formatDateTime } from '../../../lib/dates';
import { ValueWithUnit } from '../../../components/cells';
import { useGroupId } from '../../../lib/group';
import type { MessageKey } from '../../../lib/i18n';

const INPUT_FORMAT = { time: 'YYYY-MM-DDTHH:mm', date: 'YYYY-MM-DD' } as const;

/**
 * A date-time field of a resource form: the browser's own date-time input (the phone's wheel
 * picker, typing on a keyboard), holding its text; toMillis turns it into epoch ms.
 */
export function dateTimeField(name: string, label: MessageKey, required: boolean, withTime = true): FormFieldDef {
  return {
    name,
    label,
    kind: 'custom',
    rules: required ? [{ required: true, message: '' }] : [],
    render: ({ id }) => <Input id={id} type={withTime ? 'datetime-local' : 'date'} />,
  };
}

/** Epoch ms of a date-time input's text (null when emptied, undefined when absent). */
export function toMillis(value: unknown): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || value === '') return null;
  if (typeof value !== 'string') return undefined;
  const at = dayjs(value);
  return at.isValid() ? at.valueOf() : undefined;
}

/** The input's text of a time (a date-time input's, or a date input's when `withTime` is false). */
export const fromMillis = (value: number | null | undefined, withTime = true) =>
  value === null || value === undefined ? '' : dayjs(value).format(withTime ? INPUT_FORMAT.time : INPUT_FORMAT.date);

export const dateTimeText = (value: number | null | undefined) =>
  value === null || value === undefined ? '' : formatDateTime(value);

/** The devices the user reaches, as choices (of one station when given). */
export function DeviceSelect({
  id,
  value,
  onChange,
  projectId,
}: {
  id?: string;
  value?: string;
  onChange?: (value: string | undefined) => void;
  projectId?: number;
}) {
  const { t } = useTranslation();
  const g = useGroupId();
  const { data = [], isPending } = useQuery({
    queryKey: ['record-devices', g, projectId],
    queryFn: async () =>
      (
        await api.get<{ DeviceSn: string; DeviceName: string }[]>(
          `/${String(g)}/Device/AllDevice`,
          projectId === undefined ? {} : { ProjectId: projectId },
        )
      ).data,
    enabled: g > 0,
  });
  return (
    <Select
      id={id}
      value={value}
      onChange={onChange}
      loading={isPending}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={t('records.chooseDevice')}
      options={data.map((d) => ({ value: d.DeviceSn, label: `${d.DeviceName || d.DeviceSn} (${d.DeviceSn})` }))}
    />
  );
}

/** Parameters shown in the effluent column, with their catalog names. */
export const SHOWN_PARAMS = ['COD', 'BOD5', 'NH3_N', 'TN', 'TP', 'SS', 'PH', 'FC'] as const;

/** Each shown parameter's unit: concentrations in mg/L, faecal coliforms per litre, pH none. */
function useParamUnit(): (param: (typeof SHOWN_PARAMS)[number]) => string {
  const { t } = useTranslation();
  return (param) => (param === 'PH' ? '' : param === 'FC' ? t('records.units.perLitre') : 'mg/L');
}

/** The effluent values of a record, a failing one marked in red with its word. */
export function EffluentValues({ row }: { row: DeviceInputDto }) {
  const { t } = useTranslation();
  const values = row as unknown as Record<string, number | null>;
  const unitOf = useParamUnit();
  return (
    <Space size={[4, 4]} wrap>
      {SHOWN_PARAMS.map((p) => {
        const value = values[`${p}_Out`];
        if (value === null || value === undefined) return null;
        const pass = row.Compliance[p];
        return (
          <Tag key={p} color={pass === false ? 'error' : undefined}>
            {t(`records.params.${p}`)} <ValueWithUnit value={value} unit={unitOf(p)} />
            {pass === false ? ` · ${t('records.quality.over')}` : ''}
          </Tag>
        );
      })}
    </Space>
  );
}

/** Compliant, over the standard (naming the parameters) or not judged. */
export function ComplianceMark({ row }: { row: DeviceInputDto }) {
  const { t } = useTranslation();
  if (row.Compliant === null)
    return (
      <Tooltip title={row.Standard ? t('records.quality.nothingJudged') : t('records.quality.noStandard')}>
        <Tag>{t('records.quality.notJudged')}</Tag>
      </Tooltip>
    );
  if (row.Compliant) return <Tag color="success">{t('records.quality.compliant')}</Tag>;
  const failing = Object.entries(row.Compliance)
    .filter(([, pass]) => pass === false)
    .map(([p]) => t(`records.params.${p}` as MessageKey));
  return (
    <Space orientation="vertical" size={0}>
      <Tag color="error">{t('records.quality.nonCompliant')}</Tag>
      <Typography.Text type="danger" style={{ fontSize: 12 }}>
        {failing.join(', ')}
      </Typography.Text>
    </Space>
  );
}
