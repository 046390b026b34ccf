import type { PasswordPolicy } from '../../core/password';
import type { SystemLookups } from '../../core/system-lookups';
import type { Tenancy, Tx } from '../../core/tenancy';
import { type SettingValueRow, findPublicSettingValues, findSettingValues } from './settings.repository';

/** Tenant rows override platform rows. */
function effective(rows: SettingValueRow[]): Map<string, unknown> {
  const result = new Map<string, unknown>();
  for (const row of rows) if (row.tenantId === null) result.set(row.key, row.value);
  for (const row of rows) if (row.tenantId !== null) result.set(row.key, row.value);
  return result;
}

export function createSettingsService(deps: { tenancy: Tenancy; lookups: SystemLookups }) {
  return {
    async numbers<K extends string>(tx: Tx, defaults: Record<K, number>): Promise<Record<K, number>> {
      const values = effective(await findSettingValues(tx, Object.keys(defaults)));
      const out = { ...defaults };
      for (const key of Object.keys(defaults) as K[]) {
        const v = values.get(key);
        if (typeof v === 'number' && Number.isFinite(v)) out[key] = v;
      }
      return out;
    },

    async booleans<K extends string>(tx: Tx, defaults: Record<K, boolean>): Promise<Record<K, boolean>> {
      const values = effective(await findSettingValues(tx, Object.keys(defaults)));
      const out = { ...defaults };
      for (const key of Object.keys(defaults) as K[]) {
        const v = values.get(key);
        if (typeof v === 'boolean') out[key] = v;
      }
      return out;
    },

    async passwordPolicy(tx: Tx): Promise<PasswordPolicy> {
      const { 'security.password.minLength': minLength } = await this.numbers(tx, { 'security.password.minLength': 8 });
      const { 'security.password.requireLetterAndDigit': requireLetterAndDigit } = await this.booleans(tx, {
        'security.password.requireLetterAndDigit': true,
      });
      return { minLength, requireLetterAndDigit };
    },

    async publicSettings(tenantCode: string | undefined): Promise<Record<string, unknown>> {
      const tenantId = tenantCode ? await deps.lookups.tenantIdByCode(tenantCode) : undefined;
      const rows = tenantId
        ? await deps.tenancy.inTenant(tenantId, findPublicSettingValues)
        : await deps.tenancy.inPlatformScope(findPublicSettingValues);
      return Object.fromEntries(effective(rows));
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
