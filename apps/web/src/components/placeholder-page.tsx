import { Result } from 'antd';
import { ToolOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { MessageKey } from '../lib/i18n';
import { BRAND_GREEN } from '../lib/theme';

/** The generic page of a screen that is not built yet: titled, translated, never blank. */
export function PlaceholderPage({ titleKey }: { titleKey: MessageKey }) {
  const { t } = useTranslation();
  const title = t(titleKey);
  return (
    <Result
      icon={<ToolOutlined aria-hidden style={{ color: BRAND_GREEN }} />}
      title={<h1 style={{ fontSize: 'inherit', margin: 0, fontWeight: 'inherit' }}>{t('placeholder.title', { title })}</h1>}
      subTitle={t('placeholder.description')}
    />
  );
}
