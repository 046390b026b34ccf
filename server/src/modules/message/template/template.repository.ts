import { sql } from 'kysely';
import { platformTenant } from '../../../core/platform-tenant.repository';
import { readIndexed, type Tx } from '../../../core/tenancy';

/** A variable a business item declares (business_item.variables). */
export interface DeclaredVariable {
  name: string;
  example?: string;
}

/** The variables of the business item `code`; undefined when there is no such item. */
export async function businessItemVariables(tx: Tx, code: string): Promise<DeclaredVariable[] | undefined> {
  const item = await tx.selectFrom('business_item').select('variables').where('code', '=', code).executeTakeFirst();
  return item ? ((item.variables as DeclaredVariable[] | null) ?? []) : undefined;
}

/** Whether the platform has a template of this code (a tenant's own of the same code overrides it). */
export async function platformTemplateExists(tx: Tx, code: string): Promise<boolean> {
  const row = await tx
    .selectFrom('message_template')
    .select('id')
    .where('code', '=', code)
    .where('tenant_id', '=', platformTenant)
    .executeTakeFirst();
  return row !== undefined;
}

/** The business item whose default template is `code`, if any. */
export async function businessItemDefaulting(tx: Tx, code: string): Promise<{ name: string } | undefined> {
  return tx.selectFrom('business_item').select('name').where('default_template_code', '=', code).executeTakeFirst();
}

/**
 * How many message batches were sent with the template, in every tenant (a platform template is any tenant's to send):
 * counted as the system, which answers a number and shows no row.
 */
export function batchesSentWith(tx: Tx, templateId: string): Promise<number> {
  return readIndexed(tx, async () => {
    const row = await tx
      .selectFrom('message_batch')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('template_id', '=', templateId)
      .executeTakeFirstOrThrow();
    return row.n;
  });
}
