import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';

/** Loading state inside the content area (a page's code or data). */
export function PageSpinner() {
  const { t } = useTranslation();
  return (
    <div style={{ display: 'flex', justifyContent: 'center', padding: '64px 0' }} role="status" aria-live="polite">
      <Spin description={t('common.loading')} />
    </div>
  );
}
