import { ReloadOutlined } from '@ant-design/icons';
import { history, useAccess, useIntl, useLocation, useOutlet, useSelectedRoutes, useSelector } from '@umijs/max';
import { Button, ConfigProvider, Dropdown, Tabs, theme } from 'antd';
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import type { PermissionCode } from '@/access';
import LoadErrorBoundary from '@/components/LoadErrorBoundary';
import { HOME_PATH } from '@/constants';
import type { RootState, Tab } from '@/models/root';
import { firstPageShown, useFirstPageShown } from '@/utils/firstScreen';
import { asTitle, awaitsCatalogue, loadCatalogueOf, useCatalogues } from '@/utils/i18n';
import { dispatchRoot, getRootState } from '@/utils/store';
import { PaneContext, type PaneFrame } from './frame';
import PageHeader, { type Crumb } from './PageHeader';

// shown only when a screen is not allowed: it (and antd's Result) loads then, not with every screen
const Forbidden = lazy(() => import('@/pages/exception/403'));

type RouteLike = {
  name?: string;
  access?: PermissionCode;
  path?: string;
  isLayout?: boolean;
  children?: RouteLike[];
  routes?: RouteLike[];
};

/** The tab bar's height (a small editable-card bar and its top padding), kept while it waits to render. */
const TAB_BAR_HEIGHT = 40;

/** Screens that say a page is not there or not allowed: shown, never kept as a tab. */
const EXCEPTION_ROUTES = new Set(['notFound', 'forbidden']);
const EXCEPTION_TITLES = new Set([...EXCEPTION_ROUTES].map((name) => `menu.${name}`));

/** Menu i18n key of the matched route chain, as ProLayout builds it: `menu.<parent>.<child>`. */
export function titleKey(routes: RouteLike[]): string {
  const names = routes.map((r) => r.name).filter((n): n is string => Boolean(n));
  return names.length ? `menu.${names.join('.')}` : 'menu.notFound';
}

/**
 * The breadcrumb of a matched route chain (layout first): each named route, and before a record route
 * (`/system/admin/:id/profile`) the list it belongs to (`/system/admin`), linked.
 */
export function crumbsOf(chain: RouteLike[]): Crumb[] {
  const crumbs: Crumb[] = [];
  const names: string[] = [];
  chain.forEach((route, i) => {
    if (!route.name || route.isLayout) return;
    const siblings = chain[i - 1]?.children ?? chain[i - 1]?.routes ?? [];
    const list = route.path?.includes(':')
      ? siblings.find((r) => r.name && r.path && !r.path.includes(':') && route.path!.startsWith(`${r.path}/`))
      : undefined;
    if (list) crumbs.push({ titleKey: titleKey([...names.map((name) => ({ name })), list]), path: list.path });
    names.push(route.name);
    crumbs.push({ titleKey: titleKey(names.map((name) => ({ name }))) });
  });
  return crumbs;
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

/** A kept screen's frame, with whether it has shown before and who waits for it to show again. */
interface KeptFrame extends PaneFrame {
  shownBefore: boolean;
  listeners: Set<() => void>;
}

/**
 * A kept screen. Its dialogs, drawers and pop-ups render inside it, so they hide with it when another tab shows (a
 * dialog left open on a screen no longer sits over the next one) and are there again when it comes back.
 */
function Pane({ path, hidden, children }: { path: string; hidden: boolean; children: ReactNode }) {
  const pane = useRef<HTMLDivElement>(null);
  // one function for the pane's life: a new one each render would change every antd context below it on a tab switch
  const container = useCallback(() => pane.current ?? document.body, []);
  return (
    <div ref={pane} data-testid="tab-pane" data-path={path} hidden={hidden} style={{ padding: 16 }}>
      <ConfigProvider getPopupContainer={container}>{children}</ConfigProvider>
    </div>
  );
}

/**
 * Multi-tab navigation with keep-alive: every visited screen stays mounted (inactive ones hidden),
 * so it keeps its state; a tab can be refreshed (`reloadPath`) and closed. The tab list and the
 * active tab are persisted (`curTab`, `lastActiveTabPath`). A 404 or 403 screen, or a record screen whose
 * record does not exist, shows without becoming a tab.
 */
export default function TabsOutlet() {
  const intl = useIntl();
  const { token } = theme.useToken();
  useCatalogues(); // a tab's title may arrive after the tab: with the menu's names or its area's catalogue
  const access = useAccess();
  const { pathname } = useLocation();
  const outlet = useOutlet();
  const selected = useSelectedRoutes() as unknown as { route: RouteLike }[];
  const { curTab, reloadPath } = useSelector((state: { root: RootState }) => state.root);

  const chain = selected.map((m) => m.route);
  const leaf = chain[chain.length - 1];
  const matched = chain.filter((r) => !r.isLayout && r.path !== '/');
  const forbidden = Boolean(leaf?.access && !access[leaf.access]);
  const exception = forbidden || EXCEPTION_ROUTES.has(leaf?.name ?? '');
  const [missing, setMissing] = useState<ReadonlySet<string>>(new Set());

  // only named routes are screens; a redirect (no name) just passes through
  const isScreen = Boolean(leaf?.name) && !exception && !missing.has(pathname);
  const cache = useRef(new Map<string, ReactNode>());
  const crumbs = useRef(new Map<string, Crumb[]>());
  const frames = useRef(new Map<string, KeptFrame>());
  const [versions, setVersions] = useState<Record<string, number>>({});
  const tabBarShown = useFirstPageShown();
  // no list is coming: the shell's extras need not wait for one (src/utils/firstScreen.ts)
  useEffect(() => {
    if (exception) firstPageShown();
  }, [exception]);
  // a screen that finished its work is not kept while the way away from it renders
  const finished = useRef(new Set<string>());
  if (isScreen && !finished.current.has(pathname)) {
    cache.current.set(pathname, outlet);
    crumbs.current.set(pathname, crumbsOf(chain));
  }

  const frameOf = (path: string, backPath: string | undefined): KeptFrame => {
    let frame = frames.current.get(path);
    if (!frame) {
      const listeners = new Set<() => void>();
      frame = {
        shownBefore: false,
        listeners,
        onShown: (listener) => {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
        backPath,
        setRecord: (title, name) => {
          const tabs = getRootState().curTab;
          if (tabs.some((t) => t.path === path && (t.title !== title || t.name !== name))) {
            dispatchRoot(
              'SET_CURTAB',
              tabs.map((t) => (t.path === path ? { path, title, name } : t)),
            );
          }
        },
        markMissing: () => {
          setMissing((paths) => new Set(paths).add(path));
          dispatchRoot('SET_CURTAB', closeTabs(getRootState().curTab, path, 'one'));
        },
        finish: (to) => {
          finished.current.add(path);
          cache.current.delete(path);
          frames.current.delete(path);
          history.push(to);
          dispatchRoot('SET_CURTAB', closeTabs(getRootState().curTab, path, 'one'));
          // a kept screen there (the record's profile) shows what was just saved
          if (cache.current.has(to)) dispatchRoot('SET_RELOADPATH', to);
        },
      };
      frames.current.set(path, frame);
    }
    return frame;
  };

  useEffect(() => {
    const kept = curTab.filter((t) => !EXCEPTION_TITLES.has(t.title));
    if (kept.length !== curTab.length) dispatchRoot('SET_CURTAB', kept);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    for (const path of finished.current) if (path !== pathname) finished.current.delete(path);
    // a missing record is forgotten once left: coming back asks for it again
    const left = [...missing].filter((path) => path !== pathname);
    if (left.length) {
      left.forEach((path) => {
        cache.current.delete(path);
        frames.current.delete(path);
      });
      setMissing((paths) => new Set([...paths].filter((path) => !left.includes(path))));
    }
    if (!isScreen) return;
    const frame = frames.current.get(pathname);
    if (frame?.shownBefore) for (const listener of frame.listeners) listener();
    if (frame) frame.shownBefore = true;
    const tabs = getRootState().curTab;
    if (!tabs.some((t) => t.path === pathname))
      dispatchRoot('SET_CURTAB', [...tabs, { path: pathname, title: titleKey(matched) }]);
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
      if (!remaining.some((t) => t.path === key)) {
        cache.current.delete(key);
        frames.current.delete(key);
      }
    }
    dispatchRoot('SET_CURTAB', remaining);
    if (!remaining.some((t) => t.path === pathname)) {
      history.push(mode === 'one' ? nextActivePath(curTab, path) : (remaining[0]?.path ?? HOME_PATH));
    }
  };

  const refresh = (path: string) => dispatchRoot('SET_RELOADPATH', path);

  // a restored tab titled after a record of an area not visited yet: its area's texts load now, and until they
  // have, the tab shows the record's name alone, never the text's id
  useEffect(() => {
    for (const tab of curTab) if (awaitsCatalogue(tab.title, intl.messages)) loadCatalogueOf(tab.title);
  }, [curTab, intl]);

  const tabTitle = (tab: Tab) => {
    if (awaitsCatalogue(tab.title, intl.messages)) return tab.name ?? '';
    const title = asTitle(intl.formatMessage({ id: tab.title, defaultMessage: tab.title }));
    return tab.name ? `${title} · ${tab.name}` : title;
  };

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
        {tabTitle(tab)}
      </span>
    </Dropdown>
  );

  const tabs =
    !isScreen || curTab.some((t) => t.path === pathname)
      ? curTab
      : [...curTab, { path: pathname, title: titleKey(matched) }];

  const header = (path: string) => {
    const trail = crumbs.current.get(path) ?? [];
    const tab = tabs.find((t) => t.path === path);
    const title = tab
      ? tabTitle(tab)
      : intl.formatMessage({ id: trail[trail.length - 1]?.titleKey ?? 'menu.notFound' });
    const named = tab?.name ? [...trail.slice(0, -1), { ...trail[trail.length - 1], label: tab.name }] : trail;
    return <PageHeader crumbs={named} title={title} />;
  };

  return (
    <div data-testid="tabs-outlet" style={{ minWidth: 0 }}>
      {tabBarShown ? (
        // the refresh button sits beside the tab list, not in it: a tab list holds tabs only (WAI-ARIA)
        <div style={{ display: 'flex' }}>
          <Tabs
            type="editable-card"
            hideAdd
            size="small"
            activeKey={pathname}
            onChange={(path) => history.push(path)}
            onEdit={(path, action) => action === 'remove' && close(String(path))}
            items={tabs.map((tab) => ({ key: tab.path, label: label(tab), closable: true }))}
            style={{ flex: 1, minWidth: 0 }}
            tabBarStyle={{ margin: 0, padding: '6px 0 0 16px' }}
          />
          <div
            style={{
              display: 'flex',
              alignItems: 'center',
              padding: '6px 16px 0 8px',
              borderBottom: `1px solid ${token.colorBorderSecondary}`,
            }}
          >
            <Button
              type="text"
              size="small"
              data-testid="tab-refresh"
              aria-label={intl.formatMessage({ id: 'tabs.refresh' })}
              icon={<ReloadOutlined />}
              onClick={() => refresh(pathname)}
            />
          </div>
        </div>
      ) : (
        // opened on a list, the tab bar renders after its first page; until then its room is kept
        <div style={{ height: TAB_BAR_HEIGHT }} />
      )}
      {[...cache.current.entries()].map(([path, element]) => {
        const trail = crumbs.current.get(path) ?? [];
        return (
          <Pane key={`${path}#${versions[path] ?? 0}`} path={path} hidden={path !== pathname}>
            {!missing.has(path) && header(path)}
            <PaneContext.Provider value={frameOf(path, trail.find((c) => c.path)?.path)}>
              <LoadErrorBoundary>{element}</LoadErrorBoundary>
            </PaneContext.Provider>
          </Pane>
        );
      })}
      {exception && (
        <div data-testid="exception-pane" style={{ padding: 16 }}>
          {forbidden ? (
            <Suspense fallback={null}>
              <Forbidden />
            </Suspense>
          ) : (
            outlet
          )}
        </div>
      )}
      {!leaf?.name && <div hidden>{outlet}</div>}
    </div>
  );
}
