import type { ThemeConfig } from 'antd';

/**
 * The colours the console sets over antd's light and dark algorithms: those whose defaults leave text below WCAG AA's
 * 4.5:1 (axe-core's color-contrast) taken a step darker (light) or lighter (dark). In light, the primary blue (#1677ff:
 * 4.1:1 with white) is blue-7 and secondary text 60 % black instead of 45 %; a status tag's text is its colour's
 * seventh or eighth shade. In dark, the primary blue stays (white on it is 5.2:1) but where it is text (a link, the
 * active tab, a processing tag) it is blue-5, and secondary text is 50 % white. Data only: the build's static
 * stylesheet (umi-plugins/antd-static-style.ts) renders the light theme with the same colours.
 */
export const THEME_COLOURS: Record<'light' | 'dark', Pick<ThemeConfig, 'token' | 'components'>> = {
  light: {
    token: {
      colorPrimary: '#0958d9',
      colorInfo: '#0958d9',
      colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
      colorTextDescription: 'rgba(0, 0, 0, 0.6)',
    },
    components: {
      Tag: { colorSuccess: '#237804', colorWarning: '#ad4e00', colorError: '#cf1322', colorInfo: '#0958d9' },
    },
  },
  dark: {
    token: {
      colorLink: '#4096ff',
      colorTextTertiary: 'rgba(255, 255, 255, 0.5)',
      colorTextDescription: 'rgba(255, 255, 255, 0.5)',
    },
    components: {
      Tabs: { itemSelectedColor: '#4096ff', itemActiveColor: '#4096ff', itemHoverColor: '#69b1ff' },
      Tag: { colorInfo: '#4096ff', colorError: '#ff7875' },
    },
  },
};
