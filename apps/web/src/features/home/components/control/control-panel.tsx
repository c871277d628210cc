/**
 * A device's Control panel (spec §2 device control tabs, §4, §5, §8), drawn from its type's
 * modules and controls (GET {g}/{sn}/DeviceControl): control-mode tabs, then one card per module
 * with its controls — switches for boolean points (boolean2 read-only), selects for enum and
 * select points, set-and-current inputs for numbers, times and text — and one-key stop and alarm
 * reset behind a danger question. Every change asks first and follows the command's life
 * (use-command.ts). Controls are disabled, with the reason, for a user who may not control the
 * device, while it is offline, and in auto mode (all but the mode itself and one-key stop, as the
 * server rules). Below them, the device's run model (run-model-panel.tsx).
 */
import { useCallback, useMemo, type ReactNode } from 'react';
import { Alert, Button, Card, Flex, Select, Space, Switch, Tabs, Tag, Tooltip, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isDataType, isReadOnly, optionsOf, type DataType } from '@sluice/shared/data-types';
import type { ControlPointDto, DeviceControlDto, DeviceControlItemDto } from '@sluice/shared/device-control.schema';
import { CONTROL_MODE } from '@sluice/shared/station-keys';
import { QueryState } from '../../../../components/query-state';
import { useLiveState } from '../../../../lib/live/live-hooks';
import { deviceControlQueryOptions } from '../../api/device-control-api';
import { latestDataQueryOptions } from '../../api/device-data-api';
import { useCurrentValues } from '../use-current-values';
import { pointValue } from './point-value';
import { RunModelPanel } from './run-model-panel';
import { SetPointInput } from './set-point-input';
import { useCommand, type CommandRequest } from './use-command';
import './control-panel.css';
import { shownFormat, useStoredName, type NameOf } from '../../../../lib/stored-names';

/** The spec's minimum height of the device control module. */
const MIN_HEIGHT = 346;

const typeOf = (point: ControlPointDto): DataType | undefined => (isDataType(point.DataType) ? point.DataType : undefined);

const shownValue = pointValue;

/** The panel with its stored names and option labels in the user's language (the keys sent stay). */
function shownPanel(panel: DeviceControlDto, name: NameOf): DeviceControlDto {
  const point = (p: ControlPointDto): ControlPointDto => ({
    ...p,
    Name: name(p.Name),
    Format: shownFormat(name, p.DataType, p.Format),
  });
  const optional = (p: ControlPointDto | null) => (p ? point(p) : null);
  return {
    ...panel,
    ControlMode: optional(panel.ControlMode),
    OneKeyStop: optional(panel.OneKeyStop),
    AlarmReset: optional(panel.AlarmReset),
    Modules: panel.Modules.map((m) => ({
      ...m,
      ModuleName: name(m.ModuleName),
      Controls: m.Controls.map((c) => ({
        ...c,
        ControlName: name(c.ControlName),
        Point: point(c.Point),
        Current: optional(c.Current),
        Feedbacks: c.Feedbacks.map(point),
      })),
    })),
  };
}

export function ControlPanel({ g, sn, deviceName }: { g: number; sn: string; deviceName: string }) {
  const { t } = useTranslation();
  const query = useQuery(deviceControlQueryOptions(g, sn));
  const { valueOf } = useCurrentValues(g, sn);
  const state = useLiveState(sn, query.data?.Online ? 1 : 0);
  const name = useStoredName();
  const panel = useMemo(() => (query.data ? shownPanel(query.data, name) : undefined), [query.data, name]);
  const { confirmAndSend, pending } = useCommand(g, sn, { hasControlMode: panel?.ControlMode != null });
  const client = useQueryClient();
  // At a countdown's end the device switches phase: fetch its values rather than wait for its next report.
  const refreshValues = useCallback(() => {
    void client.invalidateQueries({ queryKey: latestDataQueryOptions(g, sn).queryKey });
  }, [client, g, sn]);

  const empty = panel !== undefined && panel.Modules.length === 0 && !panel.ControlMode && !panel.OneKeyStop && !panel.AlarmReset;
  return (
    <section aria-label={t('control.title')} style={{ minHeight: MIN_HEIGHT }}>
      <QueryState query={query} empty={empty} emptyText={t('control.notConfigured')}>
        {panel ? (
          <PanelBody
            deviceName={deviceName}
            panel={panel}
            online={state !== 0}
            valueOf={valueOf}
            pending={pending}
            send={confirmAndSend}
            onCountdownEnd={refreshValues}
          />
        ) : null}
      </QueryState>
      <div style={{ marginTop: 12 }}>
        <RunModelPanel
          g={g}
          sn={sn}
          deviceName={deviceName}
          online={state !== 0}
          canControl={panel?.CanControl ?? false}
          read={valueOf}
          send={confirmAndSend}
          pending={pending}
          onCountdownEnd={refreshValues}
        />
      </div>
    </section>
  );
}

function PanelBody({
  deviceName,
  panel,
  online,
  valueOf,
  pending,
  send,
  onCountdownEnd,
}: {
  deviceName: string;
  panel: DeviceControlDto;
  onCountdownEnd: () => void;
  online: boolean;
  valueOf: (key: string) => number | string | undefined;
  pending: ReadonlySet<string>;
  send: (request: CommandRequest) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const mode = panel.ControlMode ? valueOf(panel.ControlMode.Key) : undefined;
  const auto = mode !== undefined && Number(mode) === CONTROL_MODE.auto;
  // Why nothing may be changed; then why manual control is refused now.
  const blocked = !panel.CanControl ? t('control.viewOnly') : !online ? t('control.offline') : undefined;
  const manualBlocked = blocked ?? (auto ? t('control.autoMode') : undefined);

  const ask = (point: ControlPointDto, control: string, value: number | string, danger = false) =>
    send({ key: point.Key, value, control, name: point.Name, shown: shownValue(point, value), danger });

  return (
    <Flex vertical gap={12}>
      {blocked ? (
        <Alert type="info" showIcon title={blocked} />
      ) : auto ? (
        <Alert type="warning" showIcon title={t('control.autoMode')} />
      ) : null}
      {panel.ControlMode ? (
        <ModeTabs
          point={panel.ControlMode}
          value={mode}
          disabledReason={blocked}
          pending={pending.has(panel.ControlMode.Key)}
          onPick={(v) => (panel.ControlMode ? ask(panel.ControlMode, deviceName, v) : Promise.resolve(false))}
        />
      ) : null}
      {panel.OneKeyStop || panel.AlarmReset ? (
        <Space wrap>
          {panel.OneKeyStop ? (
            <StopButton
              point={panel.OneKeyStop}
              stopped={Number(valueOf(panel.OneKeyStop.Key)) === 1}
              disabledReason={blocked}
              pending={pending.has(panel.OneKeyStop.Key)}
              onPick={(v) => (panel.OneKeyStop ? ask(panel.OneKeyStop, deviceName, v, v === 1) : Promise.resolve(false))}
            />
          ) : null}
          {panel.AlarmReset ? (
            <Tooltip title={manualBlocked}>
              <Button
                danger
                disabled={manualBlocked !== undefined}
                loading={pending.has(panel.AlarmReset.Key)}
                onClick={() => {
                  if (panel.AlarmReset) void ask(panel.AlarmReset, deviceName, 1, true);
                }}
              >
                {t('control.alarmReset')}
              </Button>
            </Tooltip>
          ) : null}
        </Space>
      ) : null}
      <div className="sluice-control-modules">
        {panel.Modules.map((m) => (
          <Card key={m.Id} size="small" title={m.ModuleName}>
            <Flex vertical gap={12}>
              {m.Controls.map((c) => (
                <ControlRow
                  key={c.Id}
                  item={c}
                  valueOf={valueOf}
                  online={online}
                  onCountdownEnd={onCountdownEnd}
                  disabledReason={isReadOnlyPoint(c.Point) ? t('control.pointReadOnly') : manualBlocked}
                  pending={pending.has(c.Point.Key)}
                  onSend={(value, shown) => send({ key: c.Point.Key, value, control: c.ControlName, name: c.Point.Name, shown })}
                />
              ))}
            </Flex>
          </Card>
        ))}
      </div>
    </Flex>
  );
}

const isReadOnlyPoint = (point: ControlPointDto) => {
  const type = typeOf(point);
  return type === undefined || isReadOnly(type);
};

function ModeTabs({
  point,
  value,
  disabledReason,
  pending,
  onPick,
}: {
  point: ControlPointDto;
  value: number | string | undefined;
  disabledReason: string | undefined;
  pending: boolean;
  onPick: (value: number | string) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const type = typeOf(point);
  const options = type ? optionsOf(type, point.Format) : [];
  const active = value === undefined ? undefined : String(value);
  return (
    <Tooltip title={disabledReason}>
      <div>
        <Typography.Text type="secondary">{t('control.mode')}</Typography.Text>
        <Tabs
          activeKey={active ?? ''}
          aria-label={t('control.mode')}
          aria-busy={pending}
          items={options.map((o) => ({ key: o.value, label: o.label, disabled: disabledReason !== undefined || pending }))}
          onChange={(key) => {
            if (key === active) return;
            void onPick(/^\d+$/.test(key) ? Number(key) : key);
          }}
        />
      </div>
    </Tooltip>
  );
}

function StopButton({
  point,
  stopped,
  disabledReason,
  pending,
  onPick,
}: {
  point: ControlPointDto;
  stopped: boolean;
  disabledReason: string | undefined;
  pending: boolean;
  onPick: (value: number) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  return (
    <Tooltip title={disabledReason}>
      <Button
        danger={!stopped}
        type={stopped ? 'default' : 'primary'}
        disabled={disabledReason !== undefined}
        loading={pending}
        data-key={point.Key}
        onClick={() => {
          void onPick(stopped ? 0 : 1);
        }}
      >
        {stopped ? t('control.releaseStop') : t('control.oneKeyStop')}
      </Button>
    </Tooltip>
  );
}

function Feedback({ point, value }: { point: ControlPointDto; value: number | string | undefined }) {
  return (
    <Tag variant="filled" data-key={point.Key}>
      {point.Name}: {shownValue(point, value)}
    </Tag>
  );
}

function ControlRow({
  item,
  valueOf,
  online,
  onCountdownEnd,
  disabledReason,
  pending,
  onSend,
}: {
  item: DeviceControlItemDto;
  online: boolean;
  onCountdownEnd: () => void;
  valueOf: (key: string) => number | string | undefined;
  disabledReason: string | undefined;
  pending: boolean;
  onSend: (value: number | string | boolean, shown: string) => Promise<boolean>;
}) {
  const point = item.Point;
  const value = valueOf(point.Key);
  const type = typeOf(point);
  const feedbacks = item.Feedbacks.filter((f) => f.Key !== point.Key);
  let widget: ReactNode;
  if (type === 'boolean' || type === 'boolean2') {
    widget = (
      <Flex gap={8} align="center">
        <Tooltip title={disabledReason}>
          <Switch
            checked={value !== undefined && Number(value) === 1}
            disabled={disabledReason !== undefined}
            loading={pending}
            aria-label={item.ControlName}
            style={{ maxWidth: 120 }}
            onChange={(checked) => {
              const next = checked ? 1 : 0;
              void onSend(next, shownValue(point, next));
            }}
          />
        </Tooltip>
        <span data-key={point.Key}>{shownValue(point, value)}</span>
      </Flex>
    );
  } else if (type === 'enum' || type === 'select') {
    widget = (
      <Tooltip title={disabledReason}>
        <Select
          aria-label={item.ControlName}
          style={{ minWidth: 160 }}
          value={value === undefined ? undefined : String(value)}
          disabled={disabledReason !== undefined}
          loading={pending}
          options={optionsOf(type, point.Format).map((o) => ({ value: o.value, label: o.label }))}
          onChange={(picked: string) => {
            const next = /^-?\d+(\.\d+)?$/.test(picked) ? Number(picked) : picked;
            void onSend(next, shownValue(point, next));
          }}
        />
      </Tooltip>
    );
  } else if (type === 'textbox' || type === 'time' || type === 'string') {
    widget = (
      <SetPointInput
        item={item}
        setValue={value}
        currentValue={item.CurrentKey === null ? undefined : valueOf(item.CurrentKey)}
        online={online}
        onCountdownEnd={onCountdownEnd}
        disabledReason={disabledReason}
        pending={pending}
        onSend={(v, shown) => onSend(v, shown)}
      />
    );
  } else {
    widget = <span data-key={point.Key}>{shownValue(point, value)}</span>;
  }
  return (
    <div role="group" aria-label={item.ControlName} className="sluice-control-row">
      <Typography.Text strong>{item.ControlName}</Typography.Text>
      <div>{widget}</div>
      {feedbacks.length > 0 ? (
        <Flex gap={4} wrap>
          {feedbacks.map((f) => (
            <Feedback key={f.Key} point={f} value={valueOf(f.Key)} />
          ))}
        </Flex>
      ) : null}
    </div>
  );
}
