import type { PermissionCode } from '@server/db/seed/permissions';
import { PLATFORM_TENANT } from '@/constants';
import type { InitialState } from '@/utils/session';

export type { PermissionCode };

/** The codes a user holds: `true` for each, absent for the others. */
export type Grants = Partial<Record<PermissionCode, boolean>>;

export type Access = Grants & { canAdmin: boolean; platformOperator: boolean };

/**
 * The access map: `canAdmin` (spec.md §6), `platformOperator` (the user belongs to the platform tenant, so may
 * change platform-owned rows), plus one `true` per permission code the API gave the signed-in user, so routes say
 * `access: 'system:admin:list'` and buttons `useCan(code)`.
 */
export default function access(initialState: InitialState | undefined): Access {
  const codes = initialState?.currentUser?.permissions ?? [];
  const grants: Grants = Object.fromEntries(codes.map((code) => [code, true]));
  return {
    ...grants,
    canAdmin: !(initialState && initialState.name === 'dontHaveAccess'),
    platformOperator: initialState?.currentUser?.tenant.code === PLATFORM_TENANT,
  };
}
