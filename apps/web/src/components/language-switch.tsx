import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLanguage, isLanguage, type Language } from '../lib/i18n';
import { switchLanguage } from '../lib/session';

interface LanguageSwitchProps {
  size?: 'small' | 'middle' | 'large';
  /** Saving the choice on the server failed (the switch itself has already happened). */
  onError?: (error: unknown) => void;
}

/** 中文 / English switch: instant, remembered in the `lang` cookie and, when signed in, on the server. */
export function LanguageSwitch({ size = 'middle', onError }: LanguageSwitchProps) {
  const { t, i18n } = useTranslation();
  const value: Language = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : currentLanguage();
  return (
    <Segmented<Language>
      aria-label={t('language.label')}
      size={size}
      value={value}
      options={[
        { label: t('language.zhCN'), value: 'zh-CN' },
        { label: t('language.enUS'), value: 'en-US' },
      ]}
      onChange={(lang) => {
        switchLanguage(lang).catch((error: unknown) => onError?.(error));
      }}
    />
  );
}
