import { AppError, forbidden, invalidField, isUniqueViolation, notFound, versionConflict } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import { hostOf, type Outbound } from '../../../core/outbound';
import type { PasswordPolicy } from '../../../core/password';
import type { PlatformScope } from '../../../core/platform-scope';
import type { WriteContext } from '../../../core/resource/resource';
import type { Sealer } from '../../../core/seal';
import type { SystemLookups } from '../../../core/system-lookups';
import { PLATFORM_TENANT, type Tenancy, type Tx } from '../../../core/tenancy';
import { settingSeeds } from '../../../db/seed/settings';
import type { AuditService } from '../audit/audit.service';
import {
  deleteSettingRow,
  findClearSecretSettings,
  findOverridingTenant,
  findPublicSettingValues,
  findSealedSettingValues,
  findSettingValues,
  insertSettingOverride,
  listSettingRecords,
  type SettingRecord,
  type StoredSetting,
  updateSettingValue,
  writeSealedSetting,
} from './settings.repository';
import { SECRET_MASK, type Setting, type SettingOption, type UpdateSetting } from './settings.schema';

export const SETTING_UPDATE = 'system:settings:update';
export const PLATFORM_SETTING_UPDATE = 'platform:setting:update';
/** The purpose secret settings are sealed for (core/seal.ts; `npm run rotate-key` re-seals them). */
export const SETTING_SECRET = 'setting secret';

/** Tenant rows override platform rows. */
function effective<T>(rows: { key: string; tenantId: string | null; value: T }[]): Map<string, T> {
  const result = new Map<string, T>();
  for (const row of rows) if (row.tenantId === null) result.set(row.key, row.value);
  for (const row of rows) if (row.tenantId !== null) result.set(row.key, row.value);
  return result;
}

const texts = {
  'zh-CN': {
    required: '不能为空',
    number: '必须是数字',
    min: (n: number) => `不能小于 ${n}`,
    max: (n: number) => `不能大于 ${n}`,
    boolean: '必须是 true 或 false',
    text: '必须是文本',
    tooLong: (n: number) => `长度不能超过 ${n}`,
    oneOf: (values: string[]) => `取值应为 ${values.join(' / ')} 之一`,
    notPublic: '不能是本机、内网或保留地址',
  },
  'en-US': {
    required: 'is required',
    number: 'must be a number',
    min: (n: number) => `must be at least ${n}`,
    max: (n: number) => `must be at most ${n}`,
    boolean: 'must be true or false',
    text: 'must be text',
    tooLong: (n: number) => `must be at most ${n} characters`,
    oneOf: (values: string[]) => `must be one of ${values.join(' / ')}`,
    notPublic: 'must not be a local, private or reserved address',
  },
};

const MAX_TEXT = 1000;

/** The settings that hold an address the server connects to, by key: a host name or a URL. */
const ADDRESSES = new Map(settingSeeds.flatMap((s) => (s.outbound ? [[s.key, s.outbound] as const] : [])));
/** Why a setting's minimum is what it is, by key and language: said with a value below it. */
const MIN_REASONS = new Map(
  settingSeeds.flatMap((s) =>
    s.minReason ? [[s.key, { 'zh-CN': s.minReason, 'en-US': s.minReasonEn }] as const] : [],
  ),
);

/** The value as stored, or a 400 naming `value` with what is wrong with it. */
export function checkSettingValue(
  record: Pick<SettingRecord, 'key' | 'valueType' | 'options' | 'min' | 'max'>,
  value: unknown,
  lang: Lang,
): unknown {
  const t = texts[lang];
  const fail = (message: string): never => {
    throw invalidField('value', message);
  };
  if (value === undefined) return fail(t.required);
  switch (record.valueType) {
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return fail(t.number);
      if (record.min !== null && value < record.min) {
        const reason = MIN_REASONS.get(record.key)?.[lang];
        return fail(reason ? `${t.min(record.min)}${lang === 'zh-CN' ? '：' : ': '}${reason}` : t.min(record.min));
      }
      if (record.max !== null && value > record.max) return fail(t.max(record.max));
      return value;
    }
    case 'boolean':
      return typeof value === 'boolean' ? value : fail(t.boolean);
    case 'enum': {
      const allowed = ((record.options as SettingOption[] | null) ?? []).map((o) => o.value);
      return typeof value === 'string' && allowed.includes(value) ? value : fail(t.oneOf(allowed));
    }
    case 'json':
      return value === null ? fail(t.required) : value;
    default:
      if (typeof value !== 'string') return fail(t.text);
      return value.length > MAX_TEXT ? fail(t.tooLong(MAX_TEXT)) : value;
  }
}

const hasValue = (r: SettingRecord) => (r.valueType === 'secret' ? r.secretSet : r.value !== null && r.value !== '');
const shown = (r: SettingRecord) => (r.valueType === 'secret' ? (hasValue(r) ? SECRET_MASK : null) : r.value);

interface Caller {
  tenantId: string;
  isPlatform: boolean;
  permissions: ReadonlySet<string>;
}

function view(platform: SettingRecord, override: SettingRecord | undefined, caller: Caller): Setting {
  const source = override ?? platform;
  return {
    id: platform.id,
    key: platform.key,
    category: platform.category as Setting['category'],
    name: platform.name,
    nameEn: platform.nameEn,
    description: platform.description,
    valueType: platform.valueType,
    value: shown(source),
    defaultValue: shown(platform),
    hasValue: hasValue(source),
    options: (platform.options as SettingOption[] | null) ?? null,
    min: platform.min,
    max: platform.max,
    isPublic: platform.isPublic,
    isSystem: platform.isSystem,
    tenantOverridable: platform.tenantOverridable,
    overridden: override !== undefined,
    editable: caller.isPlatform
      ? caller.permissions.has(PLATFORM_SETTING_UPDATE)
      : caller.permissions.has(SETTING_UPDATE) && platform.tenantOverridable,
    version: caller.isPlatform ? platform.version : (override?.version ?? 0),
    updatedAt: source.updatedAt?.toISOString() ?? null,
  };
}

function views(records: SettingRecord[], caller: Caller): Setting[] {
  const overrides = new Map(records.filter((r) => r.tenantId === caller.tenantId).map((r) => [r.key, r]));
  return records.filter((r) => r.tenantId === null && r.visible).map((p) => view(p, overrides.get(p.key), caller));
}

/** The values in force of `defaults`' keys for the transaction's tenant, each its default unless of the right type. */
async function inForce<K extends string, T>(
  tx: Tx,
  defaults: Record<K, T>,
  ok: (value: unknown) => value is T,
): Promise<Record<K, T>> {
  const values = effective(await findSettingValues(tx, Object.keys(defaults)));
  const out = { ...defaults };
  for (const key of Object.keys(defaults) as K[]) {
    const v = values.get(key);
    if (ok(v)) out[key] = v;
  }
  return out;
}

export function createSettingsService(deps: {
  tenancy: Tenancy;
  lookups: SystemLookups;
  audit: AuditService;
  platform: PlatformScope;
  outbound: Outbound;
  /** Seals and opens the secret settings (`SETTING_SECRET`). */
  secrets: Sealer;
}) {
  const { tenancy, audit, platform, secrets: box } = deps;

  /**
   * An address the caller's tenant may not reach (core/outbound.ts) is refused when saved, before the write's
   * transaction (it may wait on DNS); it is checked again on every use, where a name may resolve elsewhere.
   */
  async function checkAddress(ctx: WriteContext, key: string, value: unknown) {
    const kind = ADDRESSES.get(key);
    if (!kind || typeof value !== 'string' || !value.trim()) return;
    const host = kind === 'url' ? hostOf(value.trim()) : value.trim();
    if (host && !(await deps.outbound.admits(ctx.tenantId, host)))
      throw invalidField('value', texts[ctx.lang].notPublic);
  }
  audit.register('system_setting', 'system:settings:list');

  const caller = async (tx: Tx, tenantId: string, permissions: ReadonlySet<string>): Promise<Caller> => ({
    tenantId,
    permissions,
    isPlatform: await platform.isPlatform(tx, tenantId),
  });

  const load = async (tx: Tx, key: string, who: Caller) => {
    const records = await listSettingRecords(tx, { key });
    const platformRow = records.find((r) => r.tenantId === null);
    if (!platformRow) throw notFound();
    return { platformRow, override: records.find((r) => r.tenantId === who.tenantId) };
  };

  /** A setting's value as the audit trail keeps it (the row's, else `value` written): a secret only as set or not. */
  const trail = (r: SettingRecord, scope: 'platform' | 'tenant', value: unknown = shown(r)) => ({
    key: r.key,
    scope,
    value: r.valueType === 'secret' && value !== null ? (value === '' ? null : SECRET_MASK) : value,
  });

  /** A secret is sealed, its `value` an empty string; an empty secret is none. */
  const stored = (r: SettingRecord, value: unknown): StoredSetting =>
    r.valueType === 'secret' ? { value: '', sealed: value === '' ? null : box.seal(String(value)) } : { value };

  return {
    numbers: <K extends string>(tx: Tx, defaults: Record<K, number>) =>
      inForce(tx, defaults, (v): v is number => typeof v === 'number' && Number.isFinite(v)),
    booleans: <K extends string>(tx: Tx, defaults: Record<K, boolean>) =>
      inForce(tx, defaults, (v): v is boolean => typeof v === 'boolean'),
    strings: <K extends string>(tx: Tx, defaults: Record<K, string>) =>
      inForce(tx, defaults, (v): v is string => typeof v === 'string'),
    lists: <K extends string>(tx: Tx, defaults: Record<K, string[]>) =>
      inForce(tx, defaults, (v): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string')),

    /**
     * The secret settings in force of `defaults`' keys for the transaction's tenant, opened: read only where one is
     * used (the channels), never answered. A value no key of the ring opens fails (SealError), as a stored credential's.
     */
    async secrets<K extends string>(tx: Tx, defaults: Record<K, string>): Promise<Record<K, string>> {
      const values = effective(await findSealedSettingValues(tx, Object.keys(defaults)));
      const out = { ...defaults };
      for (const key of Object.keys(defaults) as K[]) {
        const sealed = values.get(key);
        if (values.has(key)) out[key] = sealed ? box.open(sealed) : '';
      }
      return out;
    },

    /**
     * Seals the secret settings still kept in clear (by a release before sealing, or written around the API): run as
     * the system at every start, after the migrations. Answers how many it sealed.
     */
    async sealStoredSecrets(tx: Tx): Promise<number> {
      const clear = await findClearSecretSettings(tx);
      for (const row of clear) await writeSealedSetting(tx, row.id, box.seal(row.value));
      return clear.length;
    },

    /**
     * Whose address `keys` make together (the SMTP server's host and port): the transaction's tenant's when it
     * overrides one of them, else the platform's. Its outbound policy applies (core/outbound.ts).
     */
    addressOwner: async (tx: Tx, keys: readonly string[]): Promise<string> =>
      (await findOverridingTenant(tx, keys)) ?? PLATFORM_TENANT,

    async passwordPolicy(tx: Tx): Promise<PasswordPolicy> {
      const { 'security.password.minLength': minLength, 'security.password.minScore': minScore } = await this.numbers(
        tx,
        {
          'security.password.minLength': 8,
          'security.password.minScore': 3,
        },
      );
      const { 'security.password.requireLetterAndDigit': requireLetterAndDigit } = await this.booleans(tx, {
        'security.password.requireLetterAndDigit': true,
      });
      return { minLength, requireLetterAndDigit, minScore };
    },

    async publicSettings(tenantCode: string | undefined): Promise<Record<string, unknown>> {
      const tenantId = tenantCode ? await deps.lookups.tenantIdByCode(tenantCode) : undefined;
      const rows = tenantId
        ? await tenancy.inTenant(tenantId, findPublicSettingValues)
        : await tenancy.inPlatformScope(findPublicSettingValues);
      return Object.fromEntries(effective(rows));
    },

    /** Every visible setting of a category with the value in force for the caller's tenant. */
    async list(tenantId: string, permissions: ReadonlySet<string>, category?: string): Promise<Setting[]> {
      return tenancy.inTenant(tenantId, async (tx) =>
        views(await listSettingRecords(tx, { category }), await caller(tx, tenantId, permissions)),
      );
    },

    /**
     * A tenant writes its override (only of tenant-overridable keys); the platform tenant writes the platform row,
     * which needs platform:setting:update. Read on every use, so the next request sees it.
     */
    async update(
      ctx: WriteContext,
      permissions: ReadonlySet<string>,
      key: string,
      input: UpdateSetting,
    ): Promise<Setting> {
      await checkAddress(ctx, key, input.value);
      return tenancy.inTenant(ctx.tenantId, async (tx) => {
        const who = await caller(tx, ctx.tenantId, permissions);
        const { platformRow, override } = await load(tx, key, who);
        if (platformRow.valueType === 'secret' && input.value === SECRET_MASK) return view(platformRow, override, who);
        const value = checkSettingValue(platformRow, input.value, ctx.lang);
        const row = stored(platformRow, value);
        if (who.isPlatform) {
          if (!permissions.has(PLATFORM_SETTING_UPDATE)) throw forbidden();
          if (input.version !== undefined && input.version !== platformRow.version) throw versionConflict();
          if (!(await updateSettingValue(tx, platformRow.id, row, ctx, platformRow.version))) throw versionConflict();
        } else {
          if (!platformRow.tenantOverridable) throw new AppError('setting.notOverridable');
          if (input.version !== undefined && input.version !== (override?.version ?? 0)) throw versionConflict();
          if (override) {
            if (!(await updateSettingValue(tx, override.id, row, ctx, override.version))) throw versionConflict();
          } else {
            try {
              await insertSettingOverride(tx, platformRow, ctx.tenantId, row, ctx);
            } catch (err) {
              if (isUniqueViolation(err)) throw versionConflict();
              throw err;
            }
          }
        }
        const scope = who.isPlatform ? 'platform' : 'tenant';
        const before = who.isPlatform ? platformRow : (override ?? platformRow);
        await audit.record(tx, ctx, {
          action: who.isPlatform ? PLATFORM_SETTING_UPDATE : SETTING_UPDATE,
          resourceType: 'system_setting',
          resourceId: platformRow.id,
          summary: `${key} · ${scope}`,
          before: trail(before, override || who.isPlatform ? scope : 'platform'),
          after: trail(platformRow, scope, value),
        });
        const after = await load(tx, key, who);
        return view(after.platformRow, after.override, who);
      });
    },

    /** Drops the tenant's override: the platform default applies again. */
    async resetOverride(ctx: WriteContext, permissions: ReadonlySet<string>, key: string): Promise<Setting> {
      return tenancy.inTenant(ctx.tenantId, async (tx) => {
        const who = await caller(tx, ctx.tenantId, permissions);
        const { platformRow, override } = await load(tx, key, who);
        if (override) {
          await deleteSettingRow(tx, override.id);
          await audit.record(tx, ctx, {
            action: SETTING_UPDATE,
            resourceType: 'system_setting',
            resourceId: platformRow.id,
            summary: `${key} · reset to the platform default`,
            before: trail(override, 'tenant'),
            after: trail(platformRow, 'platform'),
          });
        }
        return view(platformRow, undefined, who);
      });
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
