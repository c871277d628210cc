/**
 * One data point's value by the panel view (spec §3 panel view mode: detection 0, monitoring 1,
 * status 2): detection shows the number with its unit; monitoring a gauge for a value with a
 * range, a tank's level as water (the wave on hover), or the monitor display; status a state
 * light (on, off, no value).
 */
import { Badge, Flex, Progress, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { NUMERIC_DATA_TYPES, OPTION_DATA_TYPES, displayValue, parseNumberFormat, type DataType } from '@sluice/shared/data-types';
import { WaveLevel } from '../../../../components/dashboard/wave-level';

export const VIEW_KINDS = { detection: 0, monitoring: 1, status: 2 } as const;
export type ViewKind = (typeof VIEW_KINDS)[keyof typeof VIEW_KINDS];

export interface PointRow {
  key: string;
  name: string;
  unit: string;
  type: DataType | undefined;
  format: string;
  view: ViewKind;
}

const LEVEL_KEY = /level/i;

function rangeOf(point: PointRow): { min: number; max: number } | undefined {
  if (!point.type || !NUMERIC_DATA_TYPES.includes(point.type)) return undefined;
  const format = parseNumberFormat(point.format);
  if (typeof format === 'string' || format.Max === undefined) return undefined;
  const min = format.Min ?? 0;
  return format.Max > min ? { min, max: format.Max } : undefined;
}

function shown(point: PointRow, value: number | string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = point.type ? displayValue(point.type, point.format, value) : String(value);
  return point.unit && !(point.type && OPTION_DATA_TYPES.includes(point.type)) ? `${text} ${point.unit}` : text;
}

/** The point's state for a light: on, off, or none yet. */
function stateOf(value: number | string | undefined): 'on' | 'off' | 'none' {
  if (value === undefined || value === '') return 'none';
  const number = typeof value === 'number' ? value : Number(value);
  if (Number.isFinite(number)) return number !== 0 ? 'on' : 'off';
  return 'on';
}

export function PointView({ point, value }: { point: PointRow; value: number | string | undefined }) {
  const { t } = useTranslation();
  const text = shown(point, value);
  const name = (
    <Typography.Text type="secondary" className="sluice-point-name" title={point.key}>
      {point.name}
    </Typography.Text>
  );

  if (point.view === VIEW_KINDS.status) {
    const state = stateOf(value);
    const label =
      state === 'none'
        ? t('dashboard.stateUnknown')
        : point.type === 'enum' || point.type === 'select'
          ? (text ?? '')
          : state === 'on'
            ? t('dashboard.stateOn')
            : t('dashboard.stateOff');
    return (
      <Flex
        className="sluice-point sluice-point-status"
        data-point={point.key}
        data-view="status"
        data-state={state}
        gap={8}
        align="center"
      >
        <Badge status={state === 'on' ? 'success' : state === 'off' ? 'default' : 'warning'} />
        {name}
        <Typography.Text strong data-key={point.key}>
          {label}
        </Typography.Text>
      </Flex>
    );
  }

  if (point.view === VIEW_KINDS.monitoring) {
    const range = rangeOf(point);
    const number = typeof value === 'number' ? value : value === undefined ? undefined : Number(value);
    if (range && number !== undefined && Number.isFinite(number)) {
      const ratio = (number - range.min) / (range.max - range.min);
      const percent = Math.round(Math.min(1, Math.max(0, ratio)) * 100);
      const label = t('dashboard.levelOf', { name: point.name, value: text ?? '', max: shown(point, range.max) ?? '' });
      return (
        <Flex
          className="sluice-point sluice-point-monitor"
          data-point={point.key}
          data-view="monitoring"
          vertical
          align="center"
          gap={4}
        >
          {LEVEL_KEY.test(point.key) ? (
            <WaveLevel ratio={ratio} label={label} />
          ) : (
            <Progress
              type="dashboard"
              percent={percent}
              size={72}
              format={() => <span data-key={point.key}>{text}</span>}
              aria-label={label}
            />
          )}
          {name}
          {LEVEL_KEY.test(point.key) ? (
            <Typography.Text strong data-key={point.key}>
              {text}
            </Typography.Text>
          ) : null}
        </Flex>
      );
    }
    // The monitor display: the value large in a box.
    return (
      <Flex
        className="sluice-point sluice-point-monitor sluice-monitor-display"
        data-point={point.key}
        data-view="monitoring"
        vertical
        gap={2}
      >
        {name}
        <Typography.Text strong className="sluice-monitor-value" data-key={point.key}>
          {text ?? t('dashboard.noValue')}
        </Typography.Text>
      </Flex>
    );
  }

  return (
    <tr className="sluice-point sluice-point-detection" data-point={point.key} data-view="detection">
      <th scope="row">{name}</th>
      <td>
        <span data-key={point.key}>{text ?? '—'}</span>
      </td>
    </tr>
  );
}
