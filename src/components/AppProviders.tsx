import { useIntl, useSelector } from '@umijs/max';
import { theme as antdTheme, ConfigProvider } from 'antd';
import { type ReactNode, useEffect, useMemo } from 'react';
import { PersistGate } from 'redux-persist/integration/react';
import PageLoading from '@/components/PageLoading';
import type { RootState } from '@/models/root';
import { FIRST_ERROR } from '@/utils/formErrors';
import { validateMessages } from '@/utils/i18n';
import { quietMeasureRows } from '@/utils/measureRows';
import { getPersistor } from '@/utils/store';
import { THEME_COLOURS } from '@/utils/themeColours';

/**
 * Every form of the console: its generic checks in the user's language, and a refused submit brings the first error
 * into view and focus (on a long page form nothing visible happened).
 */
export const formConfig = (locale: string) => ({
  validateMessages: validateMessages(locale),
  scrollToFirstError: FIRST_ERROR,
});

function ThemedConfig({ children }: { children: ReactNode }) {
  const theme = useSelector((state: { root: RootState }) => state.root.theme);
  const { locale } = useIntl();
  const form = useMemo(() => formConfig(locale), [locale]);
  // the page's language is the console's: read aloud, hyphenated and spell-checked as what it shows (WCAG 3.1.1)
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  const config = useMemo(
    () =>
      theme === 'dark'
        ? { algorithm: antdTheme.darkAlgorithm, ...THEME_COLOURS.dark }
        : { algorithm: antdTheme.defaultAlgorithm, ...THEME_COLOURS.light },
    [theme],
  );
  // in the dark theme the page's own ground is dark too: what no card or layout paints over (a screen's tab bar, a
  // profile's actions) is not light words on a white page (WCAG 1.4.3); the light theme keeps the browser's
  useEffect(() => {
    const dark = theme === 'dark';
    const { colorBgLayout, colorText } = antdTheme.getDesignToken(config);
    document.body.style.background = dark ? colorBgLayout : '';
    document.body.style.color = dark ? colorText : '';
    document.documentElement.style.colorScheme = dark ? 'dark' : '';
  }, [config, theme]);
  return (
    <ConfigProvider form={form} theme={config}>
      {children}
    </ConfigProvider>
  );
}

/** innerProvider: waits for the persisted state, then applies theme, language and validation messages. */
export default function AppProviders({ children }: { children: ReactNode }) {
  const persistor = getPersistor();
  useEffect(() => quietMeasureRows(), []);
  const themed = <ThemedConfig>{children}</ThemedConfig>;
  if (!persistor) return themed;
  return (
    <PersistGate persistor={persistor} loading={<PageLoading />}>
      {themed}
    </PersistGate>
  );
}
