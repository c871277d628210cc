/**
 * The watermark of spec §2 over the signed-in pages: a canvas (Ant Design's Watermark, which puts
 * it back when the page's script or styles remove or hide it) repeating the signed-in account and
 * the time, 14 px at −45° (§9's defaults), faint in light and dark. The group decides whether it
 * shows (its Watermark setting; on until the group's record says otherwise).
 */
import { useEffect, useState, type ReactNode } from 'react';
import { Watermark } from 'antd';
import { WATERMARK } from '@sluice/shared/group.schema';
import { useCurrentUser } from '../../lib/current-user';
import { dayjs } from '../../lib/dates';
import { useOwnGroup } from '../../lib/group';
import { useThemeName } from '../../lib/theme';

const MINUTE = 60_000;
const COLORS = { light: 'rgba(0, 0, 0, 0.08)', dark: 'rgba(255, 255, 255, 0.08)' } as const;

/** The time shown, to the minute, kept current. */
function useMinute(): string {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => {
      setNow(Date.now());
    }, MINUTE);
    return () => {
      clearInterval(timer);
    };
  }, []);
  return dayjs(now).format('YYYY-MM-DD HH:mm');
}

export function PageWatermark({ children }: { children: ReactNode }) {
  const { data: user } = useCurrentUser();
  const { data: group } = useOwnGroup();
  const theme = useThemeName();
  const time = useMinute();
  if (!user || group?.Watermark === false) return children;
  return (
    <Watermark
      className="sluice-watermark"
      content={[user.Account, time]}
      rotate={WATERMARK.angle}
      font={{ fontSize: WATERMARK.fontSize, color: COLORS[theme] }}
      gap={[120, 120]}
      zIndex={11}
    >
      {children}
    </Watermark>
  );
}
