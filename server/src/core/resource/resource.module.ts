import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../context';
import type { ResourceModule } from '../module';
import type { DefinedResource } from './define-resource';
import type { ResourceDefinition, ResourceRow, ResourceStore } from './resource';
import { type OmittedRoute, resourceRoutes } from './resource.routes';
import { createResourceService, type ResourceDeps, type ResourceService } from './resource.service';

export interface WithResource<Row extends ResourceRow, Create, Update extends { version: number }> {
  resource: ResourceService<Row, Create, Update>;
}

/**
 * An entity with rules of its own: its service (the generic resource service plus its actions) and the routes of
 * those actions, mounted before the generic ones so that a fixed path (`/tree`) is never read as an id.
 */
export function resourceModule<
  Deps extends ResourceDeps,
  Row extends ResourceRow,
  Create,
  Update extends { version: number },
  S extends WithResource<Row, Create, Update>,
>(
  def: ResourceDefinition<Row, Create, Update>,
  options: {
    service: (deps: Deps) => S;
    routes?: (service: S) => OpenAPIHono<AppEnv>;
    /**
     * Generic routes the entity answers itself (the district import answers with a diff preview), or does not have (a
     * record whose lists of values no sheet cell holds is not imported: no import, no template).
     */
    omit?: OmittedRoute[];
  },
): ResourceModule<Deps, S> {
  const build = (deps: Deps) => {
    const service = options.service(deps);
    return {
      service,
      routes: () =>
        (options.routes?.(service) ?? new OpenAPIHono<AppEnv>()).route(
          '/',
          resourceRoutes(def, () => service.resource, { omit: options.omit }),
        ),
    };
  };
  return Object.assign(build, { definition: def });
}

/**
 * A plain entity: its definition is all it needs. `rules` wraps the table's store where writes need more than the
 * table (a platform-only entity, a JSON column).
 */
export function plainResource<
  Deps extends ResourceDeps,
  Row extends ResourceRow,
  Create,
  Update extends { version: number },
>(
  def: DefinedResource<Row, Create, Update> & { store: ResourceStore<Row, Create, Update> },
  rules?: (store: ResourceStore<Row, Create, Update>, deps: Deps) => ResourceStore<Row, Create, Update>,
): ResourceModule<Deps, WithResource<Row, Create, Update>> {
  return resourceModule(def, {
    service: (deps: Deps) => ({
      resource: createResourceService(def, rules ? rules(def.store, deps) : def.store, deps),
    }),
  });
}
