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
  routes,
  mock: {},
  hash: true,
  // lazily loaded chunks (the password estimator) carry their own esbuild helpers: wrap each chunk so they cannot clash
  esbuildMinifyIIFE: true,
  plugins: ['./umi-plugins/skip-route-preload', './umi-plugins/server-contract'],
  // an admin console for current browsers: no legacy polyfills in the first download
  targets: { chrome: 100, edge: 100, firefox: 100, safari: 15 },
  polyfill: { imports: [] },
  ...(process.env.ANALYZE_JSON
    ? { analyze: { analyzerMode: 'json', reportFilename: process.env.ANALYZE_JSON, defaultSizes: 'gzip' } }
    : {}),
  npmClient: 'npm',
  chainWebpack(memo) {
    memo.output.chunkLoadTimeout(CHUNK_LOAD_TIMEOUT_MS);
    // plugin-locale's generated language menu is never shown (the header has its own switch) but
    // would put antd Menu and Dropdown into the first download of the sign-in screen
    memo
      .plugin('replace-select-lang')
      .use(webpack.NormalModuleReplacementPlugin, [
        /plugin-locale[\\/]SelectLang(\.tsx)?$/,
        path.resolve(__dirname, 'src/components/stubs/SelectLang.tsx'),
      ]);
  },
});
