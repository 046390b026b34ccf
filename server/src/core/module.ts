import type { OpenAPIHono, z } from '@hono/zod-openapi';
import type { MenuDeclaration } from '../db/seed/permissions';
import type { AppEnv } from './context';

/** A module as the app takes it: its service, and its routes bound to that service. */
export interface BuiltModule<S> {
  service: S;
  routes: () => OpenAPIHono<AppEnv>;
}

/** One entry of modules/registry.ts: builds its service from the shared dependencies. */
export type ApiModule<Deps, S> = (deps: Deps) => BuiltModule<S>;

/**
 * A resource's entry: its definition says where its menu sits (the permission seed reads it) and what its bodies take
 * (the fields' limits forms are given, modules/meta).
 */
export type ResourceModule<Deps, S> = ApiModule<Deps, S> & {
  definition: MenuDeclaration & { schemas: { create: z.ZodType; update: z.ZodType } };
};
