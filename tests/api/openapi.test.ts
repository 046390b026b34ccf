import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/src/db/database';
import { migrateDown, migrateToLatest, migrationNames } from '../../server/src/db/migrator';
import routes, { type AppRoute } from '../../src/config/routes';
import { engines, startApi, type TestApi } from './helpers';

/** The operations every registered resource has, with the permission each asks for. */
const resourceRoutes = (path: string, prefix: string): Record<string, string> => ({
  [`GET /api/${path}`]: `${prefix}:list`,
  [`POST /api/${path}`]: `${prefix}:create`,
  [`GET /api/${path}/export`]: `${prefix}:export`,
  [`GET /api/${path}/import-template`]: `${prefix}:import`,
  [`POST /api/${path}/import-jobs`]: `${prefix}:import`,
  [`GET /api/${path}/import-jobs/latest`]: `${prefix}:import`,
  [`GET /api/${path}/import-jobs/{id}`]: `${prefix}:import`,
  [`POST /api/${path}/import-jobs/{id}/cancel`]: `${prefix}:import`,
  [`GET /api/${path}/import-jobs/{id}/failures`]: `${prefix}:import`,
  [`POST /api/${path}/import`]: `${prefix}:import`,
  [`POST /api/${path}/batch-delete`]: `${prefix}:delete`,
  [`GET /api/${path}/{id}`]: `${prefix}:list`,
  [`PUT /api/${path}/{id}`]: `${prefix}:update`,
  [`DELETE /api/${path}/{id}`]: `${prefix}:delete`,
});

/** The routes of a resource that has no import (no template, no jobs). */
const withoutImport = (routes: Record<string, string>) =>
  Object.fromEntries(Object.entries(routes).filter(([, code]) => !code.endsWith(':import')));

/** The routes of records made elsewhere (messages, by a send): read, exported, deleted (refused), never written. */
const readOnly = (routes: Record<string, string>) =>
  Object.fromEntries(Object.entries(withoutImport(routes)).filter(([, code]) => !/:(create|update)$/.test(code)));

describe.each(engines())('documentation and public endpoints on $name', (engine) => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi(engine, { demo: false });
  });
  afterAll(() => api?.close());

  it('GET /api/openapi.json lists every route with its permission', async () => {
    const res = await api.call('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    const permissions: Record<string, string> = {};
    for (const [path, item] of Object.entries(
      res.body.paths as Record<string, Record<string, { 'x-permission': string }>>,
    )) {
      for (const [method, op] of Object.entries(item))
        permissions[`${method.toUpperCase()} ${path}`] = op['x-permission'];
    }
    expect(permissions).toEqual({
      'GET /api/health': 'public',
      'GET /api/meta/limits': 'public',
      'GET /api/ready': 'public',
      'GET /api/assess/question/{id}/attachments': 'assess:question:list',
      'GET /api/assess/question/{id}/papers': 'assess:question:list',
      'GET /api/assess/question/{id}/statistics': 'assess:question:list',
      'DELETE /api/assess/paper/{id}': 'assess:paper:delete',
      'GET /api/assess/paper': 'assess:paper:list',
      'GET /api/assess/paper/export': 'assess:paper:export',
      'GET /api/assess/paper/{id}': 'assess:paper:list',
      'GET /api/assess/paper/{id}/preview': 'assess:paper:list',
      'GET /api/assess/paper/{id}/export-word': 'assess:paper:export-word',
      'GET /api/assess/paper/{id}/export-pdf': 'assess:paper:export-pdf',
      'POST /api/assess/paper': 'assess:paper:create',
      'POST /api/assess/paper/batch-delete': 'assess:paper:delete',
      'POST /api/assess/paper/check-rules': 'assess:paper:list',
      'POST /api/assess/paper/{id}/clone': 'assess:paper:clone',
      'POST /api/assess/paper/{id}/close': 'assess:paper:close',
      'POST /api/assess/paper/{id}/publish': 'assess:paper:publish',
      'PUT /api/assess/paper/{id}': 'assess:paper:update',
      ...withoutImport(resourceRoutes('teaching/activity', 'teaching:activity')),
      'GET /api/teaching/activity/stats': 'teaching:activity:list',
      'GET /api/teaching/activity/host-stats': 'teaching:activity:list',
      'GET /api/teaching/activity/{id}/participants': 'teaching:activity:list',
      'GET /api/teaching/activity/{id}/sign-in-code': 'teaching:activity:attendance',
      'GET /api/teaching/activity/{id}/attendance-sheet': 'teaching:activity:export',
      'POST /api/teaching/activity/{id}/publish': 'teaching:activity:publish',
      'POST /api/teaching/activity/{id}/cancel': 'teaching:activity:publish',
      'POST /api/teaching/activity/{id}/complete': 'teaching:activity:publish',
      'POST /api/teaching/activity/{id}/participants': 'teaching:activity:attendance',
      'POST /api/teaching/activity/{id}/attendance': 'teaching:activity:attendance',
      'GET /api/teaching/activity/{id}/files': 'teaching:activity:list',
      'POST /api/teaching/activity/{id}/files': 'teaching:activity:update',
      'POST /api/teaching/activity/sign-in': 'public',
      'POST /api/teaching/activity/rate': 'public',
      'GET /api/teaching/activity/{id}/rating-code': 'teaching:activity:attendance',
      'POST /api/teaching/activity/rating-token': 'public',
      ...withoutImport(resourceRoutes('content/document-base', 'doc:base')),
      'GET /api/content/document-base/{id}/grants': 'doc:base:list',
      'PUT /api/content/document-base/{id}/grants': 'doc:base:grant',
      ...withoutImport(resourceRoutes('content/tag', 'doc:tag')),
      'GET /api/content/tag/options': ['doc:tag:list', 'doc:document:list'],
      'POST /api/content/tag/{id}/merge': 'doc:tag:merge',
      'POST /api/content/tag/{id}/detach': 'doc:tag:delete',
      ...withoutImport(resourceRoutes('content/document', 'doc:document')),
      'GET /api/content/document/search': 'authenticated',
      'GET /api/content/document/{id}/read': 'authenticated',
      'POST /api/content/document/{id}/download': 'authenticated',
      'GET /api/content/document/{id}/versions': 'doc:document:list',
      'GET /api/content/document/{id}/attachments': 'doc:document:list',
      'POST /api/content/document/bulk-tag': 'doc:document:update',
      'POST /api/content/document/bulk-move': 'doc:document:update',
      'POST /api/content/document/{id}/publish': 'doc:document:publish',
      'POST /api/content/document/{id}/offline': 'doc:document:publish',
      'POST /api/content/document/{id}/new-version': 'doc:document:new-version',
      ...withoutImport(resourceRoutes('community/board', 'community:board')),
      'POST /api/community/board/reorder': 'community:board:reorder',
      'POST /api/community/board/{id}/status': 'community:board:update',
      'GET /api/community/board/{id}/moderators': 'community:board:list',
      'PUT /api/community/board/{id}/moderators': 'community:board:update',
      ...withoutImport(resourceRoutes('community/post', 'community:post')),
      'POST /api/community/post/{id}/approve': 'community:post:moderate',
      'POST /api/community/post/{id}/reject': 'community:post:moderate',
      'POST /api/community/post/{id}/hide': 'community:post:moderate',
      'POST /api/community/post/{id}/restore': 'community:post:moderate',
      'POST /api/community/post/{id}/delete': 'community:post:moderate',
      'POST /api/community/post/{id}/pin': 'community:post:pin',
      'POST /api/community/post/{id}/feature': 'community:post:feature',
      'POST /api/community/post/{id}/lock': 'community:post:lock',
      'POST /api/community/post/{id}/move': 'community:post:move',
      'GET /api/community/post/{id}/replies': 'community:post:list',
      'POST /api/community/post/{id}/replies': 'community:post:create',
      'POST /api/community/reply/{id}/hide': 'community:post:moderate',
      'POST /api/community/reply/{id}/restore': 'community:post:moderate',
      'POST /api/community/reply/{id}/delete': 'community:post:moderate',
      'GET /api/community/report': 'community:report:list',
      'GET /api/community/report/export': 'community:report:export',
      'GET /api/community/report/{id}': 'community:report:list',
      'POST /api/community/report/batch-delete': 'community:report:delete',
      'DELETE /api/community/report/{id}': 'community:report:delete',
      'POST /api/community/report': 'community:post:report',
      'GET /api/community/report/{id}/reports': 'community:report:list',
      'POST /api/community/report/{id}/resolve': 'community:report:resolve',
      ...withoutImport(resourceRoutes('message/template', 'message:template')),
      'POST /api/message/template/preview': 'message:template:list',
      'POST /api/message/template/{id}/preview': 'message:template:list',
      ...readOnly(resourceRoutes('message/message', 'message:message')),
      'POST /api/message/message/{id}/retry': 'message:message:retry',
      ...readOnly(resourceRoutes('message/batch', 'message:message')),
      'POST /api/message/batch': 'message:message:send',
      'POST /api/message/batch/preview': 'message:message:send',
      'POST /api/message/batch/{id}/cancel': 'message:message:send',
      'POST /api/message/batch/{id}/retry': 'message:message:retry',
      'POST /api/message/template/{id}/test-send': 'message:template:test-send',
      'GET /api/message/inbox': 'authenticated',
      'GET /api/message/inbox/unread-count': 'authenticated',
      'POST /api/message/inbox/read': 'authenticated',
      'POST /api/message/inbox/read-all': 'authenticated',
      ...withoutImport(resourceRoutes('message/wechat-account', 'message:follower')),
      'POST /api/message/wechat-account/{id}/sync': 'message:follower:sync',
      'GET /api/message/wechat-account/{id}/tags': 'message:follower:list',
      'GET /api/message/follower': 'message:follower:list',
      'GET /api/message/follower/export': 'message:follower:export',
      'POST /api/message/follower/batch-delete': 'message:follower:delete',
      'GET /api/message/follower/{id}': 'message:follower:list',
      'DELETE /api/message/follower/{id}': 'message:follower:delete',
      'POST /api/message/follower/tag': 'message:follower:update',
      'POST /api/message/follower/{id}/bind': 'message:follower:bind',
      'POST /api/message/follower/{id}/unbind': 'message:follower:bind',
      'POST /api/message/follower/{id}/remark': 'message:follower:update',
      ...withoutImport(resourceRoutes('teaching/course', 'teaching:course')),
      'GET /api/teaching/course/{id}/enrolments': 'teaching:course:list',
      'GET /api/teaching/course/{id}/report': 'teaching:course:export',
      'POST /api/teaching/course/{id}/publish': 'teaching:course:publish',
      'POST /api/teaching/course/{id}/offline': 'teaching:course:publish',
      'POST /api/teaching/course/{id}/assign': 'teaching:course:assign',
      'POST /api/teaching/course/{id}/enrol': 'teaching:course:assign',
      'POST /api/teaching/course/{id}/unenrol': 'teaching:course:assign',
      'POST /api/teaching/course/{id}/clone': 'teaching:course:clone',
      'GET /api/teaching/course-category': 'teaching:course:list',
      'GET /api/teaching/course-category/export': 'teaching:course:export',
      'GET /api/teaching/course-category/tree': 'teaching:course:list',
      'GET /api/teaching/course-category/{id}': 'teaching:course:list',
      'POST /api/teaching/course-category': 'teaching:course-category:manage',
      'POST /api/teaching/course-category/batch-delete': 'teaching:course-category:manage',
      'PUT /api/teaching/course-category/{id}': 'teaching:course-category:manage',
      'DELETE /api/teaching/course-category/{id}': 'teaching:course-category:manage',
      ...withoutImport(resourceRoutes('teaching/course-item', 'teaching:course-item')),
      'POST /api/teaching/course-item/reorder': 'teaching:course-item:update',
      'GET /api/teaching/course-item/outline': 'teaching:course-item:list',
      'GET /api/teaching/course-item/{id}/progress': 'teaching:course-item:list',
      'POST /api/teaching/course-item/{id}/progress': 'teaching:course-item:progress',
      'POST /api/teaching/course-item/{id}/publish': 'teaching:course-item:publish',
      'POST /api/teaching/course-item/{id}/hide': 'teaching:course-item:publish',
      'POST /api/teaching/course-item/{id}/replace-media': 'teaching:course-item:update',
      'POST /api/teaching/course-item/{id}/retry-media': 'teaching:course-item:update',
      'DELETE /api/assess/category/{id}': 'assess:category:manage',
      'DELETE /api/assess/knowledge-point/{id}': 'assess:knowledge:manage',
      'DELETE /api/assess/question/{id}': 'assess:question:delete',
      'GET /api/assess/category': 'assess:question:list',
      'GET /api/assess/category/export': 'assess:question:export',
      'GET /api/assess/category/tree': 'assess:question:list',
      'GET /api/assess/category/{id}': 'assess:question:list',
      'GET /api/assess/knowledge-point': 'assess:question:list',
      'GET /api/assess/knowledge-point/export': 'assess:question:export',
      'GET /api/assess/knowledge-point/tree': 'assess:question:list',
      'GET /api/assess/knowledge-point/{id}': 'assess:question:list',
      'GET /api/assess/question': 'assess:question:list',
      'GET /api/assess/question/export': 'assess:question:export',
      'GET /api/assess/question/{id}': 'assess:question:list',
      'GET /api/assess/question/{id}/versions': 'assess:question:list',
      'GET /api/assess/question/tags': 'assess:question:list',
      'POST /api/assess/category': 'assess:category:manage',
      'POST /api/assess/category/batch-delete': 'assess:category:manage',
      'POST /api/assess/knowledge-point': 'assess:knowledge:manage',
      'POST /api/assess/knowledge-point/batch-delete': 'assess:knowledge:manage',
      'POST /api/assess/question': 'assess:question:create',
      'POST /api/assess/question/batch-delete': 'assess:question:delete',
      'POST /api/assess/question/bulk-update': 'assess:question:bulk-update',
      'POST /api/assess/question/duplicates': 'assess:question:list',
      'POST /api/assess/question/{id}/review': 'assess:question:review',
      'POST /api/assess/question/{id}/submit': 'assess:question:update',
      'GET /api/assess/question/import-template': 'assess:question:import',
      'POST /api/assess/question/import': 'assess:question:import',
      'POST /api/assess/question/import-jobs': 'assess:question:import',
      'GET /api/assess/question/import-jobs/latest': 'assess:question:import',
      'GET /api/assess/question/import-jobs/{id}': 'assess:question:import',
      'POST /api/assess/question/import-jobs/{id}/cancel': 'assess:question:import',
      'GET /api/assess/question/import-jobs/{id}/failures': 'assess:question:import',
      'PUT /api/assess/category/{id}': 'assess:category:manage',
      'PUT /api/assess/knowledge-point/{id}': 'assess:knowledge:manage',
      'PUT /api/assess/question/{id}': 'assess:question:update',
      'POST /api/auth/token': 'public',
      'POST /api/auth/logout': 'authenticated',
      'GET /api/auth/me': 'authenticated',
      'PUT /api/auth/me': 'authenticated',
      'POST /api/auth/password': 'authenticated',
      'GET /api/system/settings/public': 'public',
      'GET /api/dictionary/catalog/syscodes': 'authenticated',
      'GET /api/dictionary/catalog/errcodes': 'public',
      'GET /api/system/admin': 'system:admin:list',
      'POST /api/system/admin': 'system:admin:create',
      'GET /api/system/admin/export': 'system:admin:export',
      'GET /api/system/admin/import-template': 'system:admin:import',
      'POST /api/system/admin/import-jobs': 'system:admin:import',
      'GET /api/system/admin/import-jobs/latest': 'system:admin:import',
      'GET /api/system/admin/import-jobs/{id}': 'system:admin:import',
      'POST /api/system/admin/import-jobs/{id}/cancel': 'system:admin:import',
      'GET /api/system/admin/import-jobs/{id}/failures': 'system:admin:import',
      'POST /api/system/admin/import': 'system:admin:import',
      'POST /api/system/admin/batch-delete': 'system:admin:delete',
      'GET /api/system/admin/{id}': 'system:admin:list',
      'PUT /api/system/admin/{id}': 'system:admin:update',
      'DELETE /api/system/admin/{id}': 'system:admin:delete',
      'POST /api/system/admin/{id}/enable': 'system:admin:update-status',
      'POST /api/system/admin/{id}/disable': 'system:admin:update-status',
      'POST /api/system/admin/{id}/unlock': 'system:admin:update-status',
      'POST /api/system/admin/{id}/reset-password': 'system:admin:reset-password',
      'POST /api/system/admin/{id}/force-logout': 'system:admin:force-logout',
      'PUT /api/system/admin/{id}/roles': 'system:admin:assign-role',
      'GET /api/system/audit-log': 'authenticated',
      'GET /api/system/login-log': 'system:admin:list',
      'GET /api/dashboard/workspace': 'authenticated',
      'GET /api/auth/menus': 'authenticated',
      'GET /api/system/tenant/resolve': 'public',
      'GET /api/system/tenant': 'system:tenant:list',
      'POST /api/system/tenant': 'system:tenant:create',
      'GET /api/system/tenant/export': 'system:tenant:export',
      'GET /api/system/tenant/import-template': 'system:tenant:import',
      'POST /api/system/tenant/import-jobs': 'system:tenant:import',
      'GET /api/system/tenant/import-jobs/latest': 'system:tenant:import',
      'GET /api/system/tenant/import-jobs/{id}': 'system:tenant:import',
      'POST /api/system/tenant/import-jobs/{id}/cancel': 'system:tenant:import',
      'GET /api/system/tenant/import-jobs/{id}/failures': 'system:tenant:import',
      'POST /api/system/tenant/import': 'system:tenant:import',
      'POST /api/system/tenant/batch-delete': 'system:tenant:delete',
      'GET /api/system/tenant/{id}': 'system:tenant:list',
      'PUT /api/system/tenant/{id}': 'system:tenant:update',
      'DELETE /api/system/tenant/{id}': 'system:tenant:delete',
      'POST /api/system/tenant/{id}/disable': 'system:tenant:disable',
      'POST /api/system/tenant/{id}/enable': 'system:tenant:enable',
      'POST /api/system/tenant/{id}/renew': 'system:tenant:renew',
      'GET /api/system/tenant-package': 'system:tenant-package:list',
      'POST /api/system/tenant-package': 'system:tenant-package:create',
      'GET /api/system/tenant-package/export': 'system:tenant-package:export',
      'GET /api/system/tenant-package/import-template': 'system:tenant-package:import',
      'POST /api/system/tenant-package/import-jobs': 'system:tenant-package:import',
      'GET /api/system/tenant-package/import-jobs/latest': 'system:tenant-package:import',
      'GET /api/system/tenant-package/import-jobs/{id}': 'system:tenant-package:import',
      'POST /api/system/tenant-package/import-jobs/{id}/cancel': 'system:tenant-package:import',
      'GET /api/system/tenant-package/import-jobs/{id}/failures': 'system:tenant-package:import',
      'POST /api/system/tenant-package/import': 'system:tenant-package:import',
      'POST /api/system/tenant-package/batch-delete': 'system:tenant-package:delete',
      'GET /api/system/tenant-package/{id}': 'system:tenant-package:list',
      'PUT /api/system/tenant-package/{id}': 'system:tenant-package:update',
      'DELETE /api/system/tenant-package/{id}': 'system:tenant-package:delete',
      'GET /api/system/permission/tree': 'system:permission:list',
      'GET /api/system/permission': 'system:permission:list',
      'POST /api/system/permission': 'system:permission:create',
      'GET /api/system/permission/export': 'system:permission:export',
      'GET /api/system/permission/import-template': 'system:permission:import',
      'POST /api/system/permission/import-jobs': 'system:permission:import',
      'GET /api/system/permission/import-jobs/latest': 'system:permission:import',
      'GET /api/system/permission/import-jobs/{id}': 'system:permission:import',
      'POST /api/system/permission/import-jobs/{id}/cancel': 'system:permission:import',
      'GET /api/system/permission/import-jobs/{id}/failures': 'system:permission:import',
      'POST /api/system/permission/import': 'system:permission:import',
      'POST /api/system/permission/batch-delete': 'system:permission:delete',
      'GET /api/system/permission/{id}': 'system:permission:list',
      'PUT /api/system/permission/{id}': 'system:permission:update',
      'DELETE /api/system/permission/{id}': 'system:permission:delete',
      'GET /api/system/role/options': ['system:role:list', 'system:admin:list'],
      'GET /api/system/role': 'system:role:list',
      'POST /api/system/role': 'system:role:create',
      'GET /api/system/role/export': 'system:role:export',
      'GET /api/system/role/import-template': 'system:role:import',
      'POST /api/system/role/import-jobs': 'system:role:import',
      'GET /api/system/role/import-jobs/latest': 'system:role:import',
      'GET /api/system/role/import-jobs/{id}': 'system:role:import',
      'POST /api/system/role/import-jobs/{id}/cancel': 'system:role:import',
      'GET /api/system/role/import-jobs/{id}/failures': 'system:role:import',
      'POST /api/system/role/import': 'system:role:import',
      'POST /api/system/role/batch-delete': 'system:role:delete',
      'GET /api/system/role/{id}': 'system:role:list',
      'PUT /api/system/role/{id}': 'system:role:update',
      'DELETE /api/system/role/{id}': 'system:role:delete',
      'GET /api/system/role/{id}/permissions': 'system:role:list',
      'PUT /api/system/role/{id}/permissions': 'system:role:assign-permission',
      'PUT /api/system/role/{id}/data-scope': 'system:role:assign-data-scope',
      'GET /api/system/role/{id}/members': 'system:role:list',
      'POST /api/system/role/{id}/members': 'system:role:assign-user',
      'DELETE /api/system/role/{id}/members/{userId}': 'system:role:assign-user',
      'GET /api/system/client': 'system:client:list',
      'POST /api/system/client': 'system:client:create',
      'GET /api/system/client/export': 'system:client:export',
      'GET /api/system/client/import-template': 'system:client:import',
      'POST /api/system/client/batch-delete': 'system:client:delete',
      'GET /api/system/client/{id}': 'system:client:list',
      'PUT /api/system/client/{id}': 'system:client:update',
      'DELETE /api/system/client/{id}': 'system:client:delete',
      'POST /api/system/client/{id}/rotate-secret': 'system:client:rotate-secret',
      'POST /api/system/client/{id}/revoke-tokens': 'system:client:revoke-tokens',
      'GET /api/system/settings': 'system:settings:list',
      'PUT /api/system/settings/{key}': 'system:settings:update',
      'DELETE /api/system/settings/{key}/override': 'system:settings:update',
      'GET /api/dictionary/syscode/types': 'dictionary:syscode:list',
      'POST /api/dictionary/syscode/types': 'dictionary:syscode:create',
      'GET /api/dictionary/syscode/types/export': 'dictionary:syscode:export',
      'GET /api/dictionary/syscode/types/import-template': 'dictionary:syscode:import',
      'POST /api/dictionary/syscode/types/import-jobs': 'dictionary:syscode:import',
      'GET /api/dictionary/syscode/types/import-jobs/latest': 'dictionary:syscode:import',
      'GET /api/dictionary/syscode/types/import-jobs/{id}': 'dictionary:syscode:import',
      'POST /api/dictionary/syscode/types/import-jobs/{id}/cancel': 'dictionary:syscode:import',
      'GET /api/dictionary/syscode/types/import-jobs/{id}/failures': 'dictionary:syscode:import',
      'POST /api/dictionary/syscode/types/import': 'dictionary:syscode:import',
      'POST /api/dictionary/syscode/types/batch-delete': 'dictionary:syscode:delete',
      'GET /api/dictionary/syscode/types/{id}': 'dictionary:syscode:list',
      'PUT /api/dictionary/syscode/types/{id}': 'dictionary:syscode:update',
      'DELETE /api/dictionary/syscode/types/{id}': 'dictionary:syscode:delete',
      'GET /api/dictionary/syscode/items': 'dictionary:syscode:list',
      'POST /api/dictionary/syscode/items': 'dictionary:syscode:item-create',
      'GET /api/dictionary/syscode/items/export': 'dictionary:syscode:export',
      'GET /api/dictionary/syscode/items/import-template': 'dictionary:syscode:import',
      'POST /api/dictionary/syscode/items/import-jobs': 'dictionary:syscode:import',
      'GET /api/dictionary/syscode/items/import-jobs/latest': 'dictionary:syscode:import',
      'GET /api/dictionary/syscode/items/import-jobs/{id}': 'dictionary:syscode:import',
      'POST /api/dictionary/syscode/items/import-jobs/{id}/cancel': 'dictionary:syscode:import',
      'GET /api/dictionary/syscode/items/import-jobs/{id}/failures': 'dictionary:syscode:import',
      'POST /api/dictionary/syscode/items/import': 'dictionary:syscode:import',
      'POST /api/dictionary/syscode/items/batch-delete': 'dictionary:syscode:delete',
      'GET /api/dictionary/syscode/items/{id}': 'dictionary:syscode:list',
      'PUT /api/dictionary/syscode/items/{id}': 'dictionary:syscode:item-update',
      'DELETE /api/dictionary/syscode/items/{id}': 'dictionary:syscode:delete',
      'GET /api/dictionary/errcode': 'dictionary:errcode:list',
      'POST /api/dictionary/errcode': 'dictionary:errcode:create',
      'GET /api/dictionary/errcode/export': 'dictionary:errcode:export',
      'GET /api/dictionary/errcode/import-template': 'dictionary:errcode:import',
      'POST /api/dictionary/errcode/import-jobs': 'dictionary:errcode:import',
      'GET /api/dictionary/errcode/import-jobs/latest': 'dictionary:errcode:import',
      'GET /api/dictionary/errcode/import-jobs/{id}': 'dictionary:errcode:import',
      'POST /api/dictionary/errcode/import-jobs/{id}/cancel': 'dictionary:errcode:import',
      'GET /api/dictionary/errcode/import-jobs/{id}/failures': 'dictionary:errcode:import',
      'POST /api/dictionary/errcode/import': 'dictionary:errcode:import',
      'POST /api/dictionary/errcode/batch-delete': 'dictionary:errcode:delete',
      'GET /api/dictionary/errcode/{id}': 'dictionary:errcode:list',
      'PUT /api/dictionary/errcode/{id}': 'dictionary:errcode:update',
      'DELETE /api/dictionary/errcode/{id}': 'dictionary:errcode:delete',
      'GET /api/system/district/tree': 'system:district:list',
      'POST /api/system/district/import': 'system:district:import',
      'GET /api/system/district': 'system:district:list',
      'POST /api/system/district': 'system:district:create',
      'GET /api/system/district/export': 'system:district:export',
      'GET /api/system/district/import-template': 'system:district:import',
      'POST /api/system/district/batch-delete': 'system:district:delete',
      'GET /api/system/district/{id}': 'system:district:list',
      'PUT /api/system/district/{id}': 'system:district:update',
      'DELETE /api/system/district/{id}': 'system:district:delete',
      'GET /api/dictionary/industry/tree': 'dictionary:industry:list',
      'GET /api/dictionary/industry': 'dictionary:industry:list',
      'POST /api/dictionary/industry': 'dictionary:industry:create',
      'GET /api/dictionary/industry/export': 'dictionary:industry:export',
      'GET /api/dictionary/industry/import-template': 'dictionary:industry:import',
      'POST /api/dictionary/industry/import-jobs': 'dictionary:industry:import',
      'GET /api/dictionary/industry/import-jobs/latest': 'dictionary:industry:import',
      'GET /api/dictionary/industry/import-jobs/{id}': 'dictionary:industry:import',
      'POST /api/dictionary/industry/import-jobs/{id}/cancel': 'dictionary:industry:import',
      'GET /api/dictionary/industry/import-jobs/{id}/failures': 'dictionary:industry:import',
      'POST /api/dictionary/industry/import': 'dictionary:industry:import',
      'POST /api/dictionary/industry/batch-delete': 'dictionary:industry:delete',
      'GET /api/dictionary/industry/{id}': 'dictionary:industry:list',
      'PUT /api/dictionary/industry/{id}': 'dictionary:industry:update',
      'DELETE /api/dictionary/industry/{id}': 'dictionary:industry:delete',
      'GET /api/dictionary/busiitem': ['dictionary:busiitem:list', 'message:template:list', 'message:message:send'],
      'POST /api/dictionary/busiitem': 'dictionary:busiitem:create',
      'GET /api/dictionary/busiitem/export': 'dictionary:busiitem:export',
      'GET /api/dictionary/busiitem/import-template': 'dictionary:busiitem:import',
      'POST /api/dictionary/busiitem/import-jobs': 'dictionary:busiitem:import',
      'GET /api/dictionary/busiitem/import-jobs/latest': 'dictionary:busiitem:import',
      'GET /api/dictionary/busiitem/import-jobs/{id}': 'dictionary:busiitem:import',
      'POST /api/dictionary/busiitem/import-jobs/{id}/cancel': 'dictionary:busiitem:import',
      'GET /api/dictionary/busiitem/import-jobs/{id}/failures': 'dictionary:busiitem:import',
      'POST /api/dictionary/busiitem/import': 'dictionary:busiitem:import',
      'POST /api/dictionary/busiitem/batch-delete': 'dictionary:busiitem:delete',
      'GET /api/dictionary/busiitem/{id}': 'dictionary:busiitem:list',
      'PUT /api/dictionary/busiitem/{id}': 'dictionary:busiitem:update',
      'DELETE /api/dictionary/busiitem/{id}': 'dictionary:busiitem:delete',
      ...resourceRoutes('people/organization', 'people:organization'),
      'GET /api/people/organization/tree': 'people:organization:list',
      'POST /api/people/organization/{id}/move': 'people:organization:move',
      ...resourceRoutes('people/unit', 'people:unit'),
      'POST /api/people/unit/{id}/merge': 'people:unit:merge',
      'GET /api/people/unit/{id}/aliases': 'people:unit:list',
      ...resourceRoutes('people/trainee-type', 'people:trainee-type'),
      'POST /api/people/trainee-type/{id}/clone': 'people:trainee-type:clone',
      ...resourceRoutes('people/trainee-field', 'people:trainee-field'),
      'POST /api/people/trainee-field/reorder': 'people:trainee-field:reorder',
      'POST /api/people/trainee-field/{id}/archive': 'people:trainee-field:archive',
      'POST /api/people/trainee-field/{id}/restore': 'people:trainee-field:archive',
      ...resourceRoutes('people/trainee', 'trainee:trainee'),
      'GET /api/people/trainee/counts': ['trainee:trainee:list', 'trainee:by-type:list'],
      'GET /api/people/trainee/{id}/history': 'trainee:trainee:list',
      'POST /api/people/trainee/{id}/request-base-change': 'trainee:trainee:change-base',
      'POST /api/people/trainee/{id}/decide-base-change': 'trainee:trainee:change-base',
      'GET /api/people/trainee/{id}/base-changes': 'trainee:trainee:list',
      'POST /api/people/trainee/transition': 'trainee:trainee:change-status',
      'POST /api/people/trainee/audit': 'trainee:trainee:audit',
      'POST /api/people/trainee/{id}/transition': 'trainee:trainee:change-status',
      'POST /api/people/trainee/{id}/submit': 'trainee:trainee:update',
      'POST /api/people/trainee/{id}/audit': 'trainee:trainee:audit',
      'POST /api/people/trainee/{id}/reveal-id': 'trainee:trainee:pii-view',
      'POST /api/people/trainee/assign-tutor': 'trainee:trainee:assign-tutor',
      ...resourceRoutes('people/staff', 'people:staff'),
      'POST /api/people/staff/{id}/transfer': 'people:staff:transfer',
      'POST /api/people/staff/{id}/status': 'people:staff:change-status',
      'POST /api/people/staff/{id}/account': 'people:staff:create-account',
      'POST /api/people/staff/{id}/link-account': 'people:staff:create-account',
      'POST /api/people/staff/{id}/reveal-id': 'people:staff:pii-view',
      'GET /api/people/staff/{id}/history': 'people:staff:list',
      ...resourceRoutes('people/doctor-type', 'people:doctor-type'),
      'POST /api/people/doctor-type/{id}/move-doctors': 'people:doctor-type:update',
      ...resourceRoutes('people/doctor', 'people:doctor'),
      'POST /api/people/doctor/{id}/reveal-id': 'people:doctor:pii-view',
      'POST /api/people/doctor/{id}/promote-expert': 'people:doctor:promote-expert',
      ...withoutImport(resourceRoutes('people/expert', 'expert:expert')),
      'POST /api/people/expert/{id}/status': 'expert:expert:change-status',
      'POST /api/people/expert/{id}/reveal-id': 'expert:expert:pii-view',
      ...withoutImport(resourceRoutes('people/qualification', 'expert:qualification')),
      'POST /api/people/qualification/approve': 'expert:qualification:review',
      'POST /api/people/qualification/{id}/submit': 'expert:qualification:update',
      'POST /api/people/qualification/{id}/review': 'expert:qualification:review',
      'POST /api/people/qualification/{id}/revoke': 'expert:qualification:revoke',
      'GET /api/people/qualification/{id}/reviews': 'expert:qualification:list',
      'GET /api/people/qualification/{id}/attachments': 'expert:qualification:list',
      'GET /api/file/storage': 'file:storage:list',
      'GET /api/file/storage-sharing': 'file:storage:list',
      'GET /api/file/storage/export': 'file:storage:export',
      'POST /api/file/storage/batch-delete': 'file:storage:delete',
      'POST /api/file/storage': 'file:storage:create',
      'GET /api/file/storage/{id}': 'file:storage:list',
      'PUT /api/file/storage/{id}': 'file:storage:update',
      'DELETE /api/file/storage/{id}': 'file:storage:delete',
      'POST /api/file/storage/{id}/test': 'file:storage:test',
      'POST /api/file/storage/{id}/set-master': 'file:storage:set-master',
      'GET /api/file/file': 'file:file:list',
      'GET /api/file/file/export': 'file:file:export',
      'POST /api/file/file/batch-delete': 'file:file:delete',
      'GET /api/file/file/{id}': 'file:file:list',
      'DELETE /api/file/file/{id}': 'file:file:delete',
      'GET /api/file/file/upload-policy': [
        'file:file:create',
        'expert:qualification:create',
        'expert:qualification:update',
      ],
      'POST /api/file/file/upload': ['file:file:create', 'expert:qualification:create', 'expert:qualification:update'],
      'POST /api/file/file/presign': ['file:file:create', 'expert:qualification:create', 'expert:qualification:update'],
      'POST /api/file/file/{id}/complete': [
        'file:file:create',
        'expert:qualification:create',
        'expert:qualification:update',
      ],
      'GET /api/file/file/{id}/link': 'file:file:list',
      'GET /api/file/file/content/{token}': 'public',
    });
    const list = res.body.paths['/api/system/admin'].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['current', 'pageSize', 'sort', 'keyword', 'status', 'roleId', 'createdAt']),
    );
    expect(Object.keys(res.body.paths['/api/system/admin/import'].post.requestBody.content)).toEqual([
      'multipart/form-data',
    ]);
    expect(res.body.components.schemas).toHaveProperty('AdminUserList');
    expect(res.body.paths['/api/system/admin/{id}'].get.security).toEqual([{ bearerAuth: [] }]);
    expect(res.body.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('declares the Idempotency-Key header and its answers on every signed-in POST that honours it', async () => {
    type Op = {
      'x-permission': string;
      parameters?: { name: string; in: string }[];
      requestBody?: { content: Record<string, unknown> };
      responses: Record<string, { description: string }>;
    };
    const paths = (await api.call('GET', '/api/openapi.json')).body.paths as Record<string, Record<string, Op>>;
    const keyed: string[] = [];
    const unkeyed: string[] = [];
    for (const [path, item] of Object.entries(paths))
      for (const [method, op] of Object.entries(item)) {
        const header = op.parameters?.find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
        const multipartOnly = Object.keys(op.requestBody?.content ?? { none: 1 }).every((t) =>
          t.startsWith('multipart/'),
        );
        const honours = method === 'post' && op['x-permission'] !== 'public' && !multipartOnly;
        (header ? keyed : unkeyed).push(`${method.toUpperCase()} ${path}`);
        expect(!!header, `${method} ${path}`).toBe(honours);
        if (!honours) continue;
        expect(op.responses['400']?.description, `${method} ${path}`).toContain('common.idempotencyKeyInvalid');
        expect(op.responses['409']?.description, `${method} ${path}`).toContain('common.idempotencyInProgress');
        expect(op.responses['422']?.description, `${method} ${path}`).toContain('common.idempotencyKeyReused');
      }
    expect(keyed).toEqual(expect.arrayContaining(['POST /api/system/role', 'POST /api/file/file/presign']));
    expect(keyed.length).toBeGreaterThan(100);
    expect(unkeyed).toEqual(
      expect.arrayContaining(['POST /api/auth/token', 'POST /api/system/admin/import', 'GET /api/system/role']),
    );
    // a status the operation answered already keeps its own meaning beside the key's
    expect(paths['/api/system/role']?.post?.responses['409']?.description).toMatch(
      /common\.duplicate.*idempotencyInProgress/s,
    );
  });

  it('answers the first page of every list the console asks for at start-up (routes.ts `firstPage`)', async () => {
    const paths = (await api.call('GET', '/api/openapi.json')).body.paths;
    const opened = (list: AppRoute[]): string[] =>
      list.flatMap((r) => [...(r.firstPage ? [r.path] : []), ...opened(r.routes ?? [])]);
    const lists = opened(routes);
    expect(lists.length).toBeGreaterThan(0);
    for (const path of lists) expect(paths[`/api${path}`]?.get, path).toBeDefined();
  });

  it('serves the reference page with local assets', async () => {
    const page = await api.call('GET', '/api/docs');
    expect(page.status).toBe(200);
    expect(page.body).toContain('/api/docs/swagger-ui-bundle.js');
    expect(page.body).not.toMatch(/https?:\/\/(?!localhost)/);
    const bundle = await api.server.app.fetch(new Request('http://test.local/api/docs/swagger-ui-bundle.js'));
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toContain('javascript');
    expect((await api.call('GET', '/api/docs/init.js')).body).toContain('/api/openapi.json');
    expect((await api.call('GET', '/api/docs/secret.txt')).status).toBe(404);
  });

  it('GET /api/health reports the engine', async () => {
    const res = await api.call('GET', '/api/health');
    expect(res).toMatchObject({ status: 200, body: { status: 'ok', engine: engine.name } });
  });

  it('seeds base data without demo data when not asked', async () => {
    const tenants = await api.db.selectFrom('tenant').select(['id', 'code']).execute();
    expect(tenants).toEqual([{ id: '1', code: 'platform' }]);
    expect(await api.db.selectFrom('admin_user').select('id').execute()).toEqual([]);
    const client = await api.db
      .selectFrom('oauth_client')
      .selectAll()
      .where('client_id', '=', 'console')
      .executeTakeFirstOrThrow();
    expect(client).toMatchObject({
      client_type: 'public',
      access_token_ttl_sec: 1800,
      refresh_token_ttl_sec: 2_592_000,
    });
    expect(client.grant_types.sort()).toEqual(['password', 'refresh_token']);
    const codes = await api.db.selectFrom('permission').select('code').where('code', 'is not', null).execute();
    expect(codes.map((c) => c.code)).toEqual(
      expect.arrayContaining(['dashboard:workspace:view', 'account:profile:view', 'system:admin:list']),
    );
    const menu = await api.db
      .selectFrom('permission as p')
      .innerJoin('permission as parent', 'parent.id', 'p.parent_id')
      .select(['p.type', 'parent.type as parentType'])
      .where('p.code', '=', 'system:admin:reset-password')
      .executeTakeFirstOrThrow();
    expect(menu).toEqual({ type: 'button', parentType: 'menu' });
    const sign = await api.signIn('demo', 'admin', 'admin123');
    expect(sign.status).toBe(400);
  });

  it('GET /api/dictionary/catalog/errcodes lists the declared codes with both messages', async () => {
    const res = await api.call('GET', '/api/dictionary/catalog/errcodes');
    expect(res.status).toBe(200);
    const keys = res.body.map((c: { code: string }) => c.code);
    for (const key of [
      'common.validation',
      'common.unauthorized',
      'common.forbidden',
      'common.notFound',
      'common.versionConflict',
      'common.internal',
      'auth.invalidGrant',
      'auth.badCredentials',
      'auth.accountLocked',
      'auth.userDisabled',
      'auth.tooManyRequests',
      'tenant.disabled',
      'tenant.expired',
      'common.importFailed',
      'tenant.accountQuotaExceeded',
      'admin.selfOperation',
    ]) {
      expect(keys).toContain(key);
    }
    expect(res.body.find((c: { code: string }) => c.code === 'auth.accountLocked').httpStatus).toBe(423);
  });
});

describe.each(engines())('migrations on $name', (engine) => {
  it('apply, revert down to nothing and apply again', async () => {
    const database = await engine.create({ empty: true });
    const { db, close } = await openDatabase(database.options);
    try {
      const names = migrationNames();
      expect(names.slice(0, 4)).toEqual([
        '0001_core_schema',
        '0002_tenancy_rls',
        '0003_audit_log',
        '0004_system_indexes',
      ]);
      expect(await migrateToLatest(db)).toEqual(names.map((n) => `applied ${n}`));
      expect(await migrateToLatest(db)).toEqual([]);
      for (const name of [...names].reverse()) expect(await migrateDown(db)).toEqual([`reverted ${name}`]);
      const tables = await db.introspection.getTables();
      expect(tables.map((t) => t.name).filter((n) => !n.startsWith('kysely_'))).toEqual([]);
      expect(await migrateToLatest(db)).toHaveLength(names.length);
    } finally {
      await close();
      await database.drop();
    }
  });
});
