import { ReloadOutlined } from '@ant-design/icons';
import { history, useAccess, useIntl, useLocation, useOutlet, useSelectedRoutes, useSelector } from '@umijs/max';
import { Button, Dropdown, Tabs } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import LoadErrorBoundary from '@/components/LoadErrorBoundary';
import Forbidden from '@/pages/exception/403';
import { HOME_PATH } from '@/constants';
import type { RootState, Tab } from '@/models/root';
import { dispatchRoot } from '@/utils/store';

type RouteLike = { name?: string; access?: string; path?: string; isLayout?: boolean };

/** Menu i18n key of the matched route chain, as ProLayout builds it: `menu.<parent>.<child>`. */
export function titleKey(routes: RouteLike[]): string {
  const names = routes.map((r) => r.name).filter((n): n is string => Boolean(n));
  return names.length ? `menu.${names.join('.')}` : 'menu.notFound';
}

/** Tabs after closing `path` (`others`: every tab but `path`; `all`: none). */
export function closeTabs(tabs: Tab[], path: string, mode: 'one' | 'others' | 'all'): Tab[] {
  if (mode === 'all') return [];
  if (mode === 'others') return tabs.filter((t) => t.path === path);
  return tabs.filter((t) => t.path !== path);
}

/** Where to go after closing the active tab: its right neighbour, else its left one, else home. */
export function nextActivePath(tabs: Tab[], closing: string): string {
  const index = tabs.findIndex((t) => t.path === closing);
  const rest = tabs.filter((t) => t.path !== closing);
  if (!rest.length) return HOME_PATH;
  return (rest[index] ?? rest[index - 1] ?? rest[0]).path;
}

/**
 * Multi-tab navigation with keep-alive: every visited screen stays mounted (inactive ones hidden),
 * so it keeps its state; a tab can be refreshed (`reloadPath`) and closed. The tab list and the
 * active tab are persisted (`curTab`, `lastActiveTabPath`).
 */
export default function TabsOutlet() {
  const intl = useIntl();
  const access = useAccess() as Record<string, boolean>;
  const { pathname } = useLocation();
  const outlet = useOutlet();
  const selected = useSelectedRoutes() as unknown as { route: RouteLike }[];
  const { curTab, reloadPath } = useSelector((state: { root: RootState }) => state.root);

  const leaf = selected[selected.length - 1]?.route;
  const matched = selected.map((m) => m.route).filter((r) => !r.isLayout && r.path !== '/');
  const forbidden = Boolean(leaf?.access && !access[leaf.access]);

  // only named routes are screens; a redirect (no name) just passes through
  const isScreen = Boolean(leaf?.name);
  const cache = useRef(new Map<string, ReactNode>());
  const [versions, setVersions] = useState<Record<string, number>>({});
  if (isScreen) cache.current.set(pathname, forbidden ? <Forbidden /> : outlet);

  useEffect(() => {
    if (!isScreen) return;
    const title = titleKey(matched);
    if (!curTab.some((t) => t.path === pathname)) dispatchRoot('SET_CURTAB', [...curTab, { path: pathname, title }]);
    dispatchRoot('SET_LAST_ACTIVE_TABPATH', pathname);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname]);

  useEffect(() => {
    if (!reloadPath || reloadPath === 'null') return;
    setVersions((v) => ({ ...v, [reloadPath]: (v[reloadPath] ?? 0) + 1 }));
    dispatchRoot('SET_RELOADPATH', 'null');
  }, [reloadPath]);

  const close = (path: string, mode: 'one' | 'others' | 'all' = 'one') => {
    const remaining = closeTabs(curTab, path, mode);
    for (const key of [...cache.current.keys()]) {
      if (!remaining.some((t) => t.path === key)) cache.current.delete(key);
    }
    dispatchRoot('SET_CURTAB', remaining);
    if (!remaining.some((t) => t.path === pathname)) {
      history.push(mode === 'one' ? nextActivePath(curTab, path) : remaining[0]?.path ?? HOME_PATH);
    }
  };

  const refresh = (path: string) => dispatchRoot('SET_RELOADPATH', path);

  const label = (tab: Tab) => (
    <Dropdown
      trigger={['contextMenu']}
      menu={{
        items: [
          { key: 'refresh', label: intl.formatMessage({ id: 'tabs.refresh' }) },
          { key: 'close', label: intl.formatMessage({ id: 'tabs.close' }) },
          { key: 'others', label: intl.formatMessage({ id: 'tabs.closeOthers' }) },
          { key: 'all', label: intl.formatMessage({ id: 'tabs.closeAll' }) },
        ],
        onClick: ({ key, domEvent }) => {
          domEvent.stopPropagation();
          if (key === 'refresh') refresh(tab.path);
          else close(tab.path, key === 'close' ? 'one' : (key as 'others' | 'all'));
        },
      }}
    >
      <span data-testid="tab" data-path={tab.path}>
        {intl.formatMessage({ id: tab.title, defaultMessage: tab.title })}
      </span>
    </Dropdown>
  );

  const tabs = !isScreen || curTab.some((t) => t.path === pathname)
    ? curTab
    : [...curTab, { path: pathname, title: titleKey(matched) }];

  return (
    <div data-testid="tabs-outlet">
      <Tabs
        type="editable-card"
        hideAdd
        size="small"
        activeKey={pathname}
        onChange={(path) => history.push(path)}
        onEdit={(path, action) => action === 'remove' && close(String(path))}
        items={tabs.map((tab) => ({ key: tab.path, label: label(tab), closable: true }))}
        tabBarStyle={{ margin: 0, padding: '6px 16px 0' }}
        tabBarExtraContent={
          <Button
            type="text"
            size="small"
            data-testid="tab-refresh"
            aria-label={intl.formatMessage({ id: 'tabs.refresh' })}
            icon={<ReloadOutlined />}
            onClick={() => refresh(pathname)}
          />
        }
      />
      {[...cache.current.entries()].map(([path, element]) => (
        <div
          key={`${path}#${versions[path] ?? 0}`}
          data-testid="tab-pane"
          data-path={path}
          hidden={path !== pathname}
          style={{ padding: 16 }}
        >
          <LoadErrorBoundary>{element}</LoadErrorBoundary>
        </div>
      ))}
      {!isScreen && <div hidden>{outlet}</div>}
    </div>
  );
}
