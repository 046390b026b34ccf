import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { resourceRoutes } from '../../../core/resource/resource.routes';
import { tenantPackageResource } from './tenant-package.resource';

export const tenantPackageRoutes = (): OpenAPIHono<AppEnv> =>
  resourceRoutes(tenantPackageResource, (s) => s.tenantPackages.resource);
