/**
 * The runtime composition root: dva persistence, initial state, layout.
 * Only light modules are imported eagerly; the layout pieces load with the layout chunk.
 */
import { history, type RunTimeLayoutConfig, useIntl, useSelector } from '@umijs/max';
import { Grid } from 'antd';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import AppProviders from '@/components/AppProviders';
import PageLoading from '@/components/PageLoading';
import { LOGIN_PATH } from '@/constants';
import type { RootState } from '@/models/root';
import { fetchMeAtStart, fetchPublicSettingsAtStart } from '@/services/auth';
import { fetchMenus, grantedMenu, type MenuRoute, prefetchMenus } from '@/services/menu';
import { dropEarly, firstPageUrl, startEarly } from '@/utils/early';
import { awaitFirstPage, useFirstPageShown, whenFirstPageShown } from '@/utils/firstScreen';
import { signInPath } from '@/utils/navigation';
import { applyCurrentUser, brandingName, type InitialState, toInitialState } from '@/utils/session';
import {
  dispatchRoot,
  getRootState,
  hasAccessToken,
  persistEnhancer,
  persistedReducer,
  whenRehydrated,
} from '@/utils/store';

const HeaderActions = lazy(() => import('@/components/layout/HeaderActions'));
const CollapseButton = lazy(() => import('@/components/layout/CollapseButton'));
const TabsOutlet = lazy(() => import('@/components/layout/TabsOutlet'));
const FirstUsePassword = lazy(() => import('@/components/password/FirstUsePassword'));

export const dva = {
  config: {
    onReducer: persistedReducer,
    extraEnhancers: [persistEnhancer],
  },
};

export function innerProvider(container: ReactNode) {
  return <AppProviders>{container}</AppProviders>;
}

interface ClientRoute {
  path?: string;
  firstPage?: true;
  children?: ClientRoute[];
}

/** The list screen at `pathname` whose first page is asked for at start-up (routes.ts `firstPage`). */
function firstPageRoute(list: ClientRoute[], pathname: string): ClientRoute | undefined {
  for (const route of list) {
    if (route.firstPage && route.path === pathname) return route;
    const inner = route.children && firstPageRoute(route.children, pathname);
    if (inner) return inner;
  }
  return undefined;
}

// Umi's own copy of routes.ts, which it hands over before the first render (importing routes.ts here would put it
// in the first download of every screen)
let clientRoutes: ClientRoute[] = [];
export function patchClientRoutes({ routes }: { routes: ClientRoute[] }) {
  clientRoutes = routes;
}

// plugin-initialState renders dva's store only after this resolves: until then the state comes
// from local storage and dispatches wait for the store (src/utils/store.ts)
export async function getInitialState(): Promise<InitialState> {
  await whenRehydrated();
  const cached = getRootState().appSettings;
  const onSignIn = history.location.pathname === LOGIN_PATH;
  // the settings, the user and (past the sign-in screen) the menu and the opened list's first page are asked for at
  // once, not one after the other
  if (hasAccessToken() && !onSignIn) {
    prefetchMenus();
    const list = firstPageRoute(clientRoutes, history.location.pathname);
    if (list) {
      startEarly(firstPageUrl(`/api${list.path}`));
      awaitFirstPage();
    }
  }
  const [settings, me] = await Promise.all([
    fetchPublicSettingsAtStart().catch(() => cached),
    hasAccessToken()
      ? // on the sign-in screen a session that has ended is no news: no message, the form stays
        fetchMeAtStart(onSignIn ? { skipErrorHandler: true } : undefined).catch(() => undefined)
      : undefined,
  ]);
  dispatchRoot('SET_APP_SETTINGS', settings);
  if (me) applyCurrentUser(me);
  else dropEarly();
  return toInitialState(me, settings);
}

/** The header's actions; opened on a list, after its first page. */
function DeferredHeaderActions() {
  if (!useFirstPageShown()) return null;
  return (
    <Suspense fallback={null}>
      <HeaderActions />
    </Suspense>
  );
}

const keepAlive = (
  <Suspense fallback={<PageLoading />}>
    <TabsOutlet />
  </Suspense>
);

const firstUse = (
  <Suspense fallback={<PageLoading />}>
    <FirstUsePassword />
  </Suspense>
);

/**
 * Below 1200 px the sidebar folds by itself; opening it there lasts until the width changes again and leaves the
 * persisted choice for wide screens alone.
 */
function useSidebarCollapse(): [boolean, (next: boolean) => void] {
  const persisted = useSelector((state: { root: RootState }) => state.root.collapsed);
  const narrow = Grid.useBreakpoint().xl === false;
  const [openedWhileNarrow, setOpenedWhileNarrow] = useState(false);
  useEffect(() => setOpenedWhileNarrow(false), [narrow]);
  if (narrow) return [!openedWhileNarrow, (next) => setOpenedWhileNarrow(!next)];
  return [persisted, (next) => dispatchRoot('SET_COLLAPSED', next)];
}

// plugin-layout calls this inside its Layout component on every render, so hooks are safe here.
export const layout: RunTimeLayoutConfig = ({ initialState }) => {
  const theme = useSelector((state: { root: RootState }) => state.root.theme);
  const [collapsed, setCollapsed] = useSidebarCollapse();
  const intl = useIntl();
  const signedIn = Boolean(initialState?.currentUser);
  // an initial password is replaced before anything else: no menu, no tabs, only that screen
  const mustChangePassword = Boolean(initialState?.currentUser?.mustChangePassword);
  // nothing of a screen renders (or asks the API) before sign-in: a first visit meets no "session expired"
  const screen = !signedIn ? <></> : mustChangePassword ? firstUse : keepAlive;
  return {
    pure: mustChangePassword,
    title: brandingName(initialState?.settings, intl.locale) ?? intl.formatMessage({ id: 'app.name' }),
    logo: '/logo.svg',
    layout: 'mix',
    splitMenus: false,
    // the tab bar sits right under the header; each tab pane pads its own screen
    contentStyle: { padding: 0 },
    navTheme: theme === 'dark' ? 'realDark' : 'light',
    collapsed,
    onCollapse: setCollapsed,
    breakpoint: false,
    collapsedButtonRender: (isCollapsed?: boolean) => (
      <Suspense fallback={null}>
        <CollapseButton collapsed={Boolean(isCollapsed)} onToggle={setCollapsed} />
      </Suspense>
    ),
    // the routes' menu, cut to the entries GET /api/auth/menus grants; refetched per signed-in user; its icons load
    // with it (plugin-layout's own icon table is left out of the first download, see .umirc.ts)
    menu: {
      locale: true,
      params: {
        user: initialState?.currentUser?.userId,
        tenant: initialState?.currentUser?.tenant.id,
        mustChangePassword,
      },
      request: async (_params: Record<string, unknown>, routes: MenuRoute[]) => {
        if (!signedIn || mustChangePassword) return [];
        const [granted, { withMenuIcons }] = await Promise.all([
          fetchMenus().then(
            (menus) => grantedMenu(routes, menus),
            () => routes,
          ),
          import('@/components/layout/menuIcons'),
          // opened on a list, its entries (ProLayout's skeleton until then) render after its first page
          whenFirstPageShown(),
        ]);
        return withMenuIcons(granted);
      },
    },
    rightContentRender: () => <DeferredHeaderActions />,
    onPageChange: (location) => {
      if (location?.pathname === LOGIN_PATH || hasAccessToken()) return;
      history.replace(signInPath(`${history.location.pathname}${history.location.search}`));
    },
    // the same element in every branch keeps the tabs mounted when a 403 screen shows
    childrenRender: () => screen,
    unAccessible: screen,
    noFound: screen,
  };
};
