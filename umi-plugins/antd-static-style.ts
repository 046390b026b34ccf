import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { IApi } from '@umijs/max';
import { THEME_COLOURS } from '../src/utils/themeColours';

/**
 * antd 5 writes its styles at run time: the first time a component renders, its style object is built from the
 * theme's tokens, serialised (stylis) and put into a <style> tag. On a list screen opened cold that was about a
 * fifth of the main thread's time before the first row. Here the build renders, on the server, the antd and ProLayout
 * components of the sign-in screen, the shell and the list screens with the console's default (light) theme, and
 * writes their styles to one stylesheet linked from index.html. @ant-design/cssinjs finds in it the map of the styles
 * it holds (its `data-ant-cssinjs-cache-path` rule) and skips building those at run time. Anything else (the dark
 * theme, a component not listed here, ProLayout's own styles) is built at run time as before; a style listed here and
 * never shown costs its share of the stylesheet's parsing, so the list keeps to what those screens show.
 */
export function extractAntdStyle(root: string): string {
  const require = createRequire(path.join(root, 'package.json'));
  const React = require('react') as typeof import('react');
  const { renderToString } = require('react-dom/server') as typeof import('react-dom/server');
  const { createCache, extractStyle, StyleProvider } =
    require('@ant-design/cssinjs') as typeof import('@ant-design/cssinjs');
  const antd = require('antd') as typeof import('antd');
  const { ProLayout } = require('@ant-design/pro-layout') as typeof import('@ant-design/pro-layout');
  const h = React.createElement;
  const {
    Avatar,
    Button,
    Card,
    Checkbox,
    ConfigProvider,
    Dropdown,
    Empty,
    Form,
    Input,
    Popconfirm,
    Select,
    Space,
    Spin,
    Table,
    Tabs,
    Tag,
    Tooltip,
  } = antd;
  const text = (content: string) => h('span', null, content);
  const iconButton = h(Tooltip, { title: 'x' }, h(Button, { type: 'text' }, 'x'));

  // src/components/resource/ListTable.tsx, ListSearchForm.tsx, useResourceControls.tsx, the list's cells
  const list = h(
    Space,
    { direction: 'vertical' },
    h(
      Card,
      null,
      h(
        Form,
        { layout: 'inline' },
        h(Form.Item, { label: 'x', name: 'x' }, h(Input, { allowClear: true })),
        h(Form.Item, { label: 'y', name: 'y' }, h(Select, { options: [{ value: 1, label: 'a' }] })),
        h(Space, null, h(Button, { type: 'primary' }, 'x'), h(Button, { type: 'link' }, 'y')),
      ),
    ),
    h(
      Card,
      null,
      iconButton,
      h(Dropdown, { menu: { items: [{ key: 'a', label: 'a' }] } }, text('x')),
      h(Popconfirm, { title: 'x' }, text('x')),
      h(Table, {
        rowKey: 'a',
        columns: [
          { title: 'a', dataIndex: 'a', sorter: true },
          { title: 'b', dataIndex: 'b', ellipsis: true, render: () => h(Tag, { color: 'success' }, 'x') },
          { title: 'c', dataIndex: 'c', render: () => h(Tag, null, 'x') },
        ],
        dataSource: [{ a: 1, b: 2, c: 3 }],
        rowSelection: {},
        scroll: { x: 'max-content' },
        pagination: { total: 100, showSizeChanger: true },
      }),
      h(Table, { rowKey: 'a', columns: [{ title: 'a', dataIndex: 'a' }], dataSource: [] }),
      h(Empty, { image: Empty.PRESENTED_IMAGE_SIMPLE }),
    ),
  );
  // src/pages/login, src/components/PageLoading.tsx, src/components/layout/TabsOutlet.tsx
  const screens = h(
    'div',
    null,
    h(Spin, { size: 'large' }),
    h(Input.Password, null),
    h(Checkbox, null, 'x'),
    h(Tabs, { type: 'editable-card', hideAdd: true, items: [{ key: 'a', label: 'a' }] }),
    list,
  );
  // plugin-layout's ProLayout as src/app.tsx sets it up, with the header actions and the collapse button; once with
  // its menu still loading (a skeleton)
  const layout = (menuLoading: boolean, children: React.ReactNode) =>
    h(
      ProLayout,
      {
        layout: 'mix',
        splitMenus: false,
        title: 'x',
        logo: '/logo.svg',
        location: { pathname: '/a/b' },
        route: { path: '/', routes: [{ path: '/a', name: 'a', routes: [{ path: '/a/b', name: 'b' }] }] },
        contentStyle: { padding: 0 },
        navTheme: 'light',
        menu: { locale: false, loading: menuLoading },
        collapsedButtonRender: () => iconButton,
        rightContentRender: () =>
          h(
            Space,
            null,
            iconButton,
            h(Dropdown, { menu: { items: [{ key: 'a', label: 'a' }] } }, h(Avatar, { size: 'small' }, 'x')),
          ),
      } as never,
      children,
    );
  const cache = createCache();
  renderToString(
    h(
      StyleProvider,
      { cache },
      h(
        ConfigProvider,
        { theme: { algorithm: antd.theme.defaultAlgorithm, ...THEME_COLOURS.light } },
        layout(false, screens),
        layout(true, null),
      ),
    ),
  );
  // ProComponents' own styles (ProLayout's header, sider, background) are not scoped by the theme's hash: written
  // here with the light theme's colours, they would win over those the dark theme builds at run time and leave the
  // frame light in the dark theme. They are built at run time, in either theme.
  // (their path is one name, `ProLayoutHeader`; antd's own name their component's class, `Tabs-Tabs%ant-tabs%…`)
  for (const key of [...cache.cache.keys()]) if (/^style%[^%]*%[A-Za-z]+$/.test(key)) cache.cache.delete(key);
  return extractStyle(cache, { plain: true });
}

/** Production builds only: `max dev` keeps building the styles at run time. */
export default (api: IApi) => {
  let href: string | undefined;

  api.onBuildComplete(({ err, stats }) => {
    if (api.env !== 'production' || err || !stats || stats.hasErrors()) return;
    const css = extractAntdStyle(api.paths.cwd);
    const file = `antd.${createHash('sha256').update(css).digest('hex').slice(0, 8)}.css`;
    writeFileSync(path.join(api.paths.absOutputPath, file), css);
    href = `${api.config.publicPath ?? '/'}${file}`;
  });

  // a link comes before umi's own stylesheet in index.html: the console's CSS still overrides antd's
  api.addHTMLLinks(() => (href ? [{ rel: 'stylesheet', href }] : []));
};
