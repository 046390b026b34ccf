/**
 * The permission manifest (docs/domain.md §1.1): directory → menu (code `area:entity:list`) → buttons.
 * Seeded on every start; codes removed from here are disabled, never deleted.
 */
export interface MenuSeed {
  code: string;
  name: string;
  path: string;
  /** Actions under the menu's `area:entity` prefix, or full codes. */
  buttons?: string[];
  platformOnly?: boolean;
  /** Plain pages (landing, own account) have no create/update/delete/export. */
  plain?: boolean;
}

export interface DirectorySeed {
  key: string;
  name: string;
  icon: string;
  menus: MenuSeed[];
}

const crud = ['create', 'update', 'delete', 'export'];

export const permissionManifest: DirectorySeed[] = [
  {
    key: 'dashboard',
    name: '工作台',
    icon: 'DashboardOutlined',
    menus: [{ code: 'dashboard:workspace:view', name: '工作台', path: '/dashboard/workspace', plain: true }],
  },
  {
    key: 'account',
    name: '个人中心',
    icon: 'UserOutlined',
    menus: [{ code: 'account:profile:view', name: '个人中心', path: '/account/center', plain: true }],
  },
  {
    key: 'system',
    name: '系统管理',
    icon: 'SettingOutlined',
    menus: [
      {
        code: 'system:tenant:list',
        name: '租户管理',
        path: '/system/tenant',
        platformOnly: true,
        buttons: ['renew', 'disable', 'enable', 'visit', 'import', 'system:tenant-package:list', 'system:tenant-package:create',
          'system:tenant-package:update', 'system:tenant-package:delete', 'system:tenant-package:export', 'system:tenant-package:import'],
      },
      { code: 'system:permission:list', name: '权限管理', path: '/system/permission', platformOnly: true, buttons: ['sync', 'import'] },
      {
        code: 'system:role:list',
        name: '角色管理',
        path: '/system/role',
        buttons: ['assign-permission', 'assign-data-scope', 'assign-user', 'import'],
      },
      {
        code: 'system:admin:list',
        name: '管理员',
        path: '/system/admin',
        buttons: ['reset-password', 'update-status', 'assign-role', 'force-logout', 'import', 'pii-view'],
      },
      { code: 'system:client:list', name: '客户端管理', path: '/system/client', platformOnly: true, buttons: ['rotate-secret', 'revoke-tokens'] },
      { code: 'system:setting:list', name: '系统设置', path: '/system/settings', plain: true, buttons: ['update', 'platform:setting:update'] },
      { code: 'system:district:list', name: '行政区划', path: '/system/district', platformOnly: true, buttons: ['import'] },
    ],
  },
  {
    key: 'dictionary',
    name: '字典管理',
    icon: 'BookOutlined',
    menus: [
      { code: 'dict:code:list', name: '系统代码', path: '/dictionary/syscode', buttons: ['item-create', 'item-update', 'import'] },
      { code: 'dict:industry:list', name: '行业', path: '/dictionary/industry', platformOnly: true, buttons: ['import'] },
      { code: 'dict:errcode:list', name: '错误码', path: '/dictionary/errcode', platformOnly: true, buttons: ['import'] },
      { code: 'dict:busiitem:list', name: '业务事项', path: '/dictionary/busiitem', buttons: ['bind-template', 'import'] },
    ],
  },
  {
    key: 'org',
    name: '组织机构',
    icon: 'ApartmentOutlined',
    menus: [
      { code: 'org:organization:list', name: '组织', path: '/user/organization', buttons: ['import'] },
      { code: 'org:unit:list', name: '单位', path: '/units/list', buttons: ['merge', 'import'] },
      { code: 'org:staff:list', name: '职工', path: '/user/staff', buttons: ['create-account', 'import'] },
    ],
  },
  {
    key: 'people',
    name: '人员管理',
    icon: 'TeamOutlined',
    menus: [
      { code: 'people:doctor-type:list', name: '医生类型', path: '/user/doctor-type' },
      { code: 'people:doctor:list', name: '医生', path: '/doctor', buttons: ['promote-expert', 'import'] },
      { code: 'people:trainee-type:list', name: '学员类型', path: '/user/trainee-type', buttons: ['clone', 'reorder', 'archive'] },
      { code: 'people:trainee-field:list', name: '学员类型字段', path: '/user/trainee-type-field', buttons: ['reorder'] },
    ],
  },
  {
    key: 'trainee',
    name: '学员管理',
    icon: 'SolutionOutlined',
    menus: [
      {
        code: 'trainee:trainee:list',
        name: '学员',
        path: '/trainee/list',
        buttons: ['import', 'audit', 'change-status', 'change-base', 'assign-tutor', 'pii-view'],
      },
    ],
  },
  {
    key: 'expert',
    name: '专家管理',
    icon: 'CrownOutlined',
    menus: [
      { code: 'expert:expert:list', name: '专家', path: '/expert/users', buttons: ['assign-task'] },
      { code: 'expert:qualification:list', name: '资质', path: '/expert/qualifications', buttons: ['review', 'revoke'] },
    ],
  },
  {
    key: 'doc',
    name: '文档管理',
    icon: 'FileTextOutlined',
    menus: [
      { code: 'doc:base:list', name: '文档库', path: '/doc/base', buttons: ['grant'] },
      { code: 'doc:document:list', name: '文档', path: '/doc/list', buttons: ['publish', 'new-version'] },
      { code: 'doc:tag:list', name: '标签', path: '/doc/tag', buttons: ['merge'] },
    ],
  },
  {
    key: 'community',
    name: '社区管理',
    icon: 'CommentOutlined',
    menus: [
      { code: 'community:board:list', name: '版块', path: '/post/board/list' },
      { code: 'community:post:list', name: '帖子', path: '/post/list', buttons: ['moderate', 'pin', 'feature', 'lock', 'move'] },
      { code: 'community:report:list', name: '举报', path: '/report/list', buttons: ['resolve'] },
    ],
  },
  {
    key: 'message',
    name: '消息管理',
    icon: 'MessageOutlined',
    menus: [
      { code: 'message:template:list', name: '消息模板', path: '/message/template', buttons: ['test-send', 'sync'] },
      { code: 'message:message:list', name: '消息', path: '/message/list', buttons: ['send', 'retry'] },
      { code: 'message:follower:list', name: '关注者', path: '/message/followers', buttons: ['sync', 'bind'] },
    ],
  },
  {
    key: 'file',
    name: '文件管理',
    icon: 'CloudOutlined',
    menus: [
      { code: 'file:storage:list', name: '存储配置', path: '/oss/list', buttons: ['test', 'set-master'] },
      { code: 'file:file:list', name: '文件', path: '/file/list' },
    ],
  },
  {
    key: 'teaching',
    name: '教学管理',
    icon: 'ReadOutlined',
    menus: [
      { code: 'teaching:course:list', name: '课程', path: '/teach/course/list', buttons: ['publish', 'assign', 'clone'] },
      { code: 'teaching:course-item:list', name: '课程内容', path: '/teach/course/item/list', buttons: ['publish'] },
      { code: 'teaching:activity:list', name: '教学活动', path: '/teach/teaching/list', buttons: ['publish', 'attendance'] },
    ],
  },
  {
    key: 'assess',
    name: '考核管理',
    icon: 'FormOutlined',
    menus: [
      {
        code: 'assess:question:list',
        name: '题库',
        path: '/question/list',
        buttons: ['import', 'review', 'bulk-update', 'assess:category:manage', 'assess:knowledge:manage'],
      },
      { code: 'assess:paper:list', name: '试卷', path: '/exam-paper/list', buttons: ['publish', 'close', 'clone', 'export-word'] },
    ],
  },
];

export interface PermissionSeedRow {
  code: string | null;
  type: 'directory' | 'menu' | 'button';
  name: string;
  localeKey: string;
  parentLocaleKey: string | null;
  path: string | null;
  icon: string | null;
  sort: number;
  platformOnly: boolean;
}

/** The manifest flattened parent-first; directories are keyed by their locale key (they have no code). */
export function flattenManifest(manifest: DirectorySeed[] = permissionManifest): PermissionSeedRow[] {
  const rows: PermissionSeedRow[] = [];
  manifest.forEach((dir, d) => {
    const dirKey = `menu.${dir.key}`;
    rows.push({ code: null, type: 'directory', name: dir.name, localeKey: dirKey, parentLocaleKey: null, path: null, icon: dir.icon, sort: d, platformOnly: false });
    dir.menus.forEach((menu, m) => {
      const menuKey = `menu${menu.path.replace(/\//g, '.').replace(/[^a-zA-Z0-9.]/g, '-')}`;
      const platformOnly = Boolean(menu.platformOnly);
      rows.push({ code: menu.code, type: 'menu', name: menu.name, localeKey: menuKey, parentLocaleKey: dirKey, path: menu.path, icon: null, sort: m, platformOnly });
      const prefix = menu.code.split(':').slice(0, 2).join(':');
      const actions = [...(menu.plain ? [] : crud), ...(menu.buttons ?? [])];
      actions.forEach((action, b) => {
        const code = action.includes(':') ? action : `${prefix}:${action}`;
        const buttonPlatformOnly = platformOnly || code.startsWith('platform:');
        rows.push({ code, type: 'button', name: code, localeKey: `${menuKey}.${code.replace(/:/g, '.')}`, parentLocaleKey: menuKey, path: null, icon: null, sort: b, platformOnly: buttonPlatformOnly });
      });
    });
  });
  return rows;
}
