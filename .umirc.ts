import path from 'node:path';
import webpack from '@umijs/bundler-webpack/compiled/webpack';
import { defineConfig } from '@umijs/max';
import routes from './src/config/routes';
import { CHUNK_LOAD_TIMEOUT_MS } from './src/constants';

export default defineConfig({
  antd: {},
  // plugin-locale imports moment; dayjs (which antd 5 uses anyway) takes its place
  moment2dayjs: { preset: 'none', plugins: [] },
  dva: {},
  model: {},
  initialState: { loading: '@/components/PageLoading' },
  access: {},
  request: false,
  layout: {
    title: '医学教育管理后台',
    locale: true,
  },
  locale: {
    default: 'zh-CN',
    antd: true,
    baseNavigator: false,
    baseSeparator: '-',
  },
  history: { type: 'hash' },
  base: '/',
  publicPath: '/',
  mountElementId: 'root',
  title: '医学教育管理后台',
  favicons: ['/favicon.svg'],
  // Umi's own viewport meta forbids zooming (user-scalable=no, maximum-scale=1): a reader may enlarge the page
  // (WCAG 1.4.4)
  metas: [{ name: 'viewport', content: 'width=device-width, initial-scale=1' }],
  routes,
  mock: {},
  hash: true,
  // lazily loaded chunks (the password estimator) carry their own esbuild helpers: wrap each chunk so they cannot clash
  esbuildMinifyIIFE: true,
  plugins: [
    './umi-plugins/early-answers',
    './umi-plugins/skip-route-preload',
    './umi-plugins/server-contract',
    './umi-plugins/antd-static-style',
    './umi-plugins/real-env',
  ],
  // an admin console for current browsers: no legacy polyfills in the first download
  targets: { chrome: 100, edge: 100, firefox: 100, safari: 15 },
  polyfill: { imports: [] },
  ...(process.env.ANALYZE_JSON
    ? { analyze: { analyzerMode: 'json', reportFilename: process.env.ANALYZE_JSON, defaultSizes: 'gzip' } }
    : {}),
  npmClient: 'npm',
  // no <Helmet> anywhere: its provider is not needed in the first download
  helmet: false,
  alias: {
    // plugin-layout's files import their own older copy of @ant-design/icons: use the console's one
    [path.resolve(__dirname, 'node_modules/@umijs/plugins/node_modules/@ant-design/icons')]: path.resolve(
      __dirname,
      'node_modules/@ant-design/icons',
    ),
    // one @babel/runtime (the newest, whose helpers include the older ones'), not the three copies umi's packages carry
    ...Object.fromEntries(
      ['@umijs/babel-preset-umi', '@umijs/renderer-react', 'umi'].map((holder) => [
        path.resolve(__dirname, `node_modules/${holder}/node_modules/@babel/runtime`),
        path.resolve(__dirname, 'node_modules/@babel/runtime'),
      ]),
    ),
    [path.resolve(__dirname, 'node_modules/regenerator-runtime/runtime.js')]: path.resolve(
      __dirname,
      'src/components/stubs/regeneratorGlobal.js',
    ),
    'isomorphic-fetch': path.resolve(__dirname, 'src/components/stubs/native-fetch.ts'),
    qs$: path.resolve(__dirname, 'src/components/stubs/qs.ts'),
  },
  chainWebpack(memo) {
    memo.output.chunkLoadTimeout(CHUNK_LOAD_TIMEOUT_MS);
    // antd's react-component packages have no import-time effects but do not say so: without this, antd's Input
    // (through Form's context) brings the whole of rc-field-form, and every rc-* index brings all its parts
    memo.module
      .rule('rc-packages-pure')
      .test(/[\\/]node_modules[\\/](rc-[^\\/]+|@rc-component[\\/][^\\/]+)[\\/]es[\\/]/)
      .sideEffects(false);
    // plugin-locale's generated language menu is never shown (the header has its own switch) but
    // would put antd Menu and Dropdown into the first download of the sign-in screen
    memo
      .plugin('replace-select-lang')
      .use(webpack.NormalModuleReplacementPlugin, [
        /plugin-locale[\\/]SelectLang(\.tsx)?$/,
        path.resolve(__dirname, 'src/components/stubs/SelectLang.tsx'),
      ]);
    // plugin-layout's 403/404 wrapper falls back to antd Result, which the console's own screens replace
    memo
      .plugin('replace-layout-exception')
      .use(webpack.NormalModuleReplacementPlugin, [
        /plugin-layout[\\/]Exception(\.tsx)?$/,
        path.resolve(__dirname, 'src/components/stubs/layoutException.tsx'),
      ]);
    // and ProLayout's error boundary shows one when the content fails: it loads then (the stub's Result is lazy)
    memo
      .plugin('replace-pro-error-boundary')
      .use(webpack.NormalModuleReplacementPlugin, [
        /pro-utils[\\/]es[\\/]components[\\/]ErrorBoundary[\\/]index\.js$/,
        path.resolve(__dirname, 'src/components/stubs/proErrorBoundary.js'),
      ]);
    // ProComponents' provider carries its texts in 33 languages; the console speaks zh-CN and en-US, so the others
    // (never chosen) import en-US's module instead of riding along with every screen. The request is rewritten before
    // it is resolved: a module replaced after would keep its own identity, one copy of en-US's texts for each.
    memo.plugin('pro-provider-locales').use(webpack.NormalModuleReplacementPlugin, [
      /^\.\/locale\/(?!zh_CN$|en_US$)[a-z]{2}_[A-Z]{2}$/,
      (resolving: { context: string; request: string }) => {
        if (/[\\/]@ant-design[\\/]pro-provider[\\/]es$/.test(resolving.context)) resolving.request = './locale/en_US';
      },
    ]);
    // antd's Table imports Tree for tree-mode column filters (unused here), and antd's Button style imports the
    // ColorPicker's preset panel for one small function: stand-ins that leave rc-tree and the panel out of every list
    const standIns: [RegExp, string, string][] = [
      [/[\\/]antd[\\/]es[\\/]table[\\/]hooks[\\/]useFilter$/, '../../../tree', 'tableFilterTree.js'],
      [/[\\/]antd[\\/]es[\\/]button[\\/]style$/, '../../color-picker/components/ColorPresets', 'buttonColorBright.js'],
    ];
    memo.plugin('antd-stand-ins').use(webpack.NormalModuleReplacementPlugin, [
      /^\.\.\/\.\.\/(\.\.\/tree|color-picker\/components\/ColorPresets)$/,
      (resolving: { context: string; request: string }) => {
        const standIn = standIns.find(
          ([context, request]) => resolving.request === request && context.test(resolving.context),
        );
        if (standIn) resolving.request = path.resolve(__dirname, 'src/components/stubs', standIn[2]);
      },
    ]);
    // plugin-layout turns routes' icon names into icons at start-up, from a table of all of them in the first
    // download; the menu request does it instead (src/components/layout/menuIcons.tsx)
    memo
      .plugin('replace-layout-icons')
      .use(webpack.NormalModuleReplacementPlugin, [
        /plugin-layout[\\/]icons(\.tsx)?$/,
        path.resolve(__dirname, 'src/components/stubs/layoutIcons.ts'),
      ]);
  },
});
