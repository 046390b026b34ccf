import { labelOf } from '../../core/labels';

/**
 * The permission manifest (docs/domain.md §1.1): directory → menu (code `area:entity:list`) → buttons, joined by the
 * menus resources declare in their definitions (`ResourceMenu`). Seeded on every start; codes no longer seeded are
 * disabled, never deleted.
 */
export interface MenuSeed {
  code: `${string}:${string}:${string}`;
  name: string;
  nameEn: string;
  path: string;
  /** Actions under the menu's `area:entity` prefix, or full codes. */
  buttons?: readonly string[];
  platformOnly?: boolean;
  /** Plain pages (landing, own account) have no create/update/delete/export. */
  plain?: boolean;
}

export interface DirectorySeed {
  key: string;
  name: string;
  nameEn: string;
  icon: string;
  menus: readonly MenuSeed[];
}

const crud = ['create', 'update', 'delete', 'export'] as const;
/** The generic operations of a resource: its menu is `<prefix>:list`, the others are its buttons. */
export type ResourceAction = 'list' | (typeof crud)[number] | 'import';

/** Names of the button actions (the last segment of a code), Chinese and English. */
export const actionNames: Record<string, [string, string]> = {
  list: ['查看', 'View'],
  create: ['新增', 'Create'],
  update: ['编辑', 'Edit'],
  delete: ['删除', 'Delete'],
  export: ['导出', 'Export'],
  import: ['导入', 'Import'],
  renew: ['续期', 'Renew'],
  disable: ['停用', 'Disable'],
  enable: ['启用', 'Enable'],
  visit: ['进入租户', 'Visit tenant'],
  sync: ['同步', 'Synchronise'],
  'assign-permission': ['分配权限', 'Assign permissions'],
  'assign-data-scope': ['设置数据范围', 'Set data scope'],
  'assign-user': ['分配成员', 'Assign members'],
  'reset-password': ['重置密码', 'Reset password'],
  'update-status': ['修改状态', 'Change status'],
  'assign-role': ['分配角色', 'Assign roles'],
  'force-logout': ['强制下线', 'Force sign-out'],
  'pii-view': ['查看个人信息', 'View personal data'],
  'rotate-secret': ['更换密钥', 'Rotate secret'],
  'revoke-tokens': ['吊销令牌', 'Revoke tokens'],
  'item-create': ['新增字典项', 'Create item'],
  'item-update': ['编辑字典项', 'Edit item'],
  'bind-template': ['绑定模板', 'Bind template'],
  merge: ['合并', 'Merge'],
  'create-account': ['开通账号', 'Create account'],
  'promote-expert': ['设为专家', 'Promote to expert'],
  clone: ['复制', 'Clone'],
  reorder: ['排序', 'Reorder'],
  archive: ['归档', 'Archive'],
  audit: ['审核', 'Audit'],
  'change-status': ['变更状态', 'Change status'],
  'change-base': ['变更基地', 'Change base'],
  'assign-tutor': ['分配导师', 'Assign tutor'],
  'assign-task': ['分配任务', 'Assign task'],
  review: ['审核', 'Review'],
  revoke: ['撤销', 'Revoke'],
  grant: ['授权', 'Grant access'],
  publish: ['发布', 'Publish'],
  'new-version': ['新版本', 'New version'],
  moderate: ['审核内容', 'Moderate'],
  pin: ['置顶', 'Pin'],
  feature: ['加精', 'Feature'],
  lock: ['锁定', 'Lock'],
  move: ['移动', 'Move'],
  resolve: ['处理', 'Resolve'],
  'test-send': ['测试发送', 'Test send'],
  send: ['发送', 'Send'],
  retry: ['重试', 'Retry'],
  bind: ['绑定', 'Bind'],
  test: ['测试', 'Test'],
  'set-master': ['设为主存储', 'Set as main'],
  assign: ['分配', 'Assign'],
  attendance: ['考勤', 'Attendance'],
  progress: ['记录学习进度', 'Record progress'],
  'bulk-update': ['批量修改', 'Bulk edit'],
  manage: ['管理', 'Manage'],
  close: ['关闭', 'Close'],
  'export-word': ['导出 Word', 'Export to Word'],
  'export-pdf': ['导出 PDF', 'Export to PDF'],
  transfer: ['调动', 'Transfer'],
  report: ['举报', 'Report'],
};

/** Names of the entities a menu's buttons reach beyond its own prefix (`system:tenant-package:create`). */
export const entityNames: Record<string, [string, string]> = {
  'system:tenant-package': ['套餐', 'Packages'],
  'platform:setting': ['平台设置', 'Platform settings'],
  'assess:category': ['题目分类', 'Question categories'],
  'assess:knowledge': ['知识点', 'Knowledge points'],
  'teaching:course-category': ['课程分类', 'Course categories'],
};

/** A button's names: its action's, prefixed by the entity's when the code lies outside the menu's own prefix. */
export function buttonNames(code: string, menuPrefix: string): [string, string] {
  const [area, entity, action = ''] = code.split(':');
  const names = actionNames[action];
  if (!names) throw new Error(`permission ${code}: no name for the action "${action}" in actionNames`);
  const prefix = `${area}:${entity}`;
  if (prefix === menuPrefix) return names;
  const owner = entityNames[prefix];
  if (!owner) throw new Error(`permission ${code}: no name for "${prefix}" in entityNames`);
  return [`${owner[0]}：${names[0]}`, `${owner[1]}: ${names[1]}`];
}

export const permissionManifest = [
  {
    key: 'dashboard',
    name: '工作台',
    nameEn: 'Workspace',
    icon: 'DashboardOutlined',
    menus: [
      {
        code: 'dashboard:workspace:view',
        name: '工作台',
        nameEn: 'Workspace',
        path: '/dashboard/workspace',
        plain: true,
      },
    ],
  },
  {
    key: 'account',
    name: '个人中心',
    nameEn: 'My account',
    icon: 'UserOutlined',
    menus: [
      { code: 'account:profile:view', name: '个人中心', nameEn: 'My account', path: '/account/center', plain: true },
    ],
  },
  {
    key: 'system',
    name: '系统管理',
    nameEn: 'System',
    icon: 'SettingOutlined',
    menus: [
      {
        code: 'system:tenant:list',
        name: '租户管理',
        nameEn: 'Tenants',
        path: '/system/tenant',
        platformOnly: true,
        buttons: [
          'renew',
          'disable',
          'enable',
          'visit',
          'import',
          'system:tenant-package:list',
          'system:tenant-package:create',
          'system:tenant-package:update',
          'system:tenant-package:delete',
          'system:tenant-package:export',
          'system:tenant-package:import',
        ],
      },
      {
        code: 'system:permission:list',
        name: '权限管理',
        nameEn: 'Permissions',
        path: '/system/permission',
        platformOnly: true,
        buttons: ['sync', 'import'],
      },
      {
        code: 'system:role:list',
        name: '角色管理',
        nameEn: 'Roles',
        path: '/system/role',
        buttons: ['assign-permission', 'assign-data-scope', 'assign-user', 'import'],
      },
      {
        code: 'system:admin:list',
        name: '管理员',
        nameEn: 'Admins',
        path: '/system/admin',
        buttons: ['reset-password', 'update-status', 'assign-role', 'force-logout', 'import', 'pii-view'],
      },
      {
        code: 'system:client:list',
        name: '客户端管理',
        nameEn: 'Clients',
        path: '/system/client',
        platformOnly: true,
        buttons: ['rotate-secret', 'revoke-tokens', 'import'],
      },
      {
        code: 'system:settings:list',
        name: '系统设置',
        nameEn: 'Settings',
        path: '/system/settings',
        plain: true,
        buttons: ['update', 'platform:setting:update'],
      },
      {
        code: 'system:district:list',
        name: '行政区划',
        nameEn: 'Districts',
        path: '/system/district',
        platformOnly: true,
        buttons: ['import'],
      },
    ],
  },
  {
    key: 'dictionary',
    name: '字典管理',
    nameEn: 'Dictionaries',
    icon: 'BookOutlined',
    menus: [
      {
        code: 'dictionary:syscode:list',
        name: '系统代码',
        nameEn: 'System codes',
        path: '/dictionary/syscode',
        buttons: ['item-create', 'item-update', 'import'],
      },
    ],
  },
  {
    key: 'org',
    name: '组织机构',
    nameEn: 'Organisation',
    icon: 'ApartmentOutlined',
    menus: [
      {
        code: 'people:staff:list',
        name: '职工',
        nameEn: 'Staff',
        path: '/user/staff',
        buttons: ['create-account', 'transfer', 'change-status', 'import', 'pii-view'],
      },
    ],
  },
  {
    key: 'people',
    name: '人员管理',
    nameEn: 'People',
    icon: 'TeamOutlined',
    menus: [
      {
        code: 'people:doctor-type:list',
        name: '医生类型',
        nameEn: 'Doctor types',
        path: '/user/doctor-type',
        buttons: ['import'],
      },
      {
        code: 'people:doctor:list',
        name: '医生',
        nameEn: 'Doctors',
        path: '/doctor',
        buttons: ['promote-expert', 'import', 'pii-view'],
      },
    ],
  },
  {
    key: 'trainee',
    name: '学员管理',
    nameEn: 'Trainees',
    icon: 'SolutionOutlined',
    menus: [
      {
        code: 'trainee:trainee:list',
        name: '学员',
        nameEn: 'Trainees',
        path: '/trainee/list',
        buttons: ['import', 'audit', 'change-status', 'change-base', 'assign-tutor', 'pii-view'],
      },
      {
        code: 'trainee:by-type:list',
        name: '学员类型统计',
        nameEn: 'Trainees by type',
        path: '/trainee/type',
        plain: true,
      },
    ],
  },
  {
    key: 'expert',
    name: '专家管理',
    nameEn: 'Experts',
    icon: 'CrownOutlined',
    menus: [
      {
        code: 'expert:expert:list',
        name: '专家',
        nameEn: 'Experts',
        path: '/expert/users',
        buttons: ['change-status', 'pii-view', 'assign-task'],
      },
      {
        code: 'expert:qualification:list',
        name: '资质',
        nameEn: 'Qualifications',
        path: '/expert/qualifications',
        buttons: ['review', 'revoke'],
      },
    ],
  },
  {
    key: 'doc',
    name: '文档管理',
    nameEn: 'Documents',
    icon: 'FileTextOutlined',
    menus: [
      { code: 'doc:base:list', name: '文档库', nameEn: 'Document libraries', path: '/doc/base', buttons: ['grant'] },
      {
        code: 'doc:document:list',
        name: '文档',
        nameEn: 'Documents',
        path: '/doc/list',
        buttons: ['publish', 'new-version'],
      },
      { code: 'doc:tag:list', name: '标签', nameEn: 'Tags', path: '/doc/tag', buttons: ['merge'] },
    ],
  },
  {
    key: 'community',
    name: '社区管理',
    nameEn: 'Community',
    icon: 'CommentOutlined',
    menus: [
      {
        code: 'community:board:list',
        name: '版块',
        nameEn: 'Boards',
        path: '/post/board/list',
        buttons: ['reorder'],
      },
      {
        code: 'community:post:list',
        name: '帖子',
        nameEn: 'Posts',
        path: '/post/list',
        buttons: ['moderate', 'pin', 'feature', 'lock', 'move', 'report'],
      },
      { code: 'community:report:list', name: '举报', nameEn: 'Reports', path: '/report/list', buttons: ['resolve'] },
    ],
  },
  {
    key: 'message',
    name: '消息管理',
    nameEn: 'Messages',
    icon: 'MessageOutlined',
    menus: [
      {
        code: 'message:template:list',
        name: '消息模板',
        nameEn: 'Message templates',
        path: '/message/template',
        buttons: ['test-send', 'sync'],
      },
      {
        code: 'message:message:list',
        name: '消息',
        nameEn: 'Messages',
        path: '/message/list',
        buttons: ['send', 'retry'],
      },
      {
        code: 'message:follower:list',
        name: '关注者',
        nameEn: 'Followers',
        path: '/message/followers',
        buttons: ['sync', 'bind'],
      },
    ],
  },
  {
    key: 'file',
    name: '文件管理',
    nameEn: 'Files',
    icon: 'CloudOutlined',
    menus: [
      {
        code: 'file:storage:list',
        name: '存储配置',
        nameEn: 'Storage',
        path: '/oss/list',
        buttons: ['test', 'set-master'],
      },
      { code: 'file:file:list', name: '文件', nameEn: 'Files', path: '/file/list' },
    ],
  },
  {
    key: 'teaching',
    name: '教学管理',
    nameEn: 'Teaching',
    icon: 'ReadOutlined',
    menus: [
      {
        code: 'teaching:course:list',
        name: '课程',
        nameEn: 'Courses',
        path: '/teach/course/list',
        buttons: ['publish', 'assign', 'clone', 'teaching:course-category:manage'],
      },
      {
        code: 'teaching:course-item:list',
        name: '课程内容',
        nameEn: 'Course items',
        path: '/teach/course/item/list',
        buttons: ['publish', 'progress'],
      },
      {
        code: 'teaching:activity:list',
        name: '教学活动',
        nameEn: 'Teaching activities',
        path: '/teach/teaching/list',
        buttons: ['publish', 'attendance'],
      },
    ],
  },
  {
    key: 'assess',
    name: '考核管理',
    nameEn: 'Assessment',
    icon: 'FormOutlined',
    menus: [
      {
        code: 'assess:question:list',
        name: '题库',
        nameEn: 'Question bank',
        path: '/question/list',
        buttons: ['import', 'review', 'bulk-update', 'assess:category:manage', 'assess:knowledge:manage'],
      },
      {
        code: 'assess:paper:list',
        name: '试卷',
        nameEn: 'Exam papers',
        path: '/exam-paper/list',
        buttons: ['publish', 'close', 'clone', 'export-word', 'export-pdf'],
      },
    ],
  },
] as const satisfies readonly DirectorySeed[];

type ManifestMenu = (typeof permissionManifest)[number]['menus'][number];
type PrefixOf<Code> = Code extends `${infer Area}:${infer Entity}:${string}` ? `${Area}:${Entity}` : never;
/** A button is an action under its menu's prefix, or a full code. */
type ButtonCode<Button, Prefix extends string> = Button extends `${string}:${string}:${string}`
  ? Button
  : Button extends string
    ? `${Prefix}:${Button}`
    : never;
type MenuCodes<Menu> = Menu extends { code: infer Code extends string }
  ?
      | Code
      | (Menu extends { plain: true } ? never : `${PrefixOf<Code>}:${(typeof crud)[number]}`)
      | (Menu extends { buttons: readonly (infer Button)[] } ? ButtonCode<Button, PrefixOf<Code>> : never)
  : never;

/** A directory of the manifest, where a resource's own menu may sit. */
export type DirectoryKey = (typeof permissionManifest)[number]['key'];

/**
 * Where a resource's menu sits, declared in its definition (`menu`): under a directory of the manifest, at `order`
 * among its menus. It seeds the menu `<prefix>:list` (path `/<api path>` or its `route`, named by the console's
 * `menu.<area>.<entity>`) and the buttons `<prefix>:create|update|delete|export`, then `buttons`, then `<prefix>:import`.
 */
export interface ResourceMenu {
  parent: DirectoryKey;
  order: number;
  platformOnly?: boolean;
  /** Actions beyond the generic ones (`bind-template`), named in actionNames. */
  buttons?: readonly string[];
  /**
   * The console's route of the menu when it is not `/<api path>`: the specification's routes win (spec §2), so
   * `people/organization` is the screen `/user/organization`.
   */
  route?: `/${string}`;
}

/** What the seed reads of a resource that declares its menu: its definition. */
export interface MenuDeclaration {
  path: string;
  permission: string;
  menu?: ResourceMenu;
}

/**
 * The definitions that declare a menu, by their name in modules/registry.ts. Each resource file adds its own line
 * (`declare module`), as it declares its table in `DB`: a type cannot be read back from the registry itself, whose
 * modules' types depend on the codes; registry.ts checks that each name is registered.
 */
// biome-ignore lint/suspicious/noEmptyInterface: completed by declaration merging from the resource files
export interface ResourceMenus {}

type DeclaredCodes<D> = D extends { permission: infer P extends string; menu: infer M }
  ? `${P}:${ResourceAction}` | (M extends { buttons: readonly (infer B extends string)[] } ? `${P}:${B}` : never)
  : never;

/** The codes of the manifest, which a definition without a menu of its own must use. */
export type ManifestCode = MenuCodes<ManifestMenu>;
export type ManifestPrefix = PrefixOf<ManifestCode>;

/**
 * Every permission code that is seeded, computed from the manifest and the resources' menus: the server's routes and
 * the console's routes, descriptors and buttons are typed by it, so a code that is not granted anywhere does not
 * compile.
 */
export type PermissionCode = ManifestCode | DeclaredCodes<ResourceMenus[keyof ResourceMenus]>;
/** The `area:entity` part of the codes. */
export type PermissionPrefix = PrefixOf<PermissionCode>;

export interface PermissionSeedRow {
  code: string | null;
  type: 'directory' | 'menu' | 'button';
  name: string;
  nameEn: string;
  localeKey: string;
  parentLocaleKey: string | null;
  path: string | null;
  icon: string | null;
  sort: number;
  platformOnly: boolean;
}

/** A declared menu as the manifest would write it. */
function menuSeed({ path, permission, menu }: MenuDeclaration & { menu: ResourceMenu }): MenuSeed {
  const name = labelOf(`menu.${path.replace(/\//g, '.')}`);
  return {
    code: `${permission}:list` as MenuSeed['code'],
    name: name['zh-CN'],
    nameEn: name['en-US'],
    path: menu.route ?? `/${path}`,
    platformOnly: menu.platformOnly,
    buttons: [...(menu.buttons ?? []), 'import'],
  };
}

/** A directory's menus in their order: the manifest's by position, the declared ones at their `order`. */
function menusOf(dir: DirectorySeed, declared: readonly MenuDeclaration[]): MenuSeed[] {
  const menus: (MenuSeed | undefined)[] = [...dir.menus];
  for (const d of declared) {
    if (d.menu?.parent !== dir.key) continue;
    if (menus[d.menu.order]) throw new Error(`menu of ${d.permission}: ${dir.key} has a menu at ${d.menu.order}`);
    menus[d.menu.order] = menuSeed({ ...d, menu: d.menu });
  }
  if (menus.includes(undefined)) throw new Error(`the menus of ${dir.key} leave a gap in their order`);
  return menus as MenuSeed[];
}

/**
 * The manifest and the menus the resources declare (`declared`), flattened parent-first; directories are keyed by
 * their locale key (they have no code).
 */
export function flattenManifest(
  declared: readonly MenuDeclaration[] = [],
  manifest: readonly DirectorySeed[] = permissionManifest,
): PermissionSeedRow[] {
  const rows: PermissionSeedRow[] = [];
  manifest.forEach((dir, d) => {
    const dirKey = `menu.${dir.key}`;
    rows.push({
      code: null,
      type: 'directory',
      name: dir.name,
      nameEn: dir.nameEn,
      localeKey: dirKey,
      parentLocaleKey: null,
      path: null,
      icon: dir.icon,
      sort: d,
      platformOnly: false,
    });
    menusOf(dir, declared).forEach((menu, m) => {
      const menuKey = `menu${menu.path.replace(/\//g, '.').replace(/[^a-zA-Z0-9.]/g, '-')}`;
      const platformOnly = Boolean(menu.platformOnly);
      rows.push({
        code: menu.code,
        type: 'menu',
        name: menu.name,
        nameEn: menu.nameEn,
        localeKey: menuKey,
        parentLocaleKey: dirKey,
        path: menu.path,
        icon: null,
        sort: m,
        platformOnly,
      });
      const prefix = menu.code.split(':').slice(0, 2).join(':');
      const actions = [...(menu.plain ? [] : crud), ...(menu.buttons ?? [])];
      actions.forEach((action, b) => {
        const code = action.includes(':') ? action : `${prefix}:${action}`;
        const buttonPlatformOnly = platformOnly || code.startsWith('platform:');
        const [name, nameEn] = buttonNames(code, prefix);
        rows.push({
          code,
          type: 'button',
          name,
          nameEn,
          localeKey: `${menuKey}.${code.replace(/:/g, '.')}`,
          parentLocaleKey: menuKey,
          path: null,
          icon: null,
          sort: b,
          platformOnly: buttonPlatformOnly,
        });
      });
    });
  });
  return rows;
}
