import type { Setting } from '@server/modules/system/settings/settings.schema';
import type { ListAnswer } from '@/services/resource';
import request, { type Options } from '@/utils/request';

export type { Setting };

export const fetchSettings = () => request.get<ListAnswer<Setting>>('/api/system/settings');
export const saveSetting = (key: string, value: unknown, version: number, options: Options = {}) =>
  request.put<Setting>(`/api/system/settings/${encodeURIComponent(key)}`, { data: { value, version }, ...options });
/** Drop the tenant's own value: the platform default applies again. */
export const resetSetting = (key: string) =>
  request.delete<Setting>(`/api/system/settings/${encodeURIComponent(key)}/override`);
