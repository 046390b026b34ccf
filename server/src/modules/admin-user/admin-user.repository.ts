import type { Tx } from '../../core/tenancy';

export interface AdminUserRow {
  id: string;
  tenantId: string;
  username: string;
  displayName: string;
  email: string | null;
  mobile: string | null;
  orgId: string | null;
  status: 'enabled' | 'disabled' | 'locked';
  lastLoginAt: Date | null;
  createdAt: Date;
  updatedAt: Date | null;
  version: number;
}

/** RLS limits the lookup to the transaction's tenant: another tenant's id finds nothing. */
export async function findAdminUserById(tx: Tx, id: string): Promise<AdminUserRow | undefined> {
  const row = await tx
    .selectFrom('admin_user')
    .select([
      'id',
      'tenant_id',
      'username',
      'display_name',
      'email',
      'mobile',
      'org_id',
      'status',
      'last_login_at',
      'created_at',
      'updated_at',
      'version',
    ])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      tenantId: row.tenant_id,
      username: row.username,
      displayName: row.display_name,
      email: row.email,
      mobile: row.mobile,
      orgId: row.org_id,
      status: row.status,
      lastLoginAt: row.last_login_at,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      version: row.version,
    }
  );
}
