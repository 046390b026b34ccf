import type { Kysely } from 'kysely';
import { tenantTable } from './0002_tenancy_rls';
import { runStatements } from './statements';

/**
 * Messages (docs/domain.md §6.2). `message_batch`: a template sent to an audience, now or at a time, with its counts;
 * `message`: one rendered message for one recipient on one channel, with its delivery state (`queued` → `sending` →
 * `sent`, or `failed` after its retries; in-app ones are `delivered` at once and then `read`). `next_attempt_at` is
 * when a queued message is due (its first try, or a retry after back-off).
 *
 * The inbox of a console user (the header's bell) counts its unread in-app messages through a partial index that holds
 * only those, so the count stays a few index entries however many messages the tenant keeps.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    ...tenantTable(
      'message_batch',
      `name varchar(100) NOT NULL,
      template_id bigint NOT NULL,
      template_code varchar(100) NOT NULL,
      channel text NOT NULL CHECK (channel IN ('in_app', 'wechat_mp', 'sms', 'email')),
      audience jsonb NOT NULL,
      common_params jsonb NOT NULL DEFAULT '{}',
      total int NOT NULL DEFAULT 0,
      sent_count int NOT NULL DEFAULT 0,
      failed_count int NOT NULL DEFAULT 0,
      read_count int NOT NULL DEFAULT 0,
      status text NOT NULL DEFAULT 'scheduled'
        CHECK (status IN ('scheduled', 'sending', 'completed', 'cancelled')),
      scheduled_at timestamptz,
      started_at timestamptz,
      finished_at timestamptz,
      FOREIGN KEY (template_id) REFERENCES message_template (id)`,
    ),
    'CREATE INDEX message_batch_created_idx ON message_batch (tenant_id, created_at DESC NULLS LAST, id DESC)',
    "CREATE INDEX message_batch_due_idx ON message_batch (scheduled_at) WHERE status = 'scheduled'",
    ...tenantTable(
      'message',
      `batch_id bigint,
      template_id bigint,
      template_code varchar(100),
      business_item_code varchar(100),
      channel text NOT NULL CHECK (channel IN ('in_app', 'wechat_mp', 'sms', 'email')),
      recipient_type text NOT NULL CHECK (recipient_type IN ('admin_user', 'trainee', 'person')),
      recipient_id bigint NOT NULL,
      recipient_name varchar(100),
      address varchar(200),
      title varchar(200),
      content text NOT NULL,
      params jsonb NOT NULL DEFAULT '{}',
      status text NOT NULL CHECK (status IN ('queued', 'sending', 'sent', 'delivered', 'read', 'failed', 'cancelled')),
      error_code varchar(50),
      error_message varchar(500),
      retry_count smallint NOT NULL DEFAULT 0,
      next_attempt_at timestamptz,
      sent_at timestamptz,
      read_at timestamptz,
      biz_ref_type varchar(50),
      biz_ref_id bigint,
      FOREIGN KEY (tenant_id, batch_id) REFERENCES message_batch (tenant_id, id) ON DELETE CASCADE`,
    ),
    'CREATE INDEX message_created_idx ON message (tenant_id, created_at DESC NULLS LAST, id DESC)',
    'CREATE INDEX message_batch_idx ON message (tenant_id, batch_id, status)',
    "CREATE INDEX message_due_idx ON message (tenant_id, next_attempt_at) WHERE status = 'queued'",
    `CREATE INDEX message_inbox_idx ON message (tenant_id, recipient_id, created_at DESC, id DESC)
      WHERE recipient_type = 'admin_user' AND channel = 'in_app'`,
    `CREATE INDEX message_unread_idx ON message (tenant_id, recipient_id)
      WHERE recipient_type = 'admin_user' AND channel = 'in_app' AND status = 'delivered'`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, ['DROP TABLE message', 'DROP TABLE message_batch']);
}
