/** A channel's kind as a tag (webhook, e-mail, SMS). */
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ChannelKind } from '@sluice/shared/notify.schema';

const COLORS: Record<ChannelKind, string> = { webhook: 'purple', email: 'blue', sms: 'cyan' };

export function KindTag({ kind }: { kind: string }) {
  const { t } = useTranslation();
  const known = kind === 'webhook' || kind === 'email' || kind === 'sms' ? kind : undefined;
  return <Tag color={known ? COLORS[known] : undefined}>{known ? t(`notify.kinds.${known}`) : kind}</Tag>;
}
