/** The header's small sign of the live connection: a dot and a word, with a tooltip; announced when it changes. */
import { Tooltip, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLiveConnected } from '../lib/live/live-hooks';

export function LiveIndicator({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const connected = useLiveConnected();
  const label = connected ? t('live.connected') : t('live.disconnected');
  return (
    <Tooltip title={connected ? t('live.connectedHint') : t('live.disconnectedHint')}>
      <span
        role="status"
        aria-live="polite"
        aria-label={compact ? label : undefined}
        data-connected={connected}
        tabIndex={0}
        style={{
          display: 'inline-flex',
          alignItems: 'center',
          gap: 6,
          fontSize: token.fontSizeSM,
          color: token.colorTextSecondary,
          whiteSpace: 'nowrap',
          lineHeight: 1,
        }}
      >
        <span
          aria-hidden
          style={{
            width: 8,
            height: 8,
            borderRadius: '50%',
            background: connected ? token.colorSuccess : token.colorWarning,
            boxShadow: `0 0 0 2px ${token.colorBgContainer}`,
          }}
        />
        {compact ? null : label}
      </span>
    </Tooltip>
  );
}
