/**
 * A set-and-current value control (spec §2, §4, §5): in display mode the set value and, when the
 * control's formula names one, the current value beside it with a progress bar (success while
 * current ≤ set, exception at 100 % above; the percentage floored to 2 decimals); in edit mode an
 * input, Send and Cancel. The value is checked with the rule the server checks commands with
 * (@sluice/shared/control-values): a problem shows in a red tooltip and Send is disabled.
 */
import { useState } from 'react';
import { Button, Flex, Input, Progress, Tooltip, Typography } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { checkControlValue, secondsPerUnit } from '@sluice/shared/control-values';
import type { DeviceControlItemDto } from '@sluice/shared/device-control.schema';
import type { DataValue } from '@sluice/shared/device-protocol';
import { translateMessageRef } from '../../../../lib/zod-form';
import { pointValue } from './point-value';
import { useCountdown } from './use-countdown';

/** The progress of a current value against its set value: floored to 2 decimals; above the set value, 100 and an exception. */
export function setPointProgress(current: number, set: number): { percent: number; status: 'success' | 'exception' } {
  if (current > set) return { percent: 100, status: 'exception' };
  const ratio = set === 0 ? 100 : (current / set) * 100;
  return { percent: Math.max(0, Math.floor(ratio * 100) / 100), status: 'success' };
}

const asNumber = (value: number | string | undefined) => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

export function SetPointInput({
  item,
  setValue,
  currentValue,
  disabledReason,
  pending,
  onSend,
  online = true,
  onCountdownEnd,
}: {
  item: DeviceControlItemDto;
  setValue: number | string | undefined;
  currentValue: number | string | undefined;
  /** Whether the device is online (a timed control counts down only then). */
  online?: boolean;
  /** Runs when a timed control's countdown reaches zero. */
  onCountdownEnd?: () => void;
  /** Why it may not be changed now; undefined when it may. */
  disabledReason: string | undefined;
  pending: boolean;
  /** Asks and sends; resolves whether it was sent. */
  onSend: (value: DataValue, shown: string) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<string | undefined>(undefined);
  // The tooltip shows while the user is at the input (not over another tab after they left).
  const [focused, setFocused] = useState(false);
  const point = item.Point;
  const unit = point.Unit;
  const withUnit = (v: number | string | undefined) =>
    v === undefined || v === '' ? '—' : unit ? `${String(v)} ${unit}` : String(v);
  const definition = { dataType: point.DataType, format: point.Format, unit: point.Unit, showType: point.ShowType };
  const checked = draft === undefined ? undefined : checkControlValue(definition, draft);
  const problem = checked && !checked.ok ? translateMessageRef(checked.message) : undefined;
  const inputId = `set-point-${String(item.Id)}`;

  const cancel = () => {
    setDraft(undefined);
  };
  const send = async () => {
    if (!checked?.ok) return;
    const sent = await onSend(checked.value, withUnit(checked.value));
    // Sent: the new value shows when the device reports it. Cancelled: back to the device's value.
    setDraft(undefined);
    return sent;
  };

  const set = asNumber(setValue);
  const seconds = item.CurrentKey === null ? undefined : secondsPerUnit(definition);
  const countdown = useCountdown({
    current: asNumber(currentValue),
    set,
    online,
    perSecond: seconds === undefined ? undefined : 1 / seconds,
    ...(onCountdownEnd ? { onZero: onCountdownEnd } : {}),
  });
  const current = countdown?.current ?? asNumber(currentValue);
  const progress =
    item.CurrentKey !== null && set !== undefined && current !== undefined ? setPointProgress(current, set) : undefined;

  if (draft === undefined) {
    return (
      <Flex vertical gap={4}>
        <Flex gap={12} align="center" wrap>
          <span>
            <Typography.Text type="secondary">{t('control.setValue')}: </Typography.Text>
            <span data-key={point.Key}>{withUnit(setValue)}</span>
          </span>
          {item.CurrentKey !== null ? (
            <span>
              <Typography.Text type="secondary">{t('control.currentValue')}: </Typography.Text>
              <span data-key={item.CurrentKey}>
                {item.Current ? pointValue(item.Current, current ?? currentValue) : withUnit(current ?? currentValue)}
              </span>
            </span>
          ) : null}
          {countdown ? (
            <Typography.Text type="secondary" role="timer" aria-live="off">
              {t('control.countdown', { seconds: Math.ceil(countdown.remaining * (seconds ?? 1)) })}
            </Typography.Text>
          ) : null}
          <Tooltip title={disabledReason}>
            <Button
              size="small"
              icon={<EditOutlined />}
              loading={pending}
              disabled={disabledReason !== undefined}
              aria-label={t('control.edit', { name: item.ControlName })}
              onClick={() => {
                setDraft(setValue === undefined ? '' : String(setValue));
              }}
            />
          </Tooltip>
        </Flex>
        {progress ? (
          <Progress
            size="small"
            percent={progress.percent}
            status={progress.status}
            aria-label={t('control.progress', { name: item.ControlName })}
            format={(p) => `${String(p ?? 0)}%`}
          />
        ) : null}
      </Flex>
    );
  }
  return (
    <Flex
      gap={8}
      align="center"
      wrap
      onFocus={() => {
        setFocused(true);
      }}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) setFocused(false);
      }}
    >
      <label htmlFor={inputId} className="visually-hidden">
        {t('control.newValue', { name: item.ControlName })}
      </label>
      <Tooltip title={problem} color="red" open={problem !== undefined && focused}>
        <Input
          id={inputId}
          autoFocus
          value={draft}
          status={problem ? 'error' : undefined}
          inputMode={point.DataType === 'textbox' ? 'decimal' : undefined}
          suffix={unit || undefined}
          style={{ width: 160 }}
          aria-invalid={problem !== undefined}
          aria-describedby={problem ? `${inputId}-problem` : undefined}
          onChange={(e) => {
            setDraft(e.target.value);
          }}
          onPressEnter={() => {
            void send();
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') cancel();
          }}
        />
      </Tooltip>
      {problem ? (
        <span id={`${inputId}-problem`} className="visually-hidden" role="alert">
          {problem}
        </span>
      ) : null}
      <Button
        type="primary"
        size="small"
        disabled={!checked?.ok}
        onClick={() => {
          void send();
        }}
      >
        {t('control.send')}
      </Button>
      <Button size="small" onClick={cancel}>
        {t('common.cancel')}
      </Button>
    </Flex>
  );
}
