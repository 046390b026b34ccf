import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * A paper's delivery settings (docs/domain.md §9.2, Moodle quiz timing, attempts, review and navigation): an optional
 * window, attempts (0: unlimited), the grade kept, navigation, what happens when time is up, when and what candidates
 * see afterwards, and the anti-cheating switches; how a group's slot scores (`group_scoring`). A section may hold one
 * type or format only and shuffle or lock its own questions; a rule may leave out the questions used lately.
 *
 * The papers made before keep working: a group's slot scored its score in all (`split`), which they keep, where a new
 * paper's default is the domain's (each item scores the slot's score); a paper holding case-analysis questions is
 * sequential.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE exam_paper
      ADD COLUMN open_at timestamptz,
      ADD COLUMN close_at timestamptz,
      ADD COLUMN max_attempts smallint NOT NULL DEFAULT 0 CHECK (max_attempts BETWEEN 0 AND 100),
      ADD COLUMN grade_method text NOT NULL DEFAULT 'highest'
        CHECK (grade_method IN ('highest', 'latest', 'first', 'average')),
      ADD COLUMN navigation text NOT NULL DEFAULT 'free' CHECK (navigation IN ('free', 'sequential')),
      ADD COLUMN overdue_handling text NOT NULL DEFAULT 'auto_submit'
        CHECK (overdue_handling IN ('auto_submit', 'grace_period', 'abandon')),
      ADD COLUMN grace_seconds int CHECK (grace_seconds > 0),
      ADD COLUMN show_result text NOT NULL DEFAULT 'after_close'
        CHECK (show_result IN ('immediately', 'after_close', 'manual', 'never')),
      ADD COLUMN review_options jsonb NOT NULL DEFAULT '{"answers": false, "analysis": false, "scores": true}',
      ADD COLUMN anti_cheat jsonb NOT NULL
        DEFAULT '{"fullscreen": false, "maxBlurCount": 0, "disableCopyPaste": false, "randomizePerCandidate": false}',
      ADD COLUMN group_scoring text NOT NULL DEFAULT 'split' CHECK (group_scoring IN ('per_item', 'split')),
      ADD CONSTRAINT exam_paper_window_ck CHECK (close_at > open_at),
      ADD CONSTRAINT exam_paper_grace_ck CHECK ((overdue_handling = 'grace_period') = (grace_seconds IS NOT NULL))`,
    `ALTER TABLE exam_paper ALTER COLUMN group_scoring SET DEFAULT 'per_item'`,
    `UPDATE exam_paper p SET navigation = 'sequential'
      WHERE EXISTS (SELECT 1 FROM paper_slot s JOIN question q ON q.id = s.question_id
          WHERE s.paper_id = p.id AND q.question_type = 'case_analysis')
        OR EXISTS (SELECT 1 FROM paper_rule r WHERE r.paper_id = p.id AND r.question_type = 'case_analysis')`,
    `ALTER TABLE paper_section
      ADD COLUMN question_type text,
      ADD COLUMN medical_format text,
      ADD COLUMN shuffle_questions boolean,
      ADD COLUMN sequential boolean NOT NULL DEFAULT false`,
    'ALTER TABLE paper_rule ADD COLUMN exclude_used_within_days smallint CHECK (exclude_used_within_days > 0)',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'ALTER TABLE paper_rule DROP COLUMN exclude_used_within_days',
    `ALTER TABLE paper_section DROP COLUMN question_type, DROP COLUMN medical_format, DROP COLUMN shuffle_questions,
      DROP COLUMN sequential`,
    `ALTER TABLE exam_paper DROP COLUMN open_at, DROP COLUMN close_at, DROP COLUMN max_attempts,
      DROP COLUMN grade_method, DROP COLUMN navigation, DROP COLUMN overdue_handling, DROP COLUMN grace_seconds,
      DROP COLUMN show_result, DROP COLUMN review_options, DROP COLUMN anti_cheat, DROP COLUMN group_scoring`,
  ]);
}
