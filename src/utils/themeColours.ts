import type { ThemeConfig } from 'antd';

/**
 * The colours the console sets over antd's light and dark algorithms: those whose defaults leave text below WCAG AA's
 * 4.5:1 (axe-core's color-contrast) taken a step darker (light) or lighter (dark). In light, the primary blue (#1677ff:
 * 4.1:1 with white) is blue-7, the error red red-7, secondary and disabled text (an empty table's or list's words) 60 %
 * black instead of 45 % and 25 %; a status tag's text is its colour's seventh or eighth shade, a preset tag's (cyan,
 * green, orange…) its eighth or ninth. In dark, the primary blue stays (white on it is 5.2:1) but where it is text (a link, the
 * active tab, a processing tag) it is blue-5; secondary and disabled text are 50 % white; the error red is red-8 (a
 * danger button's words on the dark ground), so a filled danger button's words are dark; purple and geek-blue tags'
 * text is their eighth shade. Data only: the build's static
 * stylesheet (umi-plugins/antd-static-style.ts) renders the light theme with the same colours.
 */
export const THEME_COLOURS: Record<'light' | 'dark', Pick<ThemeConfig, 'token' | 'components'>> = {
  light: {
    token: {
      colorPrimary: '#0958d9',
      colorInfo: '#0958d9',
      colorError: '#cf1322',
      colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
      colorTextDescription: 'rgba(0, 0, 0, 0.6)',
      colorTextDisabled: 'rgba(0, 0, 0, 0.6)',
    },
    components: {
      Tag: {
        colorSuccess: '#237804',
        colorWarning: '#ad4e00',
        colorError: '#cf1322',
        colorInfo: '#0958d9',
        volcano7: '#ad2102',
        orange7: '#ad4e00',
        gold7: '#874d00',
        lime7: '#3f6600',
        green7: '#237804',
        cyan7: '#006d75',
      },
    },
  },
  dark: {
    token: {
      colorLink: '#4096ff',
      colorError: '#f37370',
      colorTextTertiary: 'rgba(255, 255, 255, 0.5)',
      colorTextDescription: 'rgba(255, 255, 255, 0.5)',
      colorTextDisabled: 'rgba(255, 255, 255, 0.5)',
    },
    components: {
      Button: { dangerColor: 'rgba(0, 0, 0, 0.88)' },
      Tabs: { itemSelectedColor: '#4096ff', itemActiveColor: '#4096ff', itemHoverColor: '#69b1ff' },
      Tag: { colorInfo: '#4096ff', colorError: '#ff7875', geekblue7: '#7f9ef3', purple7: '#ab7ae0' },
    },
  },
};
