import { z } from '@hono/zod-openapi';
import type { Instances } from '../../core/instances';
import type { Stores } from './stores';

/**
 * Whether the server instances on the database keep local files in one place (issue 31). A file stored on the local
 * disk lies in one instance's DATA_DIR: behind a load balancer, instances that do not share that directory (one volume
 * mounted by all) answer it only some of the time, and a deletion through another leaves its bytes behind. The health
 * answer and the storage screen say so, so that the operator moves the files to S3 or to one shared volume.
 */
export const StorageSharing = z
  .object({
    instances: z.number().int().openapi({ description: 'Server instances live now' }),
    localDiskShared: z
      .boolean()
      .openapi({ description: 'Every live instance keeps local files in the same directory (one volume)' }),
    usesLocalDisk: z.boolean().openapi({ description: "The tenant's new files go to the local disk" }),
  })
  .openapi('StorageSharing');
export type StorageSharing = z.infer<typeof StorageSharing>;

/** The storage screen's answer, for the tenant. */
export async function storageSharing(
  deps: { instances: Instances; stores: Stores },
  tenantId: string,
): Promise<StorageSharing> {
  const [sharing, master] = await Promise.all([deps.instances.sharing(), deps.stores.master(tenantId)]);
  return { instances: sharing.live, localDiskShared: sharing.shared, usesLocalDisk: master.provider === 'local' };
}
