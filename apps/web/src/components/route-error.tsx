import { Button, theme } from 'antd';
import { CloseCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/**
 * What a route shows when its code failed to load or it crashed: a way out, never a blank
 * page. Plain markup (not Result) because it is part of the start-up code.
 */
export function RouteError() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <div
      role="alert"
      className="sluice-full-screen-center"
      style={{ flexDirection: 'column', gap: 16, padding: 24, textAlign: 'center' }}
    >
      <CloseCircleFilled style={{ fontSize: 56, color: token.colorError }} aria-hidden />
      <h1 style={{ fontSize: 22, fontWeight: 600, margin: 0, color: token.colorText }}>{t('errors.pageFailed')}</h1>
      <p style={{ margin: 0, color: token.colorTextSecondary }}>{t('errors.pageFailedHint')}</p>
      <Button
        type="primary"
        onClick={() => {
          window.location.reload();
        }}
      >
        {t('common.refresh')}
      </Button>
    </div>
  );
}
