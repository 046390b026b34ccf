import type { ImportJobView } from '@server/core/resource/import-jobs';
import type { Page } from '@server/core/resource/list-query';
import type { ImportReport } from '@server/core/resource/resource-import';
import { readerTimeZone } from '@/utils/dates';
import { saveBlob } from '@/utils/download';
import { takeEarly } from '@/utils/early';
import request, { type Options } from '@/utils/request';

export type ImportJob = ImportJobView;
export type ListAnswer<Row> = Page<Row>;
export type { ImportReport };

export interface FileAnswer {
  blob: Blob;
  filename?: string;
}

/** `attachment; filename="admin-users.xlsx"` (or RFC 5987 `filename*=UTF-8''…`) → the name. */
export function filenameOf(disposition: string | null | undefined): string | undefined {
  if (!disposition) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (extended) return decodeURIComponent(extended[1].trim().replace(/^"|"$/g, ''));
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition);
  return plain?.[1];
}

async function fetchFile(url: string, params?: Record<string, string>, options?: Options): Promise<FileAnswer> {
  const { data, response } = await request.get<{ data: Blob; response: Response }>(url, {
    ...options,
    params,
    responseType: 'blob',
    getResponse: true,
  });
  return { blob: data, filename: filenameOf(response.headers.get('content-disposition')) };
}

/** A file of the API handed to the browser as a download, named as the server names it (else `fallback`). */
export const downloadFile = (
  url: string,
  params: Record<string, string> | undefined,
  fallback: string,
  options?: Options,
) => fetchFile(url, params, options).then(({ blob, filename }) => saveBlob(blob, filename ?? fallback));

/** The HTTP contract of every resource (docs/architecture.md, "The resource contract"), under /api/<name>. */
export function resourceService<Row, Create = Partial<Row>, Update = Partial<Row>>(name: string) {
  const base = `/api/${name}`;
  return {
    // the first page may have been asked for at start-up (routes.ts `firstPage`)
    list: (query: Record<string, string>) =>
      takeEarly(`${base}?${new URLSearchParams(query)}`, () => request.get<ListAnswer<Row>>(base, { params: query })),
    get: (id: string, options: Options = {}) => request.get<Row>(`${base}/${id}`, options),
    create: (body: Create, options?: Options) => request.post<Row>(base, { ...options, data: body }),
    update: (id: string, body: Update & { version: number }, options?: Options) =>
      request.put<Row>(`${base}/${id}`, { ...options, data: body }),
    remove: (id: string) => request.delete<void>(`${base}/${id}`),
    batchDelete: (ids: string[]) => request.post<{ deleted: number }>(`${base}/batch-delete`, { data: { ids } }),
    /** Coded values by their labels, instants on the reader's clock. */
    exportFile: (query: Record<string, string>) =>
      fetchFile(`${base}/export`, { ...query, timeZone: readerTimeZone() }),
    /** `params`: what an import is made for, when the resource's columns depend on it (a trainee type). */
    template: (params?: Record<string, string>) => fetchFile(`${base}/import-template`, params),
    /** `mode` (insert | upsert) for the generic import; a resource's own import may take other fields. */
    importFile: <R extends ImportReport = ImportReport>(
      file: Blob,
      options: { dryRun: boolean } & Record<string, string | boolean>,
    ) => {
      const form = new FormData();
      form.append('file', file, (file as File).name ?? 'import.xlsx');
      for (const [field, value] of Object.entries(options)) form.append(field, String(value));
      return request.post<R>(`${base}/import`, { data: form });
    },
    /** The generic import as a job: progress, cancel, the latest one, and the sheet of every failure. */
    importJobs: {
      start: (file: Blob, options: { mode: string } & Record<string, string>) => {
        const form = new FormData();
        form.append('file', file, (file as File).name ?? 'import.xlsx');
        for (const [field, value] of Object.entries(options)) form.append(field, value);
        return request.post<ImportJob>(`${base}/import-jobs`, { data: form });
      },
      get: (id: string) => request.get<ImportJob>(`${base}/import-jobs/${id}`),
      latest: () => request.get<ImportJob | null>(`${base}/import-jobs/latest`),
      cancel: (id: string) => request.post<ImportJob>(`${base}/import-jobs/${id}/cancel`),
      failures: (id: string) => fetchFile(`${base}/import-jobs/${id}/failures`),
    },
    /** A non-CRUD action: `POST /api/<name>/{id}/<verb>`. */
    action: <T = Row>(id: string, verb: string, data?: unknown, options?: Options) =>
      request.post<T>(`${base}/${id}/${verb}`, { ...options, data }),
  };
}

export type ResourceService<Row, Create = Partial<Row>, Update = Partial<Row>> = ReturnType<
  typeof resourceService<Row, Create, Update>
>;
