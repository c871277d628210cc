import { useTranslation } from 'react-i18next';

/**
 * Whole-screen loading state (start-up, session check). Plain CSS (index.css) rather than
 * Ant Design's Spin, because it is part of the start-up code every page loads.
 */
export function FullScreenSpinner() {
  const { t } = useTranslation();
  return (
    <div className="sluice-full-screen-center" role="status" aria-live="polite">
      <span className="sluice-spinner" aria-hidden />
      <span className="visually-hidden">{t('common.loading')}</span>
    </div>
  );
}
