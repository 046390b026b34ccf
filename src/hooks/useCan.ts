import { useAccess } from '@umijs/max';
import type { PermissionCode } from '@/access';

/** Whether the signed-in user holds a permission code. */
export default function useCan(code: PermissionCode): boolean {
  return Boolean(useAccess()[code]);
}

/** The same question for codes known only while rendering (a descriptor's buttons, a list of actions). */
export function useCanCheck(): (code: PermissionCode) => boolean {
  const access = useAccess();
  return (code) => Boolean(access[code]);
}
