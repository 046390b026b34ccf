import type { InitialState } from '@/utils/session';

/**
 * The access map: `canAdmin` (spec.md §6) plus one `true` per permission code the API gave the
 * signed-in user, so routes say `access: 'system:admin:list'` and buttons `useAccess()[code]`.
 */
export default function access(initialState: InitialState | undefined): Record<string, boolean> {
  const codes = initialState?.currentUser?.permissions ?? [];
  return {
    ...Object.fromEntries(codes.map((code) => [code, true])),
    canAdmin: !(initialState && initialState.name === 'dontHaveAccess'),
  };
}
