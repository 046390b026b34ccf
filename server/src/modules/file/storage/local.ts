import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ObjectStore } from './object-store';

/** Objects as files under `root`/`basePath`, the key being the relative path. */
export function localStore(root: string, basePath = ''): Omit<ObjectStore, 'probe'> {
  const base = path.resolve(path.join(root, basePath));

  /** Keys come from the server, but a key that could leave `base` is refused rather than trusted. */
  function fileOf(key: string): string {
    if (!key || key.includes('..') || key.includes('\\') || key.includes('\0') || path.isAbsolute(key)) {
      throw new Error(`invalid object key: ${JSON.stringify(key)}`);
    }
    return path.join(base, key);
  }

  return {
    async put(key, body) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Written beside the target and renamed, so a reader never sees half an object and a failed stream leaves none.
      const temp = `${file}.${randomUUID()}.part`;
      const out = createWriteStream(temp, { flags: 'wx' });
      try {
        await pipeline(body, out);
        await rename(temp, file);
      } catch (err) {
        await rm(temp, { force: true });
        throw err;
      }
      return { size: out.bytesWritten };
    },

    async get(key, range) {
      const file = fileOf(key);
      try {
        const handle = await open(file, 'r');
        return handle.createReadStream(range && { start: range.start, end: range.end });
      } catch (err) {
        if (isMissing(err)) return undefined;
        throw err;
      }
    },

    async head(key) {
      try {
        const stats = await stat(fileOf(key));
        return stats.isFile() ? { size: stats.size } : undefined;
      } catch (err) {
        if (isMissing(err)) return undefined;
        throw err;
      }
    },

    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
  };
}

const isMissing = (err: unknown) => {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};
