import type { Kysely } from 'kysely';
import { tenantTable } from './0002_tenancy_rls';
import { runStatements } from './statements';

/**
 * WeChat official accounts and their followers (docs/domain.md §6.3). `wechat_account`: a tenant's official account,
 * its app secret and message AES key sealed at rest, the tags WeChat last answered; `follower`: a user who follows one
 * of them (by openid, unique per account), with the profile WeChat gives, its tags and remark, and the trainee, staff
 * member or doctor it is bound to. A follower goes with its account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    ...tenantTable(
      'wechat_account',
      `name varchar(64) NOT NULL,
      app_id varchar(32) NOT NULL,
      app_secret_enc bytea,
      token varchar(32),
      aes_key_enc bytea,
      account_type text NOT NULL DEFAULT 'service' CHECK (account_type IN ('service', 'subscription')),
      primary_industry varchar(64),
      deputy_industry varchar(64),
      tags jsonb NOT NULL DEFAULT '[]',
      last_synced_at timestamptz,
      status text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
      remark varchar(500)`,
    ),
    'CREATE UNIQUE INDEX wechat_account_app_id_uq ON wechat_account (tenant_id, app_id)',
    'CREATE INDEX wechat_account_name_idx ON wechat_account (tenant_id, name, id)',
    ...tenantTable(
      'follower',
      `wechat_account_id bigint NOT NULL,
      openid varchar(64) NOT NULL,
      unionid varchar(64),
      nickname varchar(100),
      avatar_url varchar(500),
      subscribe_status text NOT NULL DEFAULT 'subscribed' CHECK (subscribe_status IN ('subscribed', 'unsubscribed')),
      subscribe_time timestamptz,
      unsubscribe_time timestamptz,
      language varchar(20),
      country varchar(50),
      province varchar(50),
      city varchar(50),
      remark varchar(100),
      tag_ids bigint[] NOT NULL DEFAULT '{}',
      bound_person_type text CHECK (bound_person_type IN ('trainee', 'staff', 'doctor')),
      bound_person_id bigint,
      bound_at timestamptz,
      last_interaction_at timestamptz,
      CHECK ((bound_person_type IS NULL) = (bound_person_id IS NULL)),
      FOREIGN KEY (tenant_id, wechat_account_id) REFERENCES wechat_account (tenant_id, id) ON DELETE CASCADE`,
    ),
    'CREATE UNIQUE INDEX follower_openid_uq ON follower (tenant_id, wechat_account_id, openid)',
    'CREATE INDEX follower_list_idx ON follower (tenant_id, created_at DESC NULLS LAST, id DESC)',
    'CREATE INDEX follower_bound_idx ON follower (tenant_id, bound_person_type, bound_person_id)',
    'CREATE INDEX follower_tags_idx ON follower USING gin (tag_ids)',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, ['DROP TABLE follower', 'DROP TABLE wechat_account']);
}
