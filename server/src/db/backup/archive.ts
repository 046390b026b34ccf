import { createHmac } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as tar from 'tar';

/**
 * A backup is one gzipped tar: `manifest.json` first, then the database (`database/postgres.dump`, pg_dump's custom
 * format, or `database/pgdata.tar.gz`, PGlite's own dump of its data folder), then the local file store under `files/`
 * as it lies in `DATA_DIR/files`. No key and no configuration goes in: see `EXCLUDED`.
 */

export const FORMAT = 1;
export type BackupEngine = 'pglite' | 'postgres';

export interface Manifest {
  format: typeof FORMAT;
  product: string;
  version: string;
  createdAt: string;
  engine: BackupEngine;
  /** The last migration applied (kysely_migration): a restore by code that lacks it is refused. */
  migration: string;
  /** The PostgreSQL the dump came from, and on PostgreSQL the pg_dump that made it. */
  server: string;
  pgDump?: string;
  /** `schema.table` → rows, exactly, as of the dump. */
  tables: Record<string, number>;
  files: { count: number; bytes: number };
  /**
   * Which ID_NUMBER_KEY seals the ID numbers and stored secrets of this database: a fingerprint of it (an HMAC under
   * the key of a fixed text, from which the key cannot be found), never the key.
   */
  key: { variable: 'ID_NUMBER_KEY'; fingerprint: string };
}

export const DATABASE_ENTRY: Record<BackupEngine, string> = {
  postgres: 'database/postgres.dump',
  pglite: 'database/pgdata.tar.gz',
};

export const keyFingerprint = (key: Buffer): string =>
  createHmac('sha256', key).update('medu backup: which key').digest('hex').slice(0, 16);

/**
 * What never goes into an archive from the file store, and is never restored from one, whatever an archive holds:
 * keys and certificates, environment files, the instances' markers (`.instances/`, this machine's own) and objects still
 * being written (`*.part`). Object keys are `t<tenant>/<month>/<uuid>`, so no stored file is named like these.
 */
export const EXCLUDED: RegExp[] = [/\.key$/i, /\.pem$/i, /^\.env(\..*)?$/i, /^\.instances$/, /\.part$/];

export const isExcluded = (relative: string): boolean =>
  relative
    .split(/[\\/]/)
    .filter(Boolean)
    .some((part) => EXCLUDED.some((pattern) => pattern.test(part)));

export interface StoredFile {
  /** Relative to the file store's root, with `/`. */
  path: string;
  size: number;
}

/** The files of the local store worth keeping: regular files only (a symbolic link could lead anywhere), none excluded. */
export async function listStoredFiles(root: string): Promise<StoredFile[]> {
  const found: StoredFile[] = [];
  async function walk(dir: string, prefix: string): Promise<void> {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const name of names.sort()) {
      const relative = prefix ? `${prefix}/${name}` : name;
      if (isExcluded(relative)) continue;
      const stats = await lstat(path.join(dir, name));
      if (stats.isDirectory()) await walk(path.join(dir, name), relative);
      else if (stats.isFile()) found.push({ path: relative, size: stats.size });
    }
  }
  await walk(root, '');
  return found;
}

/**
 * Writes the archive from a staging folder holding `database/…`: the manifest is written beside it, and the store's
 * files are reached through a link `files` to the store (the listed paths only: tar adds no file the listing left out).
 */
export async function writeArchive(
  file: string,
  staging: string,
  manifest: Manifest,
  storeRoot: string,
  files: StoredFile[],
): Promise<void> {
  await writeFile(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const entries = ['manifest.json', DATABASE_ENTRY[manifest.engine]];
  if (files.length) {
    await symlink(path.resolve(storeRoot), path.join(staging, 'files'), 'dir');
    entries.push(...files.map((f) => `files/${f.path}`));
  }
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  await tar.create({ gzip: true, file, cwd: staging, portable: true, strict: true }, entries);
}

/** Extracts the manifest and the database into `staging`, and reads the manifest. */
export async function readArchive(file: string, staging: string): Promise<Manifest> {
  await tar.extract({ file, cwd: staging, strict: true, filter: (p) => !p.startsWith('files/') });
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(path.join(staging, 'manifest.json'), 'utf8'));
  } catch {
    throw new Error(`${file} is not a backup of this product: it has no readable manifest.json`);
  }
  if (manifest.format !== FORMAT) throw new Error(`${file} is a backup of format ${manifest.format}, not ${FORMAT}`);
  return manifest;
}

/** Extracts the store's files into `storeRoot`, leaving out what is never restored. */
export async function extractFiles(file: string, storeRoot: string): Promise<void> {
  await mkdir(storeRoot, { recursive: true });
  await tar.extract({
    file,
    cwd: storeRoot,
    strip: 1,
    strict: true,
    filter: (p) => p.startsWith('files/') && !isExcluded(p.slice('files/'.length)),
  });
}
