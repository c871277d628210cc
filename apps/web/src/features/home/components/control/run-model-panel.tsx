/**
 * The device's run model on its Control tab (spec §4 accessory rotation; §7 DeviceSystem,
 * DeviceSystemAccessory, DeviceSystemCotrolData): its run systems (the lift pumps' duty/standby,
 * say), each a rotation of steps — an accessory whose switch runs for its run time, then the next
 * after the system's rest — with the running one marked and its turn counted down from what the
 * device reports (§4 countdown). Operators who may control the device define systems and steps,
 * send the model to the device, and switch to the standby now, each behind a question; the device's
 * answer follows like a command's (use-command.ts).
 */
import { useMemo, useState } from 'react';
import { App, Button, Card, Collapse, Flex, Form, Input, InputNumber, Select, Space, Tag, Tooltip, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  addDeviceSystemAccessoryRequest,
  addDeviceSystemControlDataRequest,
  addDeviceSystemRequest,
  type RunModelStepDto,
  type RunModelSystemDto,
} from '@sluice/shared/run-model.schema';
import { FormDialog } from '../../../../components/form-dialog';
import { QueryState } from '../../../../components/query-state';
import { errorMessage } from '../../../../lib/form-errors';
import { zodFieldRules } from '../../../../lib/zod-form';
import {
  addStep,
  addSystem,
  addSystemAccessory,
  refreshRunModel,
  removeSystem,
  removeSystemAccessory,
  rotateSystem,
  runModelQueryOptions,
  sendRunModel,
  updateStep,
  updateSystem,
  updateSystemAccessory,
} from '../../api/run-model-api';
import { DeviceEquipment } from './device-equipment';
import type { CommandRequest } from './use-command';
import { useCountdown } from './use-countdown';
import { useStoredName } from '../../../../lib/stored-names';

export interface RunModelPanelProps {
  g: number;
  sn: string;
  deviceName: string;
  online: boolean;
  canControl: boolean;
  /** The device's newest value of a data point. */
  read: (key: string) => number | string | undefined;
  send: (request: CommandRequest) => Promise<boolean>;
  pending: ReadonlySet<string>;
  onCountdownEnd: () => void;
}

/** Keys the run model's messages are pending under (use-command's per-key pending state). */
const SEND_KEY = '$RunModel';
const rotateKey = (systemId: number) => `$Rotate:${String(systemId)}`;

export function RunModelPanel(props: RunModelPanelProps) {
  const { g, sn, deviceName, online, canControl, send, pending } = props;
  const { t } = useTranslation();
  const query = useQuery(runModelQueryOptions(g, sn));
  const [editing, setEditing] = useState<{ system?: RunModelSystemDto } | undefined>();
  const [addingStep, setAddingStep] = useState<{ system: RunModelSystemDto; step?: RunModelStepDto } | undefined>();
  const model = query.data;
  const systems = model?.Systems ?? [];
  const blocked = !canControl ? t('control.viewOnly') : undefined;
  const offline = !online ? t('control.offline') : undefined;

  return (
    <Card size="small" title={t('runModel.title')} role="region" aria-label={t('runModel.title')}>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
        {t('runModel.intro')}
      </Typography.Paragraph>
      {/* In the body rather than the card's header, so that a phone keeps the title and wraps the buttons. */}
      {canControl ? (
        <div style={{ marginBottom: 12 }}>
          <Space wrap>
            <Button
              size="small"
              onClick={() => {
                setEditing({});
              }}
            >
              {t('runModel.addSystem')}
            </Button>
            <Tooltip title={offline ?? (systems.length === 0 ? t('runModel.nothingToSend') : undefined)}>
              <Button
                size="small"
                type="primary"
                disabled={offline !== undefined || systems.length === 0}
                loading={pending.has(SEND_KEY)}
                onClick={() => {
                  void send({
                    key: SEND_KEY,
                    value: 0,
                    control: t('runModel.title'),
                    name: t('runModel.title'),
                    shown: systems.map((s) => s.Name).join(', '),
                    question: { title: t('runModel.sendQuestion', { device: deviceName }), ok: t('runModel.send') },
                    post: () => sendRunModel(g, sn),
                  });
                }}
              >
                {t('runModel.send')}
              </Button>
            </Tooltip>
          </Space>
        </div>
      ) : null}
      <QueryState query={query} empty={systems.length === 0} emptyText={t('runModel.empty')}>
        <Flex vertical gap={12}>
          {systems.map((system) => (
            <SystemCard
              key={system.Id}
              {...props}
              system={system}
              disabledReason={blocked ?? offline}
              onEdit={() => {
                setEditing({ system });
              }}
              onAddStep={(step) => {
                setAddingStep({ system, ...(step ? { step } : {}) });
              }}
              rotating={pending.has(rotateKey(system.Id))}
            />
          ))}
        </Flex>
      </QueryState>
      <Collapse
        ghost
        size="small"
        style={{ marginTop: 12 }}
        items={[{ key: 'equipment', label: t('runModel.equipment.title'), children: <DeviceEquipment sn={sn} /> }]}
      />
      {editing ? (
        <SystemDialog
          g={g}
          sn={sn}
          system={editing.system}
          onClose={() => {
            setEditing(undefined);
          }}
        />
      ) : null}
      {addingStep && model ? (
        <StepDialog
          g={g}
          sn={sn}
          system={addingStep.system}
          step={addingStep.step}
          switches={model.Switches}
          numbers={model.Numbers}
          onClose={() => {
            setAddingStep(undefined);
          }}
        />
      ) : null}
    </Card>
  );
}

/** A duration in the largest whole unit: 3600 → 60 min, 90 → 90 s. */
export function useDuration() {
  const { t } = useTranslation();
  return (seconds: number) =>
    seconds % 3600 === 0 && seconds >= 3600
      ? t('runModel.hours', { n: seconds / 3600 })
      : seconds % 60 === 0 && seconds >= 60
        ? t('runModel.minutes', { n: seconds / 60 })
        : t('runModel.seconds', { n: seconds });
}

function SystemCard({
  g,
  sn,
  system,
  canControl,
  online,
  read,
  send,
  onCountdownEnd,
  disabledReason,
  rotating,
  onEdit,
  onAddStep,
}: RunModelPanelProps & {
  system: RunModelSystemDto;
  disabledReason: string | undefined;
  rotating: boolean;
  onEdit: () => void;
  /** Opens the step dialog: a new step, or this one to change. */
  onAddStep: (step?: RunModelStepDto) => void;
}) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const client = useQueryClient();
  const duration = useDuration();
  const running = system.Steps.findIndex((s) => Number(read(s.Key)) === 1);
  const next = system.Steps[(Math.max(running, 0) + 1) % Math.max(1, system.Steps.length)];
  const rotateReason = disabledReason ?? (system.Steps.length < 2 ? t('runModel.needTwo') : undefined);

  const remove = (title: string, call: () => Promise<unknown>) => {
    modal.confirm({
      title,
      okText: t('common.delete'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await call();
          void message.success(t('runModel.deleted'));
        } catch (error) {
          void message.error(errorMessage(error));
        }
        await refreshRunModel(client, sn);
      },
    });
  };

  return (
    <Card
      size="small"
      type="inner"
      role="group"
      aria-label={system.Name}
      title={system.Name}
      extra={
        canControl ? (
          <Space wrap size={4}>
            <Button size="small" type="link" onClick={onEdit}>
              {t('runModel.edit')}
            </Button>
            <Button
              size="small"
              type="link"
              danger
              onClick={() => {
                remove(t('runModel.deleteSystem', { name: system.Name }), () => removeSystem(g, sn, system.Id));
              }}
            >
              {t('common.delete')}
            </Button>
          </Space>
        ) : null
      }
    >
      <Flex vertical gap={8}>
        <Typography.Text type="secondary">
          {system.RestTime > 0 ? t('runModel.restIs', { time: duration(system.RestTime) }) : t('runModel.noRest')}
        </Typography.Text>
        {system.Steps.length === 0 ? (
          <Typography.Text type="secondary">{t('runModel.noSteps')}</Typography.Text>
        ) : (
          <ol className="sluice-run-steps" aria-label={t('runModel.steps', { name: system.Name })}>
            {system.Steps.map((step, i) => (
              <StepRow
                key={step.Id}
                step={step}
                running={i === running}
                next={system.Steps.length > 1 ? system.Steps[(i + 1) % system.Steps.length] : undefined}
                online={online}
                valueOf={read}
                onCountdownEnd={onCountdownEnd}
                onChange={
                  canControl
                    ? () => {
                        onAddStep(step);
                      }
                    : undefined
                }
                onRemove={
                  canControl
                    ? () => {
                        remove(t('runModel.deleteStep', { name: step.Accessory }), () =>
                          removeSystemAccessory(g, sn, step.AccessoryId),
                        );
                      }
                    : undefined
                }
              />
            ))}
          </ol>
        )}
        {canControl ? (
          <Space wrap>
            <Button
              size="small"
              onClick={() => {
                onAddStep();
              }}
            >
              {t('runModel.addStep')}
            </Button>
            <Tooltip title={rotateReason}>
              <Button
                size="small"
                danger
                disabled={rotateReason !== undefined}
                loading={rotating}
                onClick={() => {
                  const to = next?.Accessory ?? '';
                  void send({
                    key: rotateKey(system.Id),
                    value: system.Id,
                    control: system.Name,
                    name: system.Name,
                    shown: to,
                    danger: true,
                    question: {
                      title: t('runModel.rotateQuestion', { name: system.Name, to }),
                      ok: t('runModel.rotate'),
                    },
                    post: () => rotateSystem(g, sn, system.Id),
                  });
                }}
              >
                {t('runModel.rotate')}
              </Button>
            </Tooltip>
          </Space>
        ) : null}
      </Flex>
    </Card>
  );
}

function StepRow({
  step,
  running,
  next,
  online,
  valueOf,
  onCountdownEnd,
  onChange,
  onRemove,
}: {
  step: RunModelStepDto;
  running: boolean;
  next: RunModelStepDto | undefined;
  online: boolean;
  valueOf: (key: string) => number | string | undefined;
  onCountdownEnd: () => void;
  onChange: (() => void) | undefined;
  onRemove: (() => void) | undefined;
}) {
  const { t } = useTranslation();
  const duration = useDuration();
  const elapsed = step.ElapsedKey === null ? undefined : Number(valueOf(step.ElapsedKey));
  const countdown = useCountdown({
    current: running && elapsed !== undefined && Number.isFinite(elapsed) ? elapsed : undefined,
    set: step.RunTime,
    online,
    perSecond: 1,
    onZero: onCountdownEnd,
  });
  return (
    <li data-running={running} aria-label={step.Accessory}>
      <Flex gap={8} align="center" wrap>
        <Tag color={running ? 'green' : 'default'}>{running ? t('runModel.running') : t('runModel.standing')}</Tag>
        <Typography.Text strong>{step.Accessory}</Typography.Text>
        <Typography.Text type="secondary">
          {step.KeyName} · {duration(step.RunTime)}
        </Typography.Text>
        {countdown ? (
          <Typography.Text role="timer">
            {next
              ? t('runModel.countdownNext', { seconds: Math.ceil(countdown.remaining), next: next.Accessory })
              : t('control.countdown', { seconds: Math.ceil(countdown.remaining) })}
          </Typography.Text>
        ) : null}
        {onChange ? (
          <Button
            size="small"
            type="link"
            onClick={onChange}
            aria-label={t('runModel.changeStepLabel', { name: step.Accessory })}
          >
            {t('runModel.edit')}
          </Button>
        ) : null}
        {onRemove ? (
          <Button
            size="small"
            type="link"
            danger
            onClick={onRemove}
            aria-label={t('runModel.deleteStepLabel', { name: step.Accessory })}
          >
            {t('common.delete')}
          </Button>
        ) : null}
      </Flex>
    </li>
  );
}

const systemFields = addDeviceSystemRequest.shape;

function SystemDialog({
  g,
  sn,
  system,
  onClose,
}: {
  g: number;
  sn: string;
  system: RunModelSystemDto | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const values = useMemo(() => (system ? { Name: system.Name, RestTime: system.RestTime } : { Name: '', RestTime: 0 }), [system]);
  const save = async (submitted: { Name: string; RestTime: number }) => {
    if (system) await updateSystem(g, sn, { Id: system.Id, ...submitted });
    else await addSystem(g, sn, submitted);
    await refreshRunModel(client, sn);
  };
  return (
    <FormDialog
      name="run-model-system"
      title={system ? t('runModel.editSystem') : t('runModel.addSystem')}
      values={values}
      fields={['Name', 'RestTime']}
      onSubmit={save}
      onClose={onClose}
    >
      <Form.Item name="Name" label={t('runModel.systemName')} rules={zodFieldRules(systemFields.Name)}>
        <Input placeholder={t('runModel.systemNamePlaceholder')} maxLength={64} />
      </Form.Item>
      <Form.Item
        name="RestTime"
        label={t('runModel.restTime')}
        extra={t('runModel.restHelp')}
        rules={zodFieldRules(systemFields.RestTime)}
      >
        <InputNumber min={0} precision={0} suffix="s" style={{ width: '100%' }} />
      </Form.Item>
    </FormDialog>
  );
}

const stepFields = addDeviceSystemControlDataRequest.shape;

interface StepForm {
  Name: string;
  DataDefineId: number;
  DataValue: number;
  AssociateDefineId?: number;
  SequenceIn: number;
}

function StepDialog({
  g,
  sn,
  system,
  step,
  switches,
  numbers,
  onClose,
}: {
  g: number;
  sn: string;
  system: RunModelSystemDto;
  /** The step to change; a new one when undefined. */
  step: RunModelStepDto | undefined;
  switches: { Id: number; Key: string; Name: string }[];
  numbers: { Id: number; Key: string; Name: string }[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const name = useStoredName();
  const options = (points: { Id: number; Key: string; Name: string }[]) =>
    points.map((p) => ({ value: p.Id, label: `${name(p.Name)} (${p.Key})` }));
  const values = useMemo<Partial<StepForm>>(
    () =>
      step
        ? {
            Name: step.Accessory,
            DataDefineId: switches.find((p) => p.Key === step.Key)?.Id,
            DataValue: step.RunTime,
            AssociateDefineId: numbers.find((p) => p.Key === step.ElapsedKey)?.Id,
            SequenceIn: step.Sequence,
          }
        : { SequenceIn: system.Steps.length + 1, DataValue: 3600 },
    [numbers, step, switches, system.Steps.length],
  );
  const save = async (submitted: StepForm) => {
    const picked = switches.find((p) => p.Id === submitted.DataDefineId);
    const fields = {
      DataValue: submitted.DataValue,
      DataDefineId: submitted.DataDefineId,
      AssociateDefineId: submitted.AssociateDefineId ?? null,
      SequenceIn: submitted.SequenceIn,
    };
    if (step) {
      if (submitted.Name !== step.Accessory) await updateSystemAccessory(g, sn, { Id: step.AccessoryId, Name: submitted.Name });
      await updateStep(g, sn, { Id: step.Id, ControlName: picked?.Name ?? step.ControlName, ...fields });
    } else {
      const accessory = (await addSystemAccessory(g, sn, { SystemId: system.Id, Name: submitted.Name })).data.Id;
      try {
        await addStep(g, sn, { AccessoryId: accessory, ControlName: picked?.Name ?? '', ...fields });
      } catch (error) {
        // The step was refused: the accessory made for it goes too, so nothing half-made stays.
        await removeSystemAccessory(g, sn, accessory).catch(() => undefined);
        throw error;
      }
    }
    await refreshRunModel(client, sn);
  };
  return (
    <FormDialog
      name="run-model-step"
      title={step ? t('runModel.changeStep', { name: step.Accessory }) : t('runModel.addStepTo', { name: system.Name })}
      values={values}
      fields={['Name', 'DataDefineId', 'DataValue', 'AssociateDefineId', 'SequenceIn']}
      onSubmit={save}
      onClose={onClose}
    >
      <Form.Item name="Name" label={t('runModel.accessory')} rules={zodFieldRules(addDeviceSystemAccessoryRequest.shape.Name)}>
        <Input placeholder={t('runModel.accessoryPlaceholder')} maxLength={64} />
      </Form.Item>
      <Form.Item
        name="DataDefineId"
        label={t('runModel.switch')}
        extra={switches.length === 0 ? t('runModel.noSwitches') : undefined}
        rules={zodFieldRules(stepFields.DataDefineId)}
      >
        <Select options={options(switches)} showSearch={{ optionFilterProp: 'label' }} />
      </Form.Item>
      <Form.Item name="DataValue" label={t('runModel.runTime')} rules={zodFieldRules(stepFields.DataValue)}>
        <InputNumber min={0} precision={0} suffix="s" style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="AssociateDefineId" label={t('runModel.elapsed')} extra={t('runModel.elapsedHelp')}>
        <Select options={options(numbers)} allowClear showSearch={{ optionFilterProp: 'label' }} />
      </Form.Item>
      <Form.Item name="SequenceIn" label={t('runModel.order')} rules={zodFieldRules(stepFields.SequenceIn)}>
        <InputNumber min={0} precision={0} style={{ width: '100%' }} />
      </Form.Item>
    </FormDialog>
  );
}
