import { sql } from 'kysely';
import type { Tx } from '../../core/tenancy';

export type SettingValueType = 'string' | 'number' | 'boolean' | 'enum' | 'json' | 'secret';

export interface SettingOption {
  value: string;
  label: string;
  labelEn: string;
}

export interface SettingSeed {
  key: string;
  category: 'security' | 'login' | 'upload' | 'message' | 'branding';
  name: string;
  nameEn: string;
  description?: string;
  value: unknown;
  valueType: SettingValueType;
  options?: SettingOption[];
  min?: number;
  max?: number;
  isPublic?: boolean;
  tenantOverridable?: boolean;
}

/** The built-in settings; each is read where it applies, on every use, so a saved change applies to the next request. */
export const settingSeeds: SettingSeed[] = [
  {
    key: 'security.password.minLength',
    category: 'security',
    name: '密码最小长度',
    nameEn: 'Minimum password length',
    value: 8,
    valueType: 'number',
    min: 6,
    max: 64,
    isPublic: true,
    tenantOverridable: true,
  },
  {
    key: 'security.password.requireLetterAndDigit',
    category: 'security',
    name: '密码须含字母和数字',
    nameEn: 'Passwords need letters and digits',
    value: true,
    valueType: 'boolean',
    isPublic: true,
    tenantOverridable: true,
  },
  {
    key: 'security.lockout.maxAttempts',
    category: 'security',
    name: '连续登录失败锁定次数',
    nameEn: 'Failed sign-ins before lock-out',
    value: 5,
    valueType: 'number',
    min: 1,
    max: 100,
    tenantOverridable: true,
  },
  {
    key: 'security.lockout.durationMinutes',
    category: 'security',
    name: '账号锁定时长（分钟）',
    nameEn: 'Lock-out duration (minutes)',
    value: 15,
    valueType: 'number',
    min: 1,
    max: 1440,
    tenantOverridable: true,
  },
  {
    key: 'login.captchaEnabled',
    category: 'login',
    name: '登录验证码',
    nameEn: 'Captcha on sign-in',
    value: false,
    valueType: 'boolean',
    isPublic: true,
    tenantOverridable: true,
  },
  {
    key: 'login.captchaType',
    category: 'login',
    name: '验证码类型',
    nameEn: 'Captcha type',
    value: 'image',
    valueType: 'enum',
    options: [
      { value: 'image', label: '图形验证码', labelEn: 'Image' },
      { value: 'slider', label: '滑块验证码', labelEn: 'Slider' },
    ],
    isPublic: true,
    tenantOverridable: true,
  },
  {
    key: 'login.captchaSecret',
    category: 'login',
    name: '验证码服务密钥',
    nameEn: 'Captcha service secret',
    value: '',
    valueType: 'secret',
  },
  {
    key: 'security.staffAccount.defaultRole',
    category: 'security',
    name: '职工账号默认角色',
    nameEn: 'Default role of staff accounts',
    description: "The code of the role a staff member's new console account gets when no role is chosen",
    value: '',
    valueType: 'string',
    tenantOverridable: true,
  },
  {
    key: 'qualification.expiryReminderDays',
    category: 'message',
    name: '资质到期提醒天数',
    nameEn: 'Qualification expiry reminder (days)',
    description: 'Approved qualifications ending within this many days are listed as expiring',
    value: 30,
    valueType: 'number',
    min: 1,
    max: 365,
    tenantOverridable: true,
  },
  {
    key: 'upload.maxSizeMb',
    category: 'upload',
    name: '单个文件大小上限（MB）',
    nameEn: 'Maximum file size (MB)',
    value: 50,
    valueType: 'number',
    min: 1,
    max: 2048,
    isPublic: true,
    tenantOverridable: true,
  },
  {
    key: 'upload.allowedExtensions',
    category: 'upload',
    name: '允许上传的文件类型',
    nameEn: 'Allowed file extensions',
    description: 'JSON array of extensions without the dot',
    value: ['jpg', 'jpeg', 'png', 'gif', 'pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'mp4', 'zip'],
    valueType: 'json',
    isPublic: true,
    tenantOverridable: true,
  },
  {
    key: 'import.maxFileSizeMb',
    category: 'upload',
    name: '导入文件大小上限（MB）',
    nameEn: 'Maximum import file size (MB)',
    value: 20,
    valueType: 'number',
    min: 1,
    max: 200,
    tenantOverridable: true,
  },
  {
    key: 'import.maxUnpackedMb',
    category: 'upload',
    name: '导入文件解压后大小上限（MB）',
    nameEn: 'Maximum unpacked import size (MB)',
    value: 300,
    valueType: 'number',
    min: 1,
    max: 2000,
    tenantOverridable: true,
  },
  {
    key: 'import.maxRows',
    category: 'upload',
    name: '单次导入行数上限',
    nameEn: 'Maximum rows per import',
    value: 100000,
    valueType: 'number',
    min: 1,
    max: 1000000,
    tenantOverridable: true,
  },
  {
    key: 'branding.name',
    category: 'branding',
    name: '系统名称',
    nameEn: 'System name',
    value: '医学教育管理后台',
    valueType: 'string',
    isPublic: true,
    tenantOverridable: true,
  },
  {
    key: 'branding.nameEn',
    category: 'branding',
    name: '系统英文名称',
    nameEn: 'System name in English',
    value: 'MedEdu Admin',
    valueType: 'string',
    isPublic: true,
    tenantOverridable: true,
  },
  {
    key: 'branding.logo',
    category: 'branding',
    name: '系统标志',
    nameEn: 'Logo',
    value: '/logo.svg',
    valueType: 'string',
    isPublic: true,
    tenantOverridable: true,
  },
  {
    key: 'branding.copyright',
    category: 'branding',
    name: '版权信息',
    nameEn: 'Copyright notice',
    value: '© MedEdu',
    valueType: 'string',
    isPublic: true,
    tenantOverridable: true,
  },
  {
    key: 'security.password.minScore',
    category: 'security',
    name: '密码最低强度（0–4）',
    nameEn: 'Minimum password strength (0–4)',
    description: 'zxcvbn score: 0 guessable in a few attempts, 4 beyond 10^10 guesses',
    value: 3,
    valueType: 'number',
    min: 0,
    max: 4,
    isPublic: true,
    tenantOverridable: true,
  },
  {
    key: 'security.refreshToken.reuseGraceSeconds',
    category: 'security',
    name: '刷新令牌重复使用宽限期（秒）',
    nameEn: 'Refresh token reuse grace period (seconds)',
    description: 'A refresh token presented again within this time gets the same new pair (tabs refreshing together)',
    value: 10,
    valueType: 'number',
    min: 0,
    max: 60,
  },
];

const json = (value: unknown) => JSON.stringify(value);

/** Idempotent: inserts missing settings and refreshes their metadata; values saved by an administrator stay. */
export async function seedSettings(tx: Tx): Promise<void> {
  for (const [sort, s] of settingSeeds.entries()) {
    await sql`INSERT INTO system_setting (key, category, name, name_en, description, value, value_type, options, min_value, max_value,
        sort, is_system, is_public, tenant_overridable)
      VALUES (${s.key}, ${s.category}, ${s.name}, ${s.nameEn}, ${s.description ?? null}, ${json(s.value)}, ${s.valueType},
        ${s.options ? json(s.options) : null}, ${s.min ?? null}, ${s.max ?? null}, ${sort}, true, ${Boolean(s.isPublic)},
        ${Boolean(s.tenantOverridable)})
      ON CONFLICT (COALESCE(tenant_id, 0), key) DO UPDATE SET category = excluded.category, name = excluded.name,
        name_en = excluded.name_en, description = excluded.description, value_type = excluded.value_type,
        options = excluded.options, min_value = excluded.min_value, max_value = excluded.max_value, sort = excluded.sort,
        is_system = true, is_public = excluded.is_public, tenant_overridable = excluded.tenant_overridable`.execute(tx);
  }
}
