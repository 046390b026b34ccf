/**
 * Routes as data. Every screen route has a `name` (menu i18n key `menu.<name>`), an `icon` and an
 * `access` (a permission code; see src/access.ts). Everything except /login is nested under the
 * admin layout mounted at `/` by plugin-layout.
 */
export interface AppRoute {
  path: string;
  name?: string;
  icon?: string;
  access?: string;
  component?: string;
  redirect?: string;
  layout?: false;
  hideInMenu?: boolean;
  mode?: string;
  routes?: AppRoute[];
}

const routes: AppRoute[] = [
  {
    path: '/login',
    name: 'login',
    icon: 'login',
    layout: false,
    mode: 'login',
    component: './login',
  },
  { path: '/', redirect: '/dashboard/workspace' },
  {
    path: '/dashboard/workspace',
    name: 'workspace',
    icon: 'dashboard',
    access: 'dashboard:workspace:view',
    component: './dashboard/workspace',
  },
  {
    path: '/account/center',
    name: 'account',
    icon: 'user',
    access: 'account:profile:view',
    component: './account/center',
  },
  {
    path: '/system',
    name: 'system',
    icon: 'setting',
    routes: [
      { path: '/system', redirect: '/system/admin' },
      {
        path: '/system/admin',
        name: 'admin',
        icon: 'team',
        access: 'system:admin:list',
        component: './system/admin',
      },
      {
        path: '/system/admin/:id/profile',
        name: 'adminProfile',
        icon: 'idcard',
        access: 'system:admin:list',
        hideInMenu: true,
        component: './system/admin/profile',
      },
    ],
  },
  {
    path: '/exception/403',
    name: 'forbidden',
    icon: 'stop',
    hideInMenu: true,
    component: './exception/403',
  },
  {
    path: '*',
    name: 'notFound',
    icon: 'question',
    hideInMenu: true,
    component: './exception/404',
  },
];

export default routes;
