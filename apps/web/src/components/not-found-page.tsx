import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { HOME_PATH } from '../lib/paths';
import { LanguageSwitch } from './language-switch';

/** The not-found result: a title, Back home and Refresh. */
export function NotFoundResult() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title={<h1 style={{ fontSize: 'inherit', margin: 0, fontWeight: 'inherit' }}>{t('notFound.title')}</h1>}
      subTitle={t('notFound.subTitle')}
      extra={[
        <Button
          key="home"
          type="primary"
          onClick={() => {
            void navigate(HOME_PATH);
          }}
        >
          {t('common.backHome')}
        </Button>,
        <Button
          key="refresh"
          onClick={() => {
            window.location.reload();
          }}
        >
          {t('common.refresh')}
        </Button>,
      ]}
    />
  );
}

/** The not-found screen (spec §8): shown without sign-in for any unknown path. */
export function NotFoundPage() {
  return (
    <main className="sluice-full-screen-center" style={{ flexDirection: 'column', padding: 16 }}>
      <div style={{ position: 'absolute', top: 16, right: 16 }}>
        <LanguageSwitch size="small" />
      </div>
      <NotFoundResult />
    </main>
  );
}
