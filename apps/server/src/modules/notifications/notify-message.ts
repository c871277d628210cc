/** What a person reads about an alarm (e-mail subject and text, the webhook's Text), in their language. */
import type { Language } from '@sluice/shared/i18n';
import type { AlarmNotice } from './channels/channel.ts';

/** 'YYYY-MM-DD HH:mm' at the configured UTC offset. */
export function localTime(at: number, offsetMinutes: number): string {
  return new Date(at + offsetMinutes * 60_000).toISOString().slice(0, 16).replace('T', ' ');
}

type Alarm = AlarmNotice['alarm'];

export function noticeText(
  alarm: Alarm,
  level: number,
  language: Language,
  offsetMinutes: number,
): { subject: string; text: string; openedAtText: string } {
  const at = localTime(alarm.openedAt, offsetMinutes);
  const device = alarm.deviceName ? `${alarm.deviceName} (${alarm.deviceSn})` : alarm.deviceSn;
  const what = alarm.description ? `${alarm.code} ${alarm.description}` : alarm.code;
  if (language === 'zh-CN') {
    const escalated = level > 1 ? `【第 ${String(level)} 级，仍未处理】` : '';
    return {
      openedAtText: at,
      subject: `${escalated}[Sluice] ${alarm.typeName || '告警'}：${what} · ${alarm.projectName || device}`,
      text: [
        `${escalated}${alarm.typeName || '告警'}：${what}`,
        `设备：${device}`,
        `站点：${alarm.projectName || '—'}`,
        `发生时间：${at}`,
        alarm.active ? '状态：仍在告警' : '状态：已恢复，尚未处理',
        '',
        '请登录 Sluice 控制台在消息中心处理。',
      ].join('\n'),
    };
  }
  const escalated = level > 1 ? `[Level ${String(level)}, still unhandled] ` : '';
  return {
    openedAtText: at,
    subject: `${escalated}[Sluice] ${alarm.typeName || 'Alarm'}: ${what} at ${alarm.projectName || device}`,
    text: [
      `${escalated}${alarm.typeName || 'Alarm'}: ${what}`,
      `Device: ${device}`,
      `Station: ${alarm.projectName || '-'}`,
      `Opened: ${at}`,
      alarm.active ? 'State: still active' : 'State: cleared, not handled yet',
      '',
      'Sign in to the Sluice console to handle it in the notice centre.',
    ].join('\n'),
  };
}
