import { type PlatformScope, platformWrites } from '../../../core/platform-scope';
import { type ResourceStore, tableStore } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import { businessItems } from './busiitem.repository';
import { businessItemResource } from './busiitem.resource';
import type { BusinessItem, CreateBusinessItem, UpdateBusinessItem } from './busiitem.schema';

const asJson = <T extends { variables?: unknown }>(input: T) =>
  (input.variables === undefined ? input : { ...input, variables: JSON.stringify(input.variables) }) as T;

/** The catalogue is global: every tenant reads it; only the platform writes it (tenant bindings come with messaging). */
export function createBusinessItemService(deps: ResourceDeps & { platform: PlatformScope }) {
  const plain = tableStore<BusinessItem, CreateBusinessItem, UpdateBusinessItem>(businessItems, 'code');
  const store: ResourceStore<BusinessItem, CreateBusinessItem, UpdateBusinessItem> = {
    ...plain,
    create: (tx, input, ctx) => plain.create(tx, asJson(input), ctx),
    update: (tx, current, input, ctx) => plain.update(tx, current, asJson(input), ctx),
  };
  return createResourceService(businessItemResource, platformWrites(store, deps.platform), deps);
}
