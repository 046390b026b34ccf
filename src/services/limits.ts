import { useEffect, useState } from 'react';
import request from '@/utils/request';

/** Each resource's path → each text field of its bodies → the longest text the server takes (GET /api/meta/limits). */
export type FieldLimits = Record<string, Record<string, number>>;

let loading: Promise<FieldLimits> | undefined;

/** The server's limits, asked for once (they change only with the server): none while they cannot be read. */
export function loadFieldLimits(): Promise<FieldLimits> {
  loading ??= request.get<FieldLimits>('/api/meta/limits', { skipErrorHandler: true }).catch(() => {
    loading = undefined;
    return {};
  });
  return loading;
}

/** The limits of a resource's fields, once read. */
export function useFieldLimits(resource: string): Record<string, number> | undefined {
  const [limits, setLimits] = useState<Record<string, number>>();
  useEffect(() => {
    let live = true;
    loadFieldLimits().then((all) => live && setLimits(all[resource]));
    return () => {
      live = false;
    };
  }, [resource]);
  return limits;
}
