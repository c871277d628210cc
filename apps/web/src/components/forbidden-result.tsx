import { Result } from 'antd';
import { StopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/** Shown when a non-administrator opens an administrator screen by its address. */
export function ForbiddenResult() {
  const { t } = useTranslation();
  return (
    <Result
      icon={<StopOutlined aria-hidden />}
      status="warning"
      title={t('forbidden.title')}
      subTitle={t('forbidden.description')}
    />
  );
}
