/**
 * The header's bell: the live count of active alarms nobody has handled, the newest of them, a
 * way to the notice centre, and the user's switch for toasts. While signed in it listens to the
 * live alarm events: counts and lists fetch again, and a new alarm shows a toast (unless the
 * user turned toasts off).
 */
import { useEffect, useRef, useState } from 'react';
import { App, Badge, Button, Divider, Empty, Flex, List, Popover, Switch, Typography } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { myInfoQueryOptions } from '../../../lib/current-user';
import { formatDateTime } from '../../../lib/dates';
import { errorMessage } from '../../../lib/form-errors';
import { liveStore } from '../../../lib/live/live-connection';
import { saveUserConfig } from '../../../lib/session';
import { refreshAlarms, warnInfoQueryOptions } from '../api/notices-api';
import { AlarmName } from './alarm-tags';
import { useStoredName } from '../../../lib/stored-names';

const NOTICE_CENTRE = '/common/notice/list/0/0';
const TOAST_MAX_AGE_MS = 10 * 60_000;

/** Fetches the alarm queries again after live alarm events (at most once a second) and toasts new alarms. */
function useAlarmEvents(toasts: boolean) {
  const client = useQueryClient();
  const { notification } = App.useApp();
  const { t } = useTranslation();
  const name = useStoredName();
  const navigate = useNavigate();
  const toastsRef = useRef(toasts);
  useEffect(() => {
    toastsRef.current = toasts;
  }, [toasts]);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = liveStore.subscribeAlarms((event) => {
      timer ??= setTimeout(() => {
        timer = undefined;
        void refreshAlarms(client);
      }, 1000);
      // A toast for news only: not for an alarm dated long ago (an offline alarm of a device silent for days).
      if (event.active && !event.handled && toastsRef.current && Date.now() - event.time < TOAST_MAX_AGE_MS) {
        notification.warning({
          key: `alarm-${String(event.id)}`,
          placement: 'bottomRight',
          title: t('notices.toastTitle', { device: event.deviceSn }),
          description: name(event.description) || event.code,
          role: 'alert',
          actions: (
            <Button
              size="small"
              type="primary"
              onClick={() => {
                notification.destroy(`alarm-${String(event.id)}`);
                void navigate(NOTICE_CENTRE);
              }}
            >
              {t('notices.openCentre')}
            </Button>
          ),
        });
      }
    });
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [client, notification, t, name, navigate]);
}

export function AlarmBell() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const { data: user } = useQuery(myInfoQueryOptions());
  const info = useQuery(warnInfoQueryOptions());
  const [open, setOpen] = useState(false);
  const toasts = user?.Config.AlarmToasts !== false;
  useAlarmEvents(toasts);
  const count = info.data?.ActiveUnhandled ?? 0;

  const setToasts = async (on: boolean) => {
    try {
      await saveUserConfig({ AlarmToasts: on });
      await client.invalidateQueries({ queryKey: myInfoQueryOptions().queryKey });
    } catch (error) {
      void message.error(errorMessage(error));
    }
  };

  const content = (
    <Flex vertical gap={8} style={{ width: 320, maxWidth: '80vw' }}>
      {info.isError ? (
        <Typography.Text type="danger">{errorMessage(info.error)}</Typography.Text>
      ) : (info.data?.Latest.length ?? 0) === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('notices.noneActive')} />
      ) : (
        <List
          size="small"
          dataSource={info.data?.Latest ?? []}
          renderItem={(w) => (
            <List.Item>
              <Flex vertical gap={2}>
                <span>
                  <AlarmName alarm={w} /> {w.DeviceName || w.DeviceSn}
                </span>
                <Typography.Text type="secondary">{formatDateTime(w.Dt)}</Typography.Text>
              </Flex>
            </List.Item>
          )}
        />
      )}
      <Link
        to={NOTICE_CENTRE}
        onClick={() => {
          setOpen(false);
        }}
      >
        {t('notices.openCentre')}
      </Link>
      <Divider style={{ margin: '4px 0' }} />
      <Flex justify="space-between" align="center" gap={8}>
        <label htmlFor="alarm-toasts">{t('notices.toasts')}</label>
        <Switch id="alarm-toasts" size="small" checked={toasts} onChange={(on) => void setToasts(on)} />
      </Flex>
    </Flex>
  );

  return (
    <Popover
      trigger="click"
      open={open}
      onOpenChange={setOpen}
      placement="bottomRight"
      title={t('notices.bellTitle', { count })}
      content={content}
    >
      <Button type="text" aria-label={t('notices.bell', { count })} data-testid="alarm-bell">
        <Badge count={count} size="small" overflowCount={99}>
          <BellOutlined style={{ fontSize: 18 }} aria-hidden />
        </Badge>
      </Button>
    </Popover>
  );
}
