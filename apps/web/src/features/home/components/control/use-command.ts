/**
 * Sending a command from the control panel (spec §5, §8): ask first ('Set {control}'s {data name}
 * to: {value}?'; cancel sends nothing and the control keeps the device's value), then follow the
 * command's life in one short message that changes as it goes: sending → done by the device (the
 * new value then shows from live data) / refused by the device (its reason) / timed out. The
 * control shows it is waiting meanwhile; the device log fetches again at each step.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { App } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DataValue } from '@sluice/shared/device-protocol';
import type { DeviceLogDto } from '@sluice/shared/telemetry.schema';
import { errorMessage } from '../../../../lib/form-errors';
import { liveStore } from '../../../../lib/live/live-connection';
import type { CommandEvent } from '../../../../lib/live/live-store';
import { refreshDeviceLog, sendCommand } from '../../api/device-control-api';

export interface CommandRequest {
  key: string;
  value: DataValue;
  /** The control's name and its data point's name, for the question and the messages. */
  control: string;
  name: string;
  /** The value as the user reads it (an option's label, a number with its unit). */
  shown: string;
  /** Stopping or resetting: the question's button is red. */
  danger?: boolean;
  /** Another question than 'Set … to …?', with its button. */
  question?: { title: string; ok: string };
  /** Another call than DeviceCommand (the run model's send and rotation), answered with its log row. */
  post?: () => Promise<{ data: DeviceLogDto }>;
}

export function useCommand(g: number, sn: string, options: { hasControlMode: boolean }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const client = useQueryClient();
  /** Keys whose command is on its way or waiting for the device's answer. */
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const leaving = useRef(new Set<() => void>());

  useEffect(() => {
    const current = leaving.current;
    return () => {
      for (const leave of current) leave();
      current.clear();
    };
  }, []);

  const settle = useCallback((key: string) => {
    setPending((p) => {
      const next = new Set(p);
      next.delete(key);
      return next;
    });
  }, []);

  const follow = useCallback(
    (id: string, request: CommandRequest) => {
      const told = (event: CommandEvent) => {
        const content =
          event.outcome === 'done'
            ? t('control.done', { name: request.control, value: request.shown })
            : event.outcome === 'refused'
              ? event.message
                ? t('control.refused', { name: request.control, reason: event.message })
                : t('control.refusedNoReason', { name: request.control })
              : t('control.timedOut', { name: request.control });
        const type = event.outcome === 'done' ? 'success' : event.outcome === 'refused' ? 'error' : 'warning';
        void message.open({ key: id, type, content, duration: event.outcome === 'done' ? 3 : 8 });
        settle(request.key);
        void refreshDeviceLog(client, sn);
      };
      const heard = liveStore.commandOutcome(id);
      if (heard) {
        told(heard);
        return;
      }
      const leave = liveStore.subscribeCommands((event) => {
        if (event.id !== id) return;
        told(event);
        // A late answer after a time-out still changes the message; done or refused is the end.
        if (event.outcome !== 'timeout') {
          leave();
          leaving.current.delete(leave);
        }
      });
      leaving.current.add(leave);
    },
    [client, message, settle, sn, t],
  );

  const send = useCallback(
    async (request: CommandRequest) => {
      setPending((p) => new Set(p).add(request.key));
      const progress = `command-${request.key}`;
      void message.open({
        key: progress,
        type: 'loading',
        content: t('control.sending', { name: request.control }),
        duration: 0,
      });
      try {
        const res = await (request.post ? request.post() : sendCommand(g, sn, request.key, request.value));
        message.destroy(progress);
        void message.open({
          key: res.data.CommandId,
          type: 'loading',
          content: t('control.waiting', { name: request.control }),
          duration: 0,
        });
        // Sent all the same, with the warning of §5.
        if (!options.hasControlMode) void message.warning(t('control.noControlMode'));
        void refreshDeviceLog(client, sn);
        follow(res.data.CommandId, request);
      } catch (error) {
        void message.open({ key: progress, type: 'error', content: errorMessage(error), duration: 6 });
        settle(request.key);
      }
    },
    [client, follow, g, message, options.hasControlMode, settle, sn, t],
  );

  /** Asks, then sends; resolves whether it was sent (false: cancelled, so the control reverts). */
  const confirmAndSend = useCallback(
    (request: CommandRequest) =>
      new Promise<boolean>((resolve) => {
        modal.confirm({
          title:
            request.question?.title ??
            t('control.confirm', { control: request.control, name: request.name, value: request.shown }),
          okText: request.question?.ok ?? t('control.ok'),
          cancelText: t('common.cancel'),
          okButtonProps: request.danger ? { danger: true } : {},
          onOk: async () => {
            await send(request);
            resolve(true);
          },
          onCancel: () => {
            resolve(false);
          },
        });
      }),
    [modal, send, t],
  );

  return { confirmAndSend, pending };
}
