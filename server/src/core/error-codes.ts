/**
 * Error codes declared in code. Upserted into error_code at start (messages edited in the
 * dictionary screen are kept); `code` is the stable numeric id, the key is what clients see.
 */
export interface ErrorCodeDefinition {
  code: number;
  module: string;
  status: number;
  zh: string;
  en: string;
}

export const errorCodes = {
  'common.validation': { code: 1000400, module: 'common', status: 400, zh: '请求参数不正确', en: 'The request is invalid' },
  'common.unauthorized': {
    code: 1000401,
    module: 'common',
    status: 401,
    zh: '登录已过期，请重新登录',
    en: 'Your session has expired, please sign in again',
  },
  'common.forbidden': { code: 1000403, module: 'common', status: 403, zh: '没有该操作的权限', en: 'You do not have permission to do this' },
  'common.notFound': { code: 1000404, module: 'common', status: 404, zh: '请求的资源不存在', en: 'The requested resource does not exist' },
  'common.methodNotAllowed': { code: 1000405, module: 'common', status: 405, zh: '不支持该请求方法', en: 'Method not allowed' },
  'common.versionConflict': {
    code: 1000409,
    module: 'common',
    status: 409,
    zh: '数据已被他人修改，请刷新后重试',
    en: 'The record was changed by someone else; reload it and try again',
  },
  'common.duplicate': {
    code: 1000410,
    module: 'common',
    status: 409,
    zh: '已存在相同的数据',
    en: 'A record with the same value already exists',
  },
  'common.payloadTooLarge': { code: 1000413, module: 'common', status: 413, zh: '请求内容过大', en: 'The request body is too large' },
  'common.unsupportedMediaType': {
    code: 1000415,
    module: 'common',
    status: 415,
    zh: '不支持的请求内容类型',
    en: 'Unsupported content type',
  },
  'common.importFailed': {
    code: 1000422,
    module: 'common',
    status: 422,
    zh: '导入失败：{count} 行有错误，未写入任何数据',
    en: 'Import failed: {count} rows have errors; nothing was written',
  },
  'common.internal': { code: 1000500, module: 'common', status: 500, zh: '系统内部错误，请稍后再试', en: 'Internal server error, please try again later' },

  'auth.badCredentials': { code: 1001001, module: 'auth', status: 400, zh: '租户、用户名或密码错误', en: 'Wrong tenant, user name or password' },
  'auth.invalidGrant': {
    code: 1001002,
    module: 'auth',
    status: 400,
    zh: '登录凭证无效或已过期，请重新登录',
    en: 'The sign-in grant is invalid or has expired; please sign in again',
  },
  'auth.invalidClient': { code: 1001003, module: 'auth', status: 400, zh: '客户端无效或不支持该授权方式', en: 'Unknown client or grant type not allowed for it' },
  'auth.accountLocked': {
    code: 1001004,
    module: 'auth',
    status: 423,
    zh: '密码错误次数过多，账号已锁定，请 {minutes} 分钟后再试',
    en: 'Too many failed attempts; the account is locked, try again in {minutes} minutes',
  },
  'auth.userDisabled': { code: 1001005, module: 'auth', status: 403, zh: '账号已停用', en: 'This account is disabled' },
  'auth.tooManyRequests': { code: 1001006, module: 'auth', status: 429, zh: '请求过于频繁，请稍后再试', en: 'Too many requests, please try again later' },
  'auth.passwordPolicy': {
    code: 1001007,
    module: 'auth',
    status: 400,
    zh: '密码至少 {minLength} 位，且须同时包含字母和数字',
    en: 'The password needs at least {minLength} characters, with letters and digits',
  },

  'auth.passwordChangeRequired': {
    code: 1001010,
    module: 'auth',
    status: 403,
    zh: '请先修改初始密码',
    en: 'Change your initial password first',
  },

  'tenant.disabled': { code: 1002001, module: 'tenant', status: 403, zh: '租户已停用', en: 'This tenant is disabled' },
  'tenant.expired': { code: 1002002, module: 'tenant', status: 403, zh: '租户已过期', en: 'This tenant has expired' },
  'tenant.accountQuotaExceeded': {
    code: 1002003,
    module: 'tenant',
    status: 409,
    zh: '账号数量已达租户上限（{max} 个）',
    en: 'The tenant has reached its account quota ({max} accounts)',
  },

  'auth.unauthorizedClient': {
    code: 1001008,
    module: 'auth',
    status: 400,
    zh: '该客户端不允许此授权方式或此租户',
    en: 'The client is not allowed this grant type or this tenant',
  },
  'auth.invalidScope': {
    code: 1001009,
    module: 'auth',
    status: 400,
    zh: '请求的权限范围超出了客户端或会话的范围：{scopes}',
    en: 'The requested scope exceeds what the client or the session holds: {scopes}',
  },
  'tenant.platformProtected': {
    code: 1002004,
    module: 'tenant',
    status: 409,
    zh: '平台租户不能停用、删除或更换套餐',
    en: 'The platform tenant cannot be disabled, deleted or given a package',
  },
  'tenant.packageDisabled': { code: 1002005, module: 'tenant', status: 400, zh: '该套餐已停用', en: 'The package is disabled' },
  'tenant.packageInUse': {
    code: 1002006,
    module: 'tenant',
    status: 409,
    zh: '仍有租户使用该套餐，不能删除',
    en: 'Tenants still use this package; it cannot be deleted',
  },
  'permission.hasChildren': {
    code: 1004001,
    module: 'permission',
    status: 409,
    zh: '该权限下仍有下级，不能删除',
    en: 'The permission still has children; it cannot be deleted',
  },
  'permission.inUse': {
    code: 1004002,
    module: 'permission',
    status: 409,
    zh: '该权限仍被角色或套餐引用，不能删除',
    en: 'Roles or packages still hold this permission; it cannot be deleted',
  },
  'permission.cycle': {
    code: 1004003,
    module: 'permission',
    status: 400,
    zh: '上级不能是它自己或它的下级',
    en: 'The parent cannot be the permission itself or one of its descendants',
  },
  'permission.platformOnly': {
    code: 1004004,
    module: 'permission',
    status: 400,
    zh: '套餐不能包含平台专属权限：{codes}',
    en: 'A package cannot hold platform-only permissions: {codes}',
  },
  'role.systemRole': {
    code: 1005001,
    module: 'role',
    status: 409,
    zh: '系统内置角色不能删除、停用、修改编码或权限',
    en: 'A built-in role cannot be deleted or disabled, nor have its code or permissions changed',
  },
  'role.permissionNotInPackage': {
    code: 1005002,
    module: 'role',
    status: 400,
    zh: '以下权限不在租户套餐内：{codes}',
    en: 'These permissions are not in the tenant’s package: {codes}',
  },
  'client.noSecret': {
    code: 1006001,
    module: 'client',
    status: 409,
    zh: '公开客户端没有密钥',
    en: 'A public client has no secret',
  },

  'admin.selfOperation': {
    code: 1003001,
    module: 'admin',
    status: 409,
    zh: '不能对自己的账号执行该操作',
    en: 'You cannot do this to your own account',
  },

  'config.platformOnly': {
    code: 1020001,
    module: 'config',
    status: 403,
    zh: '平台数据只能由平台管理员修改',
    en: 'Only platform operators can change platform data',
  },
  'setting.notOverridable': {
    code: 1020101,
    module: 'setting',
    status: 403,
    zh: '该设置不允许租户修改',
    en: 'This setting cannot be changed by a tenant',
  },
  'dict.systemType': { code: 1020201, module: 'dict', status: 409, zh: '系统字典类型不能删除', en: 'A system dictionary type cannot be deleted' },
  'dict.typeInUse': {
    code: 1020202,
    module: 'dict',
    status: 409,
    zh: '该字典类型下仍有字典项，不能删除',
    en: 'The dictionary type still has items; delete them first',
  },
  'dict.notExtensible': {
    code: 1020203,
    module: 'dict',
    status: 403,
    zh: '该字典类型不允许租户添加字典项',
    en: 'Tenants cannot add items to this dictionary type',
  },
  'errcode.builtIn': { code: 1020301, module: 'errcode', status: 409, zh: '系统内置错误码不能删除', en: 'A built-in error code cannot be deleted' },
  'district.hasChildren': {
    code: 1020401,
    module: 'district',
    status: 409,
    zh: '该区划下仍有下级区划，不能删除',
    en: 'The district still has subordinate districts; it cannot be deleted',
  },
  'industry.hasChildren': {
    code: 1020501,
    module: 'industry',
    status: 409,
    zh: '该行业下仍有下级行业，不能删除',
    en: 'The industry still has subordinate industries; it cannot be deleted',
  },
  'auth.passwordTooWeak': {
    code: 1001010,
    module: 'auth',
    status: 400,
    zh: '密码太容易被猜到（强度须达到 {minScore} 级，满分 4 级），请使用更长、更不易猜测的密码',
    en: 'The password is too easy to guess (it needs strength {minScore} of 4); use a longer, less predictable one',
  },
  'auth.passwordContainsUsername': {
    code: 1001011,
    module: 'auth',
    status: 400,
    zh: '密码不能包含用户名',
    en: 'The password must not contain the user name',
  },
  'import.fileTooLarge': {
    code: 1030101,
    module: 'import',
    status: 413,
    zh: '导入文件超过 {maxMb} MB 的上限',
    en: 'The import file is larger than the limit of {maxMb} MB',
  },
  'import.unpackedTooLarge': {
    code: 1030102,
    module: 'import',
    status: 413,
    zh: '导入文件解压后超过 {maxMb} MB 的上限',
    en: 'The import file unpacks to more than the limit of {maxMb} MB',
  },
  'import.tooManyRows': {
    code: 1030103,
    module: 'import',
    status: 413,
    zh: '导入文件超过 {max} 行的上限',
    en: 'The import file has more than the limit of {max} rows',
  },
  'import.jobFinished': { code: 1030104, module: 'import', status: 409, zh: '导入任务已结束，无法取消', en: 'The import job has already finished' },
} satisfies Record<string, ErrorCodeDefinition>;

export type ErrorKey = keyof typeof errorCodes;
