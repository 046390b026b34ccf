import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { roleSheet } from '../support/role-sheet';
import { type Answer, type Cluster, call, type Instance, signIn } from './cluster';

export const ADMIN_PASSWORD = 'Harbor-Lamp-2026';
const TENANT_PASSWORD = 'Quiet-Otter-42';
export const TENANT_ADMIN_PASSWORD = 'Brisk-Heron-Lantern-77';
export const TENANT = 'north';

/** Fails with the answer when its status is not `status`. */
export function expectStatus(res: Answer, status: number, what: string): Answer {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

export interface Tenant {
  platform: string;
  admin: string;
  /** The platform's S3 store, where the tenant's files go. */
  storeId: string;
}

/**
 * The operator's first steps on the new deployment: the first platform administrator (`npm run create-admin`), S3 as
 * the platform's master store (which a tenant without a store of its own uses), a tenant and its administrator (who
 * sets the own password the first sign-in asks for), and the platform's SMTP server, which the tenant keeps: the sink.
 */
export async function provision(cluster: Cluster): Promise<Tenant> {
  const a = cluster.a;
  await cluster.createAdmin('root', ADMIN_PASSWORD);
  const platform = await signIn(a, 'platform', 'root', ADMIN_PASSWORD);
  const as = (token: string) => (method: string, url: string, body?: unknown) =>
    call(a.url, method, url, { token, body });

  // S3 at 127.0.0.1 is the platform's own setting (an operator's), not a tenant's: see docs/operating.md
  const { s3 } = cluster;
  const store = expectStatus(
    await as(platform)('POST', '/api/file/storage', {
      name: 's3rver',
      provider: 's3',
      endpoint: s3.endpoint,
      region: s3.region,
      bucket: s3.bucket,
      pathStyle: true,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
    }),
    201,
    'platform S3 store',
  ).body;
  expectStatus(
    await as(platform)('POST', `/api/file/storage/${store.id}/set-master`, { version: store.version }),
    200,
    'S3 store as master',
  );

  const packages = expectStatus(await as(platform)('GET', '/api/system/tenant-package?pageSize=100'), 200, 'packages');
  const standard = packages.body.data.find((p: { name: string }) => p.name === '标准套餐');
  expectStatus(
    await as(platform)('POST', '/api/system/tenant', {
      code: TENANT,
      name: 'North hospital',
      packageId: standard.id,
      maxAccounts: 20,
      adminUserName: 'boss',
      adminPassword: TENANT_PASSWORD,
      adminDisplayName: 'Boss',
    }),
    201,
    'tenant',
  );
  const first = await signIn(a, TENANT, 'boss', TENANT_PASSWORD);
  expectStatus(
    await as(first)('POST', '/api/auth/password', {
      currentPassword: TENANT_PASSWORD,
      newPassword: TENANT_ADMIN_PASSWORD,
    }),
    204,
    'own password',
  );
  const admin = await signIn(a, TENANT, 'boss', TENANT_ADMIN_PASSWORD);
  const settings: [string, unknown][] = [
    ['message.email.smtpHost', '127.0.0.1'],
    ['message.email.smtpPort', cluster.smtp.port],
    ['message.email.from', 'noreply@north.example'],
  ];
  // the sink is the platform's relay, which the tenant keeps (a tenant's own SMTP host may not be on loopback)
  for (const [key, value] of settings)
    expectStatus(await as(platform)('PUT', `/api/system/settings/${key}`, { value }), 200, key);
  return { platform, admin, storeId: store.id };
}

/** A trainee import file: `count` people `<prefix><n>` with the e-mail `<prefix><n>@north.example`, at base B1. */
async function traineeSheet(count: number, prefix: string): Promise<Uint8Array> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: false });
  const sheet = workbook.addWorksheet('trainees');
  sheet.addRow(['name', 'email', 'trainingBase', 'cohortYear']).commit();
  for (let n = 1; n <= count; n++) sheet.addRow([`${prefix}${n}`, `${prefix}${n}@north.example`, 'B1', 2026]).commit();
  sheet.commit();
  await workbook.commit();
  return new Uint8Array(Buffer.concat(chunks));
}

/** `count` trainees with e-mail addresses (a base, a type, an import), answered as their ids. */
export async function traineesWithEmail(on: Instance, token: string, count: number): Promise<string[]> {
  const post = async (url: string, body: unknown) =>
    expectStatus(await call(on.url, 'POST', url, { token, body }), 201, url).body;
  const hospital = await post('/api/people/organization', { code: 'H1', name: '第一医院', orgType: 'hospital' });
  await post('/api/people/organization', {
    code: 'B1',
    name: '住培基地',
    orgType: 'training_base',
    parentId: hospital.id,
  });
  const type = await post('/api/people/trainee-type', {
    code: 'residency',
    name: '住院医师',
    category: 'residency',
    traineeNoPattern: 'R{yyyy}{seq:4}',
  });
  const form = new FormData();
  form.set('file', new File([new Uint8Array(await traineeSheet(count, 'mail'))], 'trainees.xlsx'));
  form.set('mode', 'insert');
  form.set('traineeTypeId', type.id);
  const imported = expectStatus(
    await call(on.url, 'POST', '/api/people/trainee/import', { token, form }),
    200,
    'trainee import',
  );
  if (imported.body.created !== count) throw new Error(`trainee import: ${JSON.stringify(imported.body)}`);
  const ids: string[] = [];
  for (let page = 1; ids.length < count; page++) {
    const res = expectStatus(
      await call(on.url, 'GET', `/api/people/trainee?traineeTypeId=${type.id}&pageSize=200&current=${page}`, { token }),
      200,
      'trainees',
    );
    if (res.body.data.length === 0) break;
    ids.push(...res.body.data.map((t: { id: string }) => t.id));
  }
  return ids;
}

/** Starts a role import job of `rows` rows (codes `<prefix>_<n>`) on `on`; answers the job's id. */
export async function startRoleImport(on: Instance, token: string, rows: number, prefix: string): Promise<string> {
  const form = new FormData();
  form.set('file', new File([new Uint8Array(await roleSheet(rows, prefix))], `${prefix}.xlsx`));
  form.set('mode', 'insert');
  const res = expectStatus(
    await call(on.url, 'POST', '/api/system/role/import-jobs', { token, form }),
    202,
    'import job',
  );
  return res.body.id as string;
}

/**
 * Holds the role code `code` of tenant `tenantCode` with an uncommitted insert of its own, so that an import writing
 * that code waits (on the unique index) until `release`: the import is then surely unfinished, its earlier batches
 * written, for as long as a scenario needs. Nothing else waits on it.
 */
export async function holdRoleCode(cluster: Cluster, tenantCode: string, code: string) {
  const client = new pg.Client({ connectionString: cluster.db.url });
  await client.connect();
  await client.query('BEGIN');
  await client.query(
    `INSERT INTO role (tenant_id, code, name, type)
      SELECT id, $2, 'held by the cluster test', 'custom' FROM tenant WHERE code = $1`,
    [tenantCode, code],
  );
  return {
    async release() {
      await client.query('ROLLBACK').catch(() => undefined);
      await client.end();
    },
  };
}

/** The roles of the import `prefix` visible (not deleted), counted in the database itself. */
export async function visibleRoles(cluster: Cluster, prefix: string): Promise<number> {
  const { rows } = await cluster.sql.query(
    `SELECT count(*)::int AS n FROM role WHERE code LIKE $1 AND deleted_at IS NULL`,
    [`${prefix}\\_%`],
  );
  return rows[0].n as number;
}

/** A 1×1 PNG: its bytes say PNG whatever its name says. */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
