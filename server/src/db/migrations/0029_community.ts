import type { Kysely } from 'kysely';
import { tenantTable } from './0002_tenancy_rls';
import { runStatements } from './statements';

/**
 * The community (docs/domain.md §5.4–5.6). `board`: a discussion area, open, locked (read-only) or archived, moderated
 * before or after publication, with its moderators (`board_moderator`); `post`: a thread of a board (sanitised HTML and
 * its plain text), moderated, pinned, featured, locked; `post_reply`: its replies, one level of threading
 * (`parent_reply_id` names a top-level reply); `report_case`: one queue row per reported target while pending, with
 * its counts, distinct reasons and outcome; `report`: one person's report, once per case; `community_mute`: an author
 * suspended from writing (posts, replies, reports) until a time, by the case that decided it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    ...tenantTable(
      'board',
      `parent_id bigint,
      code varchar(50) NOT NULL,
      name varchar(50) NOT NULL,
      description varchar(500),
      icon_file_id bigint,
      audience jsonb NOT NULL DEFAULT '{"traineeTypeIds": [], "orgIds": []}',
      post_policy text NOT NULL DEFAULT 'everyone' CHECK (post_policy IN ('everyone', 'staff_only', 'selected_roles')),
      moderation_mode text NOT NULL DEFAULT 'post_moderation'
        CHECK (moderation_mode IN ('post_moderation', 'pre_moderation')),
      allow_anonymous boolean NOT NULL DEFAULT false,
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'locked', 'archived')),
      sort int NOT NULL DEFAULT 0,
      remark varchar(500),
      FOREIGN KEY (tenant_id, parent_id) REFERENCES board (tenant_id, id)`,
    ),
    'CREATE UNIQUE INDEX board_code_uq ON board (tenant_id, code)',
    'CREATE INDEX board_sort_idx ON board (tenant_id, sort, id)',
    ...tenantTable(
      'board_moderator',
      `board_id bigint NOT NULL,
      subject_type text NOT NULL CHECK (subject_type IN ('admin_user', 'doctor')),
      subject_id bigint NOT NULL,
      FOREIGN KEY (tenant_id, board_id) REFERENCES board (tenant_id, id) ON DELETE CASCADE`,
      { audited: false },
    ),
    'CREATE UNIQUE INDEX board_moderator_uq ON board_moderator (tenant_id, board_id, subject_type, subject_id)',
    ...tenantTable(
      'post',
      `board_id bigint NOT NULL,
      author_type text NOT NULL CHECK (author_type IN ('trainee', 'doctor', 'staff', 'admin')),
      author_id bigint NOT NULL,
      title varchar(120) NOT NULL,
      content_html text NOT NULL,
      content_text text,
      attachment_file_ids bigint[] NOT NULL DEFAULT '{}',
      status text NOT NULL DEFAULT 'published'
        CHECK (status IN ('draft', 'pending_review', 'published', 'rejected', 'hidden', 'deleted')),
      is_pinned boolean NOT NULL DEFAULT false,
      pinned_until timestamptz,
      is_featured boolean NOT NULL DEFAULT false,
      is_locked boolean NOT NULL DEFAULT false,
      view_count int NOT NULL DEFAULT 0,
      like_count int NOT NULL DEFAULT 0,
      last_reply_at timestamptz,
      review_comment varchar(500),
      reviewed_by bigint,
      reviewed_at timestamptz,
      hidden_reason varchar(200),
      client_ip varchar(64),
      FOREIGN KEY (tenant_id, board_id) REFERENCES board (tenant_id, id)`,
    ),
    'CREATE INDEX post_list_idx ON post (tenant_id, created_at DESC NULLS LAST, id DESC)',
    'CREATE INDEX post_board_idx ON post (tenant_id, board_id, status)',
    'CREATE INDEX post_title_trgm ON post USING gin (title gin_trgm_ops)',
    ...tenantTable(
      'post_reply',
      `post_id bigint NOT NULL,
      parent_reply_id bigint,
      author_type text NOT NULL CHECK (author_type IN ('trainee', 'doctor', 'staff', 'admin')),
      author_id bigint NOT NULL,
      content_html text NOT NULL,
      content_text text,
      attachment_file_ids bigint[] NOT NULL DEFAULT '{}',
      status text NOT NULL DEFAULT 'published' CHECK (status IN ('published', 'hidden', 'deleted')),
      hidden_reason varchar(200),
      like_count int NOT NULL DEFAULT 0,
      client_ip varchar(64),
      FOREIGN KEY (tenant_id, post_id) REFERENCES post (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, parent_reply_id) REFERENCES post_reply (tenant_id, id) ON DELETE CASCADE`,
    ),
    'CREATE INDEX post_reply_post_idx ON post_reply (tenant_id, post_id, created_at, id)',
    ...tenantTable(
      'report_case',
      `target_type text NOT NULL CHECK (target_type IN ('post', 'reply', 'user')),
      target_id bigint NOT NULL,
      target_snapshot jsonb NOT NULL DEFAULT '{}',
      report_count int NOT NULL DEFAULT 0,
      reasons text[] NOT NULL DEFAULT '{}',
      potential_spam boolean NOT NULL DEFAULT false,
      auto_hidden boolean NOT NULL DEFAULT false,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'resolved', 'dismissed', 'ignored')),
      resolution text CHECK (resolution IN ('keep', 'hide', 'delete', 'delete_and_block_author', 'warn_author',
        'mute_author')),
      handled_by bigint,
      handled_at timestamptz,
      handle_note varchar(500)`,
    ),
    `CREATE UNIQUE INDEX report_case_pending_uq ON report_case (tenant_id, target_type, target_id)
      WHERE status = 'pending'`,
    'CREATE INDEX report_case_list_idx ON report_case (tenant_id, created_at DESC NULLS LAST, id DESC)',
    'CREATE INDEX report_case_target_idx ON report_case (tenant_id, target_type, target_id)',
    ...tenantTable(
      'report',
      `case_id bigint NOT NULL,
      target_type text NOT NULL CHECK (target_type IN ('post', 'reply', 'user')),
      target_id bigint NOT NULL,
      reporter_type text NOT NULL CHECK (reporter_type IN ('trainee', 'doctor', 'staff', 'admin')),
      reporter_id bigint NOT NULL,
      reason text NOT NULL
        CHECK (reason IN ('spam', 'abuse', 'off_topic', 'misinformation', 'privacy_leak', 'illegal', 'other')),
      description varchar(500),
      evidence_file_ids bigint[] NOT NULL DEFAULT '{}',
      CHECK (reason <> 'other' OR description IS NOT NULL),
      FOREIGN KEY (tenant_id, case_id) REFERENCES report_case (tenant_id, id) ON DELETE CASCADE`,
      { audited: false },
    ),
    'CREATE UNIQUE INDEX report_reporter_uq ON report (tenant_id, case_id, reporter_type, reporter_id)',
    'ALTER TABLE report ADD COLUMN created_at timestamptz NOT NULL DEFAULT now()',
    ...tenantTable(
      'community_mute',
      `author_type text NOT NULL CHECK (author_type IN ('trainee', 'doctor', 'staff', 'admin')),
      author_id bigint NOT NULL,
      muted_until timestamptz NOT NULL,
      case_id bigint,
      created_at timestamptz NOT NULL DEFAULT now(),
      created_by bigint,
      FOREIGN KEY (tenant_id, case_id) REFERENCES report_case (tenant_id, id) ON DELETE SET NULL (case_id)`,
      { audited: false },
    ),
    'CREATE INDEX community_mute_author_idx ON community_mute (tenant_id, author_type, author_id, muted_until)',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'DROP TABLE community_mute',
    'DROP TABLE report',
    'DROP TABLE report_case',
    'DROP TABLE post_reply',
    'DROP TABLE post',
    'DROP TABLE board_moderator',
    'DROP TABLE board',
  ]);
}
