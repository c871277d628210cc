import { Button } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { backTarget } from '../lib/visit-history';

/**
 * Back to the page this one was opened from (the visited-path history, spec §2), when that was
 * the parent page or a sibling (`accept`); else to the parent page itself.
 */
export function BackButton({ fallback, accept }: { fallback: string; accept?: (path: string) => boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <Button
      icon={<ArrowLeftOutlined aria-hidden />}
      onClick={() => {
        void navigate(backTarget(location.pathname + location.search, fallback, accept));
      }}
    >
      {t('common.back')}
    </Button>
  );
}
