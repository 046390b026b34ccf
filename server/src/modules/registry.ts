import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Config } from '../config';
import type { AppEnv } from '../core/context';
import type { ErrorCatalog } from '../core/error-catalog';
import type { IdNumberCipher } from '../core/id-number';
import type { Jobs } from '../core/jobs';
import type { Metrics } from '../core/metrics';
import type { ResourceModule } from '../core/module';
import type { Outbound } from '../core/outbound';
import type { PasswordHasher } from '../core/password';
import type { PlatformScope } from '../core/platform-scope';
import type { Tenancy } from '../core/tenancy';
import type { MenuDeclaration, ResourceMenus } from '../db/seed/permissions';
import { papers } from './assess/paper/paper.routes';
import { questions } from './assess/question/question.routes';
import { knowledgePoints, questionCategories } from './assess/taxonomy/taxonomy';
import { authRoutes } from './auth/auth.routes';
import { boards } from './community/board/board.routes';
import { posts } from './community/post/post.routes';
import { reportCases } from './community/report/report.routes';
import { documentBases } from './content/base/document-base.routes';
import { documents } from './content/document/document.routes';
import { tags } from './content/tag/tag.routes';
import { workspaceRoutes } from './dashboard/workspace/workspace.routes';
import { businessItems } from './dictionary/busiitem/busiitem.resource';
import { dictRoutes } from './dictionary/catalog/catalog.routes';
import type { DictService } from './dictionary/catalog/catalog.service';
import { errorCodes } from './dictionary/errcode/errcode.service';
import { industries } from './dictionary/industry/industry.routes';
import { dictItems } from './dictionary/syscode/syscode-item.service';
import { dictTypes } from './dictionary/syscode/syscode-type.resource';
import { files } from './file/file/file.routes';
import { storageConfigs } from './file/storage-config/storage-config.routes';
import { healthRoutes } from './health/health.routes';
import { followers } from './message/follower/follower.routes';
import { messages } from './message/message/message.routes';
import { messageTemplates } from './message/template/template.routes';
import { wechatAccounts } from './message/wechat/wechat-account.routes';
import { doctors } from './people/doctor/doctor.routes';
import { doctorTypes } from './people/doctor-type/doctor-type.routes';
import { experts } from './people/expert/expert.routes';
import { organizations } from './people/organization/organization.routes';
import { qualifications } from './people/qualification/qualification.routes';
import { staff } from './people/staff/staff.routes';
import { trainees } from './people/trainee/trainee.routes';
import { traineeFields } from './people/trainee-field/trainee-field.routes';
import { traineeTypes } from './people/trainee-type/trainee-type.routes';
import { units } from './people/unit/unit.routes';
import { adminUsers } from './system/admin/admin.routes';
import { auditRoutes } from './system/audit/audit.routes';
import type { AuditService } from './system/audit/audit.service';
import { clients } from './system/client/client.routes';
import { districts } from './system/district/district.routes';
import { permissions } from './system/permission/permission.routes';
import { roles } from './system/role/role.routes';
import { settingsRoutes } from './system/settings/settings.routes';
import type { SettingsService } from './system/settings/settings.service';
import { tenants } from './system/tenant/tenant.routes';
import { tenantPackages } from './system/tenant-package/tenant-package.service';
import { activities } from './teaching/activity/activity.routes';
import { courses } from './teaching/course/course.routes';
import { courseCategories } from './teaching/course/course-category';
import { courseItems } from './teaching/course-item/course-item.routes';

/** What every module's service may be built from (app.ts makes them once). */
export interface ModuleDeps {
  tenancy: Tenancy;
  audit: AuditService;
  catalog: ErrorCatalog;
  platform: PlatformScope;
  hasher: PasswordHasher;
  settings: SettingsService;
  dict: DictService;
  config: Config;
  /** ID numbers at rest (people). */
  idNumbers: IdNumberCipher;
  /** Background queues: a module declares its own (core/jobs.ts). */
  jobs: Jobs;
  /** The guards of connections to addresses tenants set (storage, SMTP, SMS). */
  outbound: Outbound;
  /** The counters of `/metrics` a module adds to (delivered messages). */
  metrics: Metrics;
}

/**
 * Every resource of the API, by the name its service has in `c.var.services`; app.ts builds and mounts each. A resource
 * whose definition declares its menu is named in `ResourceMenus` under the same name (checked here).
 */
export const resources = {
  dictTypes,
  dictItems,
  errorCodes,
  districts,
  industries,
  businessItems,
  adminUsers,
  tenants,
  tenantPackages,
  permissions,
  roles,
  clients,
  organizations,
  staff,
  units,
  traineeTypes,
  traineeFields,
  trainees,
  doctorTypes,
  doctors,
  experts,
  qualifications,
  storageConfigs,
  files,
  questionCategories,
  knowledgePoints,
  questions,
  papers,
  activities,
  courseCategories,
  courses,
  courseItems,
  documentBases,
  tags,
  documents,
  boards,
  posts,
  reportCases,
  messageTemplates,
  messages,
  wechatAccounts,
  followers,
} satisfies Record<string, ResourceModule<ModuleDeps, unknown>> & Record<keyof ResourceMenus, unknown>;

/** The definitions that say where their menu sits: the permission seed adds their menus to the manifest's. */
export const resourceMenus: MenuDeclaration[] = Object.values(resources).flatMap(({ definition }) =>
  definition.menu ? [definition] : [],
);

/** Routes over the platform's own services (sign-in, settings, the audit trail, ...), mounted before the resources. */
export const routeModules: (() => OpenAPIHono<AppEnv>)[] = [
  healthRoutes,
  authRoutes,
  settingsRoutes,
  dictRoutes,
  auditRoutes,
  workspaceRoutes,
];

export type ResourceServices = { [K in keyof typeof resources]: ReturnType<(typeof resources)[K]>['service'] };
