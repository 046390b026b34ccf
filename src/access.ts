import { PLATFORM_TENANT } from '@/constants';
import type { InitialState } from '@/utils/session';

/**
 * The access map: `canAdmin` (spec.md §6), `platformOperator` (the user belongs to the platform tenant, so may
 * change platform-owned rows), plus one `true` per permission code the API gave the signed-in user, so routes say
 * `access: 'system:admin:list'` and buttons `useAccess()[code]`.
 */
export default function access(initialState: InitialState | undefined): Record<string, boolean> {
  const codes = initialState?.currentUser?.permissions ?? [];
  return {
    ...Object.fromEntries(codes.map((code) => [code, true])),
    canAdmin: !(initialState && initialState.name === 'dontHaveAccess'),
    platformOperator: initialState?.currentUser?.tenant.code === PLATFORM_TENANT,
  };
}
