import { useEffect, useState, type ReactNode } from 'react';
import { ConfigProvider } from 'antd';
import type { Locale } from 'antd/es/locale';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { i18n, type Language } from '../lib/i18n';
import { themeConfig, useThemeName } from '../lib/theme';

/**
 * Ant Design's own texts (pagination, empty lists, date pickers). English is built in; the
 * Chinese locale is loaded when needed.
 */
const antdLocales: Record<Language, () => Promise<Locale | undefined>> = {
  'zh-CN': () => import('antd/locale/zh_CN').then((m) => m.default),
  'en-US': () => Promise.resolve(undefined),
};

function useAntdLocale(): Locale | undefined {
  const { i18n: instance } = useTranslation();
  const language: Language = instance.resolvedLanguage === 'zh-CN' ? 'zh-CN' : 'en-US';
  const [loaded, setLoaded] = useState<{ language: Language; locale: Locale | undefined }>();
  useEffect(() => {
    let live = true;
    void antdLocales[language]().then((locale) => {
      if (live) setLoaded({ language, locale });
    });
    return () => {
      live = false;
    };
  }, [language]);
  return loaded?.language === language ? loaded.locale : undefined;
}

/** Ant Design's locale and light/dark theme; buttons keep their text as written (no '登 录'). */
export function ThemedConfig({ children }: { children: ReactNode }) {
  const themeName = useThemeName();
  const locale = useAntdLocale();
  return (
    <ConfigProvider locale={locale} theme={themeConfig(themeName)} button={{ autoInsertSpace: false }}>
      {children}
    </ConfigProvider>
  );
}

/**
 * Translations and Ant Design's locale and theme. (The query cache is provided by the signed-in
 * area, app/signed-in-area.tsx: the sign-in and not-found pages need none.)
 */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <ThemedConfig>{children}</ThemedConfig>
    </I18nextProvider>
  );
}
