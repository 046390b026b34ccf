import type { PermissionCode } from '@server/db/seed/permissions';

/**
 * Routes as data. Every screen route has a `name` (menu i18n key `menu.<name>`), an `icon` and an
 * `access` (a permission code; see src/access.ts), except the signed-in user's own account, which is every
 * user's. Everything except /login and the public sign-in page of an activity is nested under the admin layout mounted
 * at `/` by plugin-layout.
 */
export interface AppRoute {
  path: string;
  name?: string;
  icon?: string;
  access?: PermissionCode;
  component?: string;
  redirect?: string;
  layout?: false;
  hideInMenu?: boolean;
  mode?: string;
  /**
   * The screen opens on the first page of `GET /api<path>` (a resource list without fixed filters): when the console
   * is opened on it, that page is asked for at start-up, with the signed-in user, instead of once the screen has
   * loaded and rendered (src/app.tsx).
   */
  firstPage?: true;
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
  {
    // the page a QR code shown at a teaching activity opens on a trainee's phone: no account, no console around it
    path: '/sign-in/activity',
    name: 'activitySignIn',
    icon: 'login',
    layout: false,
    component: './teaching/sign-in',
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
    component: './account/center',
  },
  {
    path: '/system',
    name: 'system',
    icon: 'setting',
    routes: [
      { path: '/system', redirect: '/system/admin' },
      {
        path: '/system/tenant',
        name: 'tenant',
        icon: 'bank',
        access: 'system:tenant:list',
        component: './system/tenant',
        firstPage: true,
      },
      {
        path: '/system/permission',
        name: 'permission',
        icon: 'safetyCertificate',
        access: 'system:permission:list',
        component: './system/permission',
      },
      {
        path: '/system/role',
        name: 'role',
        icon: 'userSwitch',
        access: 'system:role:list',
        component: './system/role',
        firstPage: true,
      },
      {
        path: '/system/admin',
        name: 'admin',
        icon: 'team',
        access: 'system:admin:list',
        component: './system/admin',
        firstPage: true,
      },
      {
        path: '/system/admin/:id/profile',
        name: 'adminProfile',
        icon: 'idcard',
        access: 'system:admin:list',
        hideInMenu: true,
        component: './system/admin/profile',
      },
      {
        path: '/system/client',
        name: 'client',
        icon: 'api',
        access: 'system:client:list',
        component: './system/client',
        firstPage: true,
      },
      {
        path: '/system/client/:id/profile',
        name: 'clientProfile',
        icon: 'idcard',
        access: 'system:client:list',
        hideInMenu: true,
        component: './system/client/profile',
      },
      {
        path: '/system/settings',
        name: 'settings',
        icon: 'tool',
        access: 'system:settings:list',
        component: './system/settings',
      },
      {
        path: '/system/district',
        name: 'district',
        icon: 'environment',
        access: 'system:district:list',
        component: './system/district',
      },
    ],
  },
  {
    path: '/dictionary',
    name: 'dictionary',
    icon: 'book',
    routes: [
      { path: '/dictionary', redirect: '/dictionary/syscode' },
      {
        path: '/dictionary/syscode',
        name: 'syscode',
        icon: 'tags',
        access: 'dictionary:syscode:list',
        component: './dictionary/syscode',
      },
      {
        path: '/dictionary/errcode',
        name: 'errcode',
        icon: 'warning',
        access: 'dictionary:errcode:list',
        component: './dictionary/errcode',
      },
      {
        path: '/dictionary/busiitem',
        name: 'busiitem',
        icon: 'profile',
        access: 'dictionary:busiitem:list',
        component: './dictionary/busiitem',
      },
      {
        path: '/dictionary/industry',
        name: 'industry',
        icon: 'cluster',
        access: 'dictionary:industry:list',
        component: './dictionary/industry',
      },
    ],
  },
  {
    // the specification's /user/* screens (spec §2) are the people area (pages/people, API people/*)
    path: '/user',
    name: 'people',
    icon: 'team',
    routes: [
      { path: '/user', redirect: '/user/organization' },
      {
        path: '/user/organization',
        name: 'organization',
        icon: 'apartment',
        access: 'people:organization:list',
        component: './people/organization',
      },
      {
        path: '/user/staff',
        name: 'staff',
        icon: 'idcard',
        access: 'people:staff:list',
        component: './people/staff',
      },
      {
        path: '/user/staff/:id/profile',
        name: 'staffProfile',
        icon: 'idcard',
        access: 'people:staff:list',
        hideInMenu: true,
        component: './people/staff/profile',
      },
      {
        path: '/user/trainee-type',
        name: 'trainee-type',
        icon: 'idcard',
        access: 'people:trainee-type:list',
        component: './people/trainee-type',
      },
      {
        path: '/user/trainee-type/:id/detail',
        name: 'traineeTypeDetail',
        icon: 'idcard',
        access: 'people:trainee-type:list',
        hideInMenu: true,
        component: './people/trainee-type/detail',
      },
      {
        path: '/user/trainee-type-field',
        name: 'trainee-field',
        icon: 'profile',
        access: 'people:trainee-field:list',
        component: './people/trainee-field',
      },
      {
        path: '/user/trainee-type-field/:id/detail',
        name: 'traineeFieldDetail',
        icon: 'profile',
        access: 'people:trainee-field:list',
        hideInMenu: true,
        component: './people/trainee-field/detail',
      },
      {
        path: '/user/doctor-type',
        name: 'doctor-type',
        icon: 'idcard',
        access: 'people:doctor-type:list',
        component: './people/doctor-type',
      },
      {
        path: '/user/doctor-type/:id/detail',
        name: 'doctorTypeDetail',
        icon: 'idcard',
        access: 'people:doctor-type:list',
        hideInMenu: true,
        component: './people/doctor-type/detail',
      },
      {
        path: '/user/organization/:id/profile',
        name: 'organizationProfile',
        icon: 'idcard',
        access: 'people:organization:list',
        hideInMenu: true,
        component: './people/organization/profile',
      },
    ],
  },
  {
    // the specification's /trainee/* screens are the people area's trainees (API people/trainee)
    path: '/trainee',
    name: 'trainee',
    icon: 'solution',
    routes: [
      { path: '/trainee', redirect: '/trainee/list' },
      {
        path: '/trainee/list',
        name: 'list',
        icon: 'solution',
        access: 'trainee:trainee:list',
        component: './people/trainee',
      },
      {
        path: '/trainee/type',
        name: 'type',
        icon: 'pieChart',
        access: 'trainee:by-type:list',
        component: './people/trainee/type',
      },
      {
        path: '/trainee/:id/profile',
        name: 'profile',
        icon: 'idcard',
        access: 'trainee:trainee:list',
        hideInMenu: true,
        component: './people/trainee/profile',
      },
    ],
  },
  {
    // the specification's /expert/* screens are the people area's experts and qualifications (API people/*)
    path: '/expert',
    name: 'expert',
    icon: 'crown',
    routes: [
      { path: '/expert', redirect: '/expert/users' },
      {
        path: '/expert/users',
        name: 'users',
        icon: 'crown',
        access: 'expert:expert:list',
        component: './people/expert',
      },
      {
        path: '/expert/users/:id/profile',
        name: 'profile',
        icon: 'idcard',
        access: 'expert:expert:list',
        hideInMenu: true,
        component: './people/expert/profile',
      },
      {
        path: '/expert/qualifications',
        name: 'qualifications',
        icon: 'safetyCertificate',
        access: 'expert:qualification:list',
        component: './people/qualification',
      },
    ],
  },
  {
    // the permission tree's 医生 menu: every type's doctors (a type's own are also on its detail); the dotted name keeps
    // its title key in the people area, as the units' do
    path: '/doctor',
    name: 'people.doctor',
    icon: 'user',
    access: 'people:doctor:list',
    component: './people/doctor',
  },
  {
    // the specification's /doctor/{id}/profile/
    path: '/doctor/:id/profile',
    name: 'people.doctorProfile',
    icon: 'idcard',
    access: 'people:doctor:list',
    hideInMenu: true,
    component: './people/doctor/profile',
  },
  {
    // the specification's /units/* screens are the people area's units; the dotted name keeps their title keys there
    path: '/units/list',
    name: 'people.unit',
    icon: 'bank',
    access: 'people:unit:list',
    component: './people/unit',
  },
  {
    path: '/units/:id/profile',
    name: 'people.unitProfile',
    icon: 'idcard',
    access: 'people:unit:list',
    hideInMenu: true,
    component: './people/unit/profile',
  },
  {
    path: '/file/list',
    name: 'file.list',
    icon: 'file',
    access: 'file:file:list',
    component: './file/file',
  },
  {
    path: '/oss/list',
    name: 'file.oss',
    icon: 'cloudServer',
    access: 'file:storage:list',
    component: './file/storage',
  },
  {
    // the specification's /doc/* screens: document libraries, tags and documents (API content/*)
    path: '/doc',
    name: 'doc',
    icon: 'fileText',
    routes: [
      { path: '/doc', redirect: '/doc/list' },
      {
        path: '/doc/base',
        name: 'base',
        icon: 'book',
        access: 'doc:base:list',
        component: './content/base',
      },
      {
        path: '/doc/list',
        name: 'list',
        icon: 'fileText',
        access: 'doc:document:list',
        component: './content/document',
      },
      {
        path: '/doc/:id/profile',
        name: 'documentProfile',
        icon: 'profile',
        access: 'doc:document:list',
        hideInMenu: true,
        component: './content/document/profile',
      },
      {
        path: '/doc/tag',
        name: 'tag',
        icon: 'tags',
        access: 'doc:tag:list',
        component: './content/tag',
      },
    ],
  },
  {
    // the specification's /post/* screens: boards and posts (API community/board, community/post)
    path: '/post',
    name: 'post',
    icon: 'comment',
    routes: [
      { path: '/post', redirect: '/post/list' },
      {
        path: '/post/board/list',
        name: 'board',
        icon: 'appstore',
        access: 'community:board:list',
        component: './community/board',
      },
      {
        path: '/post/list',
        name: 'list',
        icon: 'comment',
        access: 'community:post:list',
        component: './community/post',
      },
      {
        path: '/post/:id/profile',
        name: 'profile',
        icon: 'profile',
        access: 'community:post:list',
        hideInMenu: true,
        component: './community/post/profile',
      },
    ],
  },
  {
    // the specification's /report/list: report cases (API community/report)
    path: '/report',
    name: 'report',
    icon: 'warning',
    routes: [
      { path: '/report', redirect: '/report/list' },
      {
        path: '/report/list',
        name: 'list',
        icon: 'warning',
        access: 'community:report:list',
        component: './community/report',
      },
    ],
  },
  {
    // the specification's /message/* screens: templates, messages and WeChat followers (API message/*)
    path: '/message',
    name: 'message',
    icon: 'message',
    routes: [
      { path: '/message', redirect: '/message/list' },
      {
        path: '/message/list',
        name: 'list',
        icon: 'message',
        access: 'message:message:list',
        component: './message/message',
      },
      {
        path: '/message/template',
        name: 'template',
        icon: 'fileText',
        access: 'message:template:list',
        component: './message/template',
      },
      // the specification's /message/followers: WeChat official accounts and their followers
      {
        path: '/message/followers',
        name: 'followers',
        icon: 'team',
        access: 'message:follower:list',
        component: './message/follower',
      },
    ],
  },
  {
    // the specification's /question/* screens: the question bank (API assess/question, assess/category, ...)
    path: '/question',
    name: 'question',
    icon: 'form',
    routes: [
      { path: '/question', redirect: '/question/list' },
      {
        path: '/question/list',
        name: 'list',
        icon: 'form',
        access: 'assess:question:list',
        component: './assess/question',
      },
      {
        path: '/question/add',
        name: 'add',
        icon: 'form',
        access: 'assess:question:create',
        hideInMenu: true,
        component: './assess/question/edit',
      },
      {
        path: '/question/edit/:id',
        name: 'edit',
        icon: 'form',
        access: 'assess:question:update',
        hideInMenu: true,
        component: './assess/question/edit',
      },
      {
        path: '/question/:id/profile',
        name: 'profile',
        icon: 'profile',
        access: 'assess:question:list',
        hideInMenu: true,
        component: './assess/question/profile',
      },
    ],
  },
  {
    // the specification's /teach/* screens (API teaching/*)
    path: '/teach',
    name: 'teach',
    icon: 'read',
    routes: [
      { path: '/teach', redirect: '/teach/course/list' },
      {
        path: '/teach/course/list',
        name: 'course',
        icon: 'read',
        access: 'teaching:course:list',
        component: './teaching/course',
      },
      {
        path: '/teach/course/:id/profile',
        name: 'courseProfile',
        icon: 'profile',
        access: 'teaching:course:list',
        hideInMenu: true,
        component: './teaching/course/profile',
      },
      {
        path: '/teach/course/item/list',
        name: 'courseItem',
        icon: 'read',
        access: 'teaching:course-item:list',
        component: './teaching/course-item',
      },
      {
        path: '/teach/course/item/:id/profile',
        name: 'courseItemProfile',
        icon: 'profile',
        access: 'teaching:course-item:list',
        hideInMenu: true,
        component: './teaching/course-item/profile',
      },
      {
        path: '/teach/teaching/list',
        name: 'teaching',
        icon: 'read',
        access: 'teaching:activity:list',
        component: './teaching/activity',
      },
      {
        path: '/teach/teaching/:id/profile',
        name: 'teachingProfile',
        icon: 'profile',
        access: 'teaching:activity:list',
        hideInMenu: true,
        component: './teaching/activity/profile',
      },
    ],
  },
  {
    // the specification's /exam-paper/* screens (API assess/paper)
    path: '/exam-paper',
    name: 'examPaper',
    icon: 'fileText',
    routes: [
      { path: '/exam-paper', redirect: '/exam-paper/list' },
      {
        path: '/exam-paper/list',
        name: 'list',
        icon: 'fileText',
        access: 'assess:paper:list',
        component: './assess/paper',
      },
      {
        path: '/exam-paper/add',
        name: 'add',
        icon: 'fileText',
        access: 'assess:paper:create',
        hideInMenu: true,
        component: './assess/paper/edit',
      },
      {
        path: '/exam-paper/edit/:id',
        name: 'edit',
        icon: 'fileText',
        access: 'assess:paper:update',
        hideInMenu: true,
        component: './assess/paper/edit',
      },
      {
        path: '/exam-paper/:id/profile',
        name: 'profile',
        icon: 'profile',
        access: 'assess:paper:list',
        hideInMenu: true,
        component: './assess/paper/profile',
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
