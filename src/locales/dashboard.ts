import { defineCatalogue } from './catalogue';

/**
 * The dashboard area's screens (/dashboard/*): added to the console's messages when one of them loads.
 * Each id: [zh-CN, en-US].
 */
export default defineCatalogue({
  'workspace.greeting.morning': ['早上好，{name}', 'Good morning, {name}'],
  'workspace.greeting.afternoon': ['下午好，{name}', 'Good afternoon, {name}'],
  'workspace.greeting.evening': ['晚上好，{name}', 'Good evening, {name}'],
  'workspace.tenant': ['租户', 'Tenant'],
  'workspace.roles': ['角色', 'Roles'],
  'workspace.links': ['快捷入口', 'Shortcuts'],
  'workspace.noRoles': ['无', 'None'],

  'workspace.card.accounts': ['账号', 'Accounts'],
  'workspace.card.lockedAccounts': ['已锁定账号', 'Locked accounts'],
  'workspace.card.roles': ['角色', 'Roles'],
  'workspace.card.signIns': ['近 7 天登录', 'Sign-ins, last 7 days'],
  'workspace.card.signInFailures': ['近 7 天登录失败', 'Failed sign-ins, last 7 days'],
  'workspace.activity': ['我的最近操作', 'My recent activity'],
  'workspace.activity.none': ['还没有操作记录', 'Nothing yet'],
});
