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
  {
    code: 'unit_type',
    name: '单位类型',
    items: [
      ['hospital', '医院', 'Hospital', 'blue'],
      ['primary_care', '基层医疗卫生机构', 'Primary care', 'cyan'],
      ['cdc', '疾病预防控制机构', 'Disease control', 'orange'],
      ['university', '高等院校', 'University', 'purple'],
      ['enterprise', '企业', 'Enterprise', 'geekblue'],
      ['government', '政府机关', 'Government', 'gold'],
      ['other', '其他', 'Other', 'default'],
    ],
  },
  {
    code: 'hospital_grade',
    name: '医院级别',
    items: [
      ['grade_3', '三级', 'Tertiary', 'red'],
      ['grade_2', '二级', 'Secondary', 'orange'],
      ['grade_1', '一级', 'Primary', 'blue'],
      ['ungraded', '未定级', 'Ungraded', 'default'],
    ],
  },
  {
    code: 'hospital_level',
    name: '医院等次',
    items: [
      ['a', '甲等', 'Class A', 'red'],
      ['b', '乙等', 'Class B', 'orange'],
      ['c', '丙等', 'Class C', 'blue'],
    ],
  },
  {
    code: 'unit_ownership',
    name: '所有制',
    items: [
      ['public', '公立', 'Public', 'blue'],
      ['private', '民营', 'Private', 'green'],
    ],
  },
];
