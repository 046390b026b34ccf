import type { Grants } from '@/access';
import type { AppRoute } from '@/config/routes';
import { HOME_PATH, LOGIN_PATH } from '@/constants';

export const REDIRECT_PARAM = 'redirect';

/**
 * A place inside this app to return to after sign-in: a hash path (`/system/admin?x=1`), never an address of
 * another site (`//evil.example`, `https://…`), never the sign-in screen itself.
 */
export function safeRedirect(target: string | null | undefined): string | undefined {
  if (!target || !target.startsWith('/') || target.startsWith('//')) return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what a redirect may not hold
  if (/[\\\u0000-\u001f]/.test(target)) return undefined;
  if (target === LOGIN_PATH || target.startsWith(`${LOGIN_PATH}?`) || target.startsWith(`${LOGIN_PATH}/`))
    return undefined;
  return target;
}

/** The sign-in screen, carrying the page asked for unless that is the landing page anyway. */
export function signInPath(from?: string): string {
  const back = safeRedirect(from);
  if (!back || back === '/' || back === HOME_PATH) return LOGIN_PATH;
  return `${LOGIN_PATH}?${REDIRECT_PARAM}=${encodeURIComponent(back)}`;
}

export interface OpenScreen {
  path: string;
  /** Menu i18n key (`menu.system.admin`). */
  titleKey: string;
  /** Opened by a permission the user holds, rather than open to every signed-in user (their own account). */
  granted: boolean;
  /** The permission that opens it. */
  access?: string;
}

/** The menu screens of the route tree the access map opens, in menu order. */
export function openScreens(routes: AppRoute[], access: Grants, names: string[] = []): OpenScreen[] {
  return routes.flatMap((route) => {
    if (!route.name || route.layout === false || route.hideInMenu) return [];
    const chain = [...names, route.name];
    if (route.routes) return openScreens(route.routes, access, chain);
    if (!route.component || (route.access && !access[route.access])) return [];
    return [
      { path: route.path, titleKey: `menu.${chain.join('.')}`, granted: Boolean(route.access), access: route.access },
    ];
  });
}

/** The first screen a permission opens (the workspace when allowed); none for a user whose roles open nothing. */
export const firstOpenPath = (routes: AppRoute[], access: Grants): string | undefined =>
  openScreens(routes, access).find((screen) => screen.granted)?.path;

/**
 * Work that waits on a role's own decision: a user whose roles hold its permission but not the workspace's (a
 * reviewer of the question bank) lands on it.
 */
export const QUEUES: { access: keyof Grants & string; path: string }[] = [
  { access: 'assess:question:review', path: '/question/list?status=pending_review' },
];

const queueOf = (access: Grants) =>
  access['dashboard:workspace:view'] ? undefined : QUEUES.find((queue) => access[queue.access])?.path;

/** Where a sign-in lands: the page asked for, else the user's queue, else the first screen they may open, else home. */
export function landingPath(search: string, routes: AppRoute[], access: Grants): string {
  return (
    safeRedirect(new URLSearchParams(search).get(REDIRECT_PARAM)) ??
    queueOf(access) ??
    firstOpenPath(routes, access) ??
    HOME_PATH
  );
}
