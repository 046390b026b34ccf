import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { engines, startApi, type TestApi } from './helpers';

/**
 * Files across instances (issue 31): a file on the local disk lies in one instance's DATA_DIR. When the live instances
 * keep local files in different directories, the health answer warns the operator and the storage screen's answer
 * says so; one instance, or instances on one shared volume (each one's marker found in the others' directory), do not.
 * The health answer is what a balancer probes every few seconds: it reads the warning worked out at the last heartbeat
 * (shortened here) and queries no instance itself.
 */
describe.each(engines())('instances sharing the local disk, on $name', (engine) => {
  let api: TestApi;
  let token: string;

  beforeAll(async () => {
    api = await startApi(engine, { instance: { heartbeatMs: 100 } });
    token = (await api.tokens('demo', 'admin', 'admin123')).access;
  });
  afterAll(async () => {
    await api?.close();
  });

  /** Another live instance, with its local files elsewhere or (`sharing`) in this server's directory. */
  const otherInstance = async (dataDir: string, sharing = false) => {
    const id = randomUUID();
    await api.db
      .insertInto('server_instance')
      .values({ id, host: 'node-b', pid: 42, data_dir: dataDir, heartbeat_at: new Date(Date.now() + 3_600_000) })
      .execute();
    if (sharing) {
      const markers = path.join(path.resolve(api.server.services.config.dataDir), 'files', '.instances');
      mkdirSync(markers, { recursive: true });
      writeFileSync(path.join(markers, id), 'node-b 42\n');
    }
    return id;
  };
  const stops = (id: string) =>
    api.db.updateTable('server_instance').set({ stopped_at: new Date() }).where('id', '=', id).execute();
  const health = async () => (await api.call('GET', '/api/health')).body;
  /** The health answer once a heartbeat has seen the change. */
  const healthSoon = () => expect.poll(health, { timeout: 15_000, interval: 50 });
  const sharing = async () => {
    const res = await api.call('GET', '/api/file/storage-sharing', { token });
    expect(res.status).toBe(200);
    return res.body;
  };

  it('one instance: no warning', async () => {
    expect(await health()).toMatchObject({ status: 'ok', warnings: [] });
    expect(await sharing()).toEqual({ instances: 1, localDiskShared: true, usesLocalDisk: true });
  });

  it('two live instances with different DATA_DIRs and files on the local disk: warned', async () => {
    const other = await otherInstance('/srv/node-b/data');
    await healthSoon().toMatchObject({ status: 'ok', warnings: ['storage.localDiskNotShared'] });
    expect(await sharing()).toEqual({ instances: 2, localDiskShared: false, usesLocalDisk: true });
    // once the other instance has stopped, nothing is said any more
    await stops(other);
    await healthSoon().toMatchObject({ warnings: [] });
    expect(await sharing()).toMatchObject({ instances: 1, localDiskShared: true });
  });

  it('two live instances on one shared volume: no warning', async () => {
    const other = await otherInstance('/mnt/shared/data', true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await health()).toMatchObject({ warnings: [] });
    expect(await sharing()).toEqual({ instances: 2, localDiskShared: true, usesLocalDisk: true });
    await stops(other);
  });

  it('a health call queries no instance and no storage configuration', async () => {
    const { instances, files } = api.server.services;
    const live = vi.spyOn(instances, 'sharing');
    const local = vi.spyOn(files.stores, 'localInUse');
    try {
      for (let i = 0; i < 3; i++) expect((await api.call('GET', '/api/health')).status).toBe(200);
      expect(live).not.toHaveBeenCalled();
      expect(local).not.toHaveBeenCalled();
    } finally {
      live.mockRestore();
      local.mockRestore();
    }
  });
});
