import type { ColumnType } from 'kysely';

/** bigint identity, read as a string on both engines, never written by the application. */
export type Id = ColumnType<string, never, never>;
/** bigint reference, read as a string. */
export type Ref = string;
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
export type Json = ColumnType<unknown, string, string>;
export type NullableJson = ColumnType<unknown, string | null | undefined, string | null>;
export type Defaulted<T> = ColumnType<T, T | undefined, T>;
export type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

export interface Audited {
  created_at: Timestamp;
  created_by: Nullable<Ref>;
  updated_at: NullableTimestamp;
  updated_by: Nullable<Ref>;
  version: Defaulted<number>;
}

export type CommonStatus = 'enabled' | 'disabled';

export interface TenantPackageTable extends Audited {
  id: Id;
  name: string;
  status: Defaulted<CommonStatus>;
  remark: Nullable<string>;
  deleted_at: NullableTimestamp;
}

export interface PackagePermissionTable {
  package_id: Ref;
  permission_id: Ref;
}

export interface TenantTable extends Audited {
  id: Id;
  code: string;
  name: string;
  short_name: Nullable<string>;
  logo_file_id: Nullable<Ref>;
  package_id: Nullable<Ref>;
  status: Defaulted<CommonStatus>;
  expires_at: NullableTimestamp;
  max_accounts: Defaulted<number>;
  domains: Defaulted<string[]>;
  contact_name: Nullable<string>;
  contact_mobile: Nullable<string>;
  contact_email: Nullable<string>;
  admin_user_id: Nullable<Ref>;
  district_code: Nullable<string>;
  address: Nullable<string>;
  remark: Nullable<string>;
  deleted_at: NullableTimestamp;
}

export type PermissionType = 'directory' | 'menu' | 'button';

export interface PermissionTable extends Audited {
  id: Id;
  parent_id: Nullable<Ref>;
  type: PermissionType;
  name: string;
  name_en: Nullable<string>;
  locale_key: Nullable<string>;
  code: Nullable<string>;
  path: Nullable<string>;
  component: Nullable<string>;
  icon: Nullable<string>;
  sort: Defaulted<number>;
  hidden_in_menu: Defaulted<boolean>;
  keep_alive: Defaulted<boolean>;
  platform_only: Defaulted<boolean>;
  status: Defaulted<CommonStatus>;
}

export interface OauthClientTable extends Audited {
  id: Id;
  client_id: string;
  secret_hash: Nullable<string>;
  name: string;
  description: Nullable<string>;
  client_type: 'confidential' | 'public';
  grant_types: string[];
  redirect_uris: Defaulted<string[]>;
  scopes: Defaulted<string[]>;
  access_token_ttl_sec: number;
  refresh_token_ttl_sec: number;
  allowed_tenant_ids: Nullable<string[]>;
  status: Defaulted<CommonStatus>;
  additional_info: Nullable<Json>;
  deleted_at: NullableTimestamp;
}

export type AdminUserStatus = 'enabled' | 'disabled' | 'locked';

export interface AdminUserTable extends Audited {
  id: Id;
  tenant_id: Ref;
  username: string;
  password_hash: string;
  display_name: string;
  mobile: Nullable<string>;
  email: Nullable<string>;
  avatar_file_id: Nullable<Ref>;
  org_id: Nullable<Ref>;
  staff_id: Nullable<Ref>;
  status: Defaulted<AdminUserStatus>;
  must_change_password: Defaulted<boolean>;
  password_changed_at: NullableTimestamp;
  failed_login_count: Defaulted<number>;
  locked_until: NullableTimestamp;
  last_login_at: NullableTimestamp;
  last_login_ip: Nullable<string>;
  remark: Nullable<string>;
  deleted_at: NullableTimestamp;
}

export interface RoleTable extends Audited {
  id: Id;
  tenant_id: Ref;
  code: string;
  name: string;
  type: Defaulted<'system' | 'custom'>;
  data_scope: Defaulted<'all' | 'org_custom' | 'org' | 'org_and_children' | 'self'>;
  data_scope_org_ids: Defaulted<string[]>;
  sort: Defaulted<number>;
  status: Defaulted<CommonStatus>;
  remark: Nullable<string>;
  deleted_at: NullableTimestamp;
}

export interface RolePermissionTable {
  tenant_id: Ref;
  role_id: Ref;
  permission_id: Ref;
}

export interface UserRoleTable {
  tenant_id: Ref;
  user_id: Ref;
  role_id: Ref;
}

export interface SystemSettingTable extends Audited {
  id: Id;
  tenant_id: Ref;
  key: string;
  category: string;
  name: string;
  description: Nullable<string>;
  value: Json;
  /** A secret setting's value, sealed (core/seal.ts); its `value` is then an empty string. */
  value_enc: Nullable<Uint8Array>;
  value_type: 'string' | 'number' | 'boolean' | 'enum' | 'json' | 'secret' | 'file';
  options: Nullable<Json>;
  is_system: Defaulted<boolean>;
  visible: Defaulted<boolean>;
  tenant_overridable: Defaulted<boolean>;
  is_public: Defaulted<boolean>;
  name_en: Nullable<string>;
  min_value: Nullable<number>;
  max_value: Nullable<number>;
  sort: Defaulted<number>;
}

export interface DictTypeTable extends Audited {
  id: Id;
  code: string;
  name: string;
  is_system: Defaulted<boolean>;
  tenant_extensible: Defaulted<boolean>;
  status: Defaulted<CommonStatus>;
  remark: Nullable<string>;
}

export interface DictItemTable extends Audited {
  id: Id;
  tenant_id: Ref;
  type_code: string;
  value: string;
  label: string;
  label_en: Nullable<string>;
  color: Nullable<string>;
  parent_value: Nullable<string>;
  is_default: Defaulted<boolean>;
  sort: Defaulted<number>;
  status: Defaulted<CommonStatus>;
  ext: Nullable<Json>;
}

export interface ErrorCodeTable extends Audited {
  id: Id;
  code: number;
  key: string;
  module: string;
  http_status: number;
  message_zh: string;
  message_en: string;
  show_type: Defaulted<number>;
  source: Defaulted<'built_in' | 'manual'>;
  message_customized: Defaulted<boolean>;
  status: Defaulted<CommonStatus>;
}

export interface AuthSessionTable {
  id: Id;
  tenant_id: Ref;
  user_id: Ref;
  client_id: string;
  ip: Nullable<string>;
  user_agent: Nullable<string>;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  revoke_reason: Nullable<string>;
  scopes: Defaulted<string[]>;
}

export type TokenKind = 'access' | 'refresh';

export interface AuthTokenTable {
  id: Id;
  tenant_id: Ref;
  session_id: Ref;
  kind: TokenKind;
  token_hash: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  created_at: Timestamp;
  successor_sealed: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface LoginLogTable {
  id: Id;
  tenant_id: Nullable<Ref>;
  user_id: Nullable<Ref>;
  username: string;
  client_id: Nullable<string>;
  log_type: string;
  result: string;
  ip: Nullable<string>;
  user_agent: Nullable<string>;
  trace_id: Nullable<string>;
  created_at: Timestamp;
}

export interface AuditLogTable {
  id: Id;
  tenant_id: Ref;
  trace_id: Nullable<string>;
  actor_id: Nullable<Ref>;
  actor_name: Nullable<string>;
  action: string;
  resource_type: string;
  resource_id: Nullable<string>;
  summary: Nullable<string>;
  before: NullableJson;
  after: NullableJson;
  ip: Nullable<string>;
  user_agent: Nullable<string>;
  created_at: Timestamp;
}

export type DistrictLevel = 'province' | 'city' | 'county' | 'township';

export interface DistrictTable extends Audited {
  id: Id;
  code: string;
  name: string;
  short_name: Nullable<string>;
  level: DistrictLevel;
  parent_code: Nullable<string>;
  path: string;
  pinyin: Nullable<string>;
  sort: Defaulted<number>;
  status: Defaulted<CommonStatus>;
  replaced_by_code: Nullable<string>;
  remark: Nullable<string>;
}

export interface IndustryTable extends Audited {
  id: Id;
  code: string;
  name: string;
  name_en: Nullable<string>;
  parent_code: Nullable<string>;
  level: number;
  standard_version: Nullable<string>;
  wechat_industry_id: Nullable<number>;
  sort: Defaulted<number>;
  status: Defaulted<CommonStatus>;
  remark: Nullable<string>;
}

export interface BusinessItemTable extends Audited {
  id: Id;
  code: string;
  name: string;
  name_en: Nullable<string>;
  module: string;
  description: Nullable<string>;
  notifiable: Defaulted<boolean>;
  variables: ColumnType<unknown, string | undefined, string>;
  default_channels: Defaulted<string[]>;
  default_template_code: Nullable<string>;
  audit_level: Defaulted<'none' | 'normal' | 'sensitive'>;
  status: Defaulted<CommonStatus>;
}

export interface ImportJobTable {
  id: Id;
  tenant_id: Ref;
  resource: string;
  mode: 'insert' | 'upsert';
  dry_run: boolean;
  status: 'queued' | 'validating' | 'applying' | 'undoing' | 'done' | 'failed' | 'cancelled';
  cancel_requested: Defaulted<boolean>;
  done: Defaulted<number>;
  total: Nullable<number>;
  file_name: string;
  file: Uint8Array;
  report: NullableJson;
  created_by: Ref;
  created_at: Timestamp;
  finished_at: NullableTimestamp;
  /** The server instance running the job (migration 0055); null for jobs from before it. */
  owner_instance: Nullable<string>;
}

/** A server process on the database (migration 0055): live while its heartbeat is fresh and it has not stopped. */
export interface ServerInstanceTable {
  id: string;
  host: string;
  pid: number;
  data_dir: string;
  started_at: Timestamp;
  heartbeat_at: Timestamp;
  stopped_at: NullableTimestamp;
}

export interface ImportJobFailureTable {
  job_id: Ref;
  tenant_id: Ref;
  seq: number;
  row_number: number;
  column_label: string;
  message: string;
}

/**
 * The database's tables. A table made later adds itself from its resource file, beside its definition:
 * `declare module '../../../db/types' { interface DB { gadget: GadgetTable } }`.
 */
export interface DB {
  tenant_package: TenantPackageTable;
  package_permission: PackagePermissionTable;
  tenant: TenantTable;
  permission: PermissionTable;
  oauth_client: OauthClientTable;
  admin_user: AdminUserTable;
  role: RoleTable;
  role_permission: RolePermissionTable;
  user_role: UserRoleTable;
  system_setting: SystemSettingTable;
  dict_type: DictTypeTable;
  dict_item: DictItemTable;
  error_code: ErrorCodeTable;
  auth_session: AuthSessionTable;
  auth_token: AuthTokenTable;
  login_log: LoginLogTable;
  audit_log: AuditLogTable;
  district: DistrictTable;
  industry: IndustryTable;
  business_item: BusinessItemTable;
  import_job: ImportJobTable;
  import_job_failure: ImportJobFailureTable;
  server_instance: ServerInstanceTable;
}
