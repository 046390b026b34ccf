/** The built-in dictionary types and their items, seeded on every start (data only: the console's tests read it too). */
export interface DictSeed {
  code: string;
  name: string;
  items: [value: string, label: string, labelEn: string, color: string][];
}

export const dictSeeds: DictSeed[] = [
  {
    code: 'common_status',
    name: '通用状态',
    items: [
      ['enabled', '启用', 'Enabled', 'success'],
      ['disabled', '停用', 'Disabled', 'default'],
    ],
  },
  {
    code: 'gender',
    name: '性别',
    items: [
      ['male', '男', 'Male', 'blue'],
      ['female', '女', 'Female', 'magenta'],
      ['unknown', '未知', 'Unknown', 'default'],
    ],
  },
  {
    code: 'admin_user_status',
    name: '管理员状态',
    items: [
      ['enabled', '启用', 'Enabled', 'success'],
      ['disabled', '停用', 'Disabled', 'default'],
      ['locked', '锁定', 'Locked', 'error'],
    ],
  },
  {
    code: 'permission_type',
    name: '权限类型',
    items: [
      ['directory', '目录', 'Directory', 'purple'],
      ['menu', '菜单', 'Menu', 'blue'],
      ['button', '按钮', 'Button', 'default'],
    ],
  },
  {
    code: 'yes_no',
    name: '是否',
    items: [
      ['true', '是', 'Yes', 'success'],
      ['false', '否', 'No', 'default'],
    ],
  },
  {
    code: 'role_type',
    name: '角色类型',
    items: [
      ['system', '内置', 'Built-in', 'gold'],
      ['custom', '自定义', 'Custom', 'blue'],
    ],
  },
  {
    code: 'data_scope',
    name: '数据范围',
    items: [
      ['all', '全部数据', 'All data', 'green'],
      ['org_custom', '指定组织', 'Chosen organisations', 'cyan'],
      ['org', '本组织', 'Own organisation', 'blue'],
      ['org_and_children', '本组织及下级', 'Own organisation and below', 'geekblue'],
      ['self', '仅本人', 'Own records only', 'default'],
    ],
  },
  {
    code: 'client_type',
    name: '客户端类型',
    items: [
      ['confidential', '机密客户端', 'Confidential', 'purple'],
      ['public', '公开客户端', 'Public', 'blue'],
    ],
  },
  {
    code: 'grant_type',
    name: '授权方式',
    items: [
      ['authorization_code', '授权码', 'Authorization code', 'blue'],
      ['client_credentials', '客户端凭证', 'Client credentials', 'purple'],
      ['refresh_token', '刷新令牌', 'Refresh token', 'cyan'],
      ['password', '密码', 'Password', 'orange'],
    ],
  },
];
