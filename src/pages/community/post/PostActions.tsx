import { ProFormSelect, ProFormTextArea } from '@ant-design/pro-components';
import { useAccess, useIntl } from '@umijs/max';
import { useState } from 'react';
import ActionLink from '@/components/ActionLink';
import RecordModalForm from '@/components/RecordModalForm';
import { boardChoices } from '@/pages/community/board';
import { ignoreShownError } from '@/utils/request';
import { type Post, type PostVerb, postAction, REASONED, reportTarget } from './descriptor';

const REASONS = ['spam', 'abuse', 'off_topic', 'misinformation', 'privacy_leak', 'illegal', 'other'] as const;

type Dialog = { kind: 'reason'; verb: PostVerb } | { kind: 'move' } | { kind: 'report' };

/** A post's moderation links (approve, reject, hide, restore, delete, pin, feature, lock, move, report) and dialogs. */
export default function PostActions({ post, onDone }: { post: Post; onDone: () => void }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const access = useAccess() as Record<string, boolean>;
  const [dialog, setDialog] = useState<Dialog>();
  const run = (verb: PostVerb, body?: Record<string, unknown>) => postAction(post, verb, body).then(onDone);
  const link = (key: string, label: string, onClick: () => void) => (
    <ActionLink key={key} data-testid={`post-${key}`} onClick={onClick}>
      {t(label)}
    </ActionLink>
  );
  const simple = (verb: PostVerb, body?: Record<string, unknown>) => () => run(verb, body).catch(ignoreShownError);
  const reasoned = (verb: PostVerb) => () => setDialog({ kind: 'reason', verb });
  const moderate = access['community:post:moderate'];
  const live = post.status !== 'deleted';
  const field = dialog?.kind === 'reason' ? REASONED[dialog.verb] : undefined;
  return (
    <>
      {moderate && post.status === 'pending_review' && link('approve', 'community.post.approve', simple('approve'))}
      {moderate && post.status === 'pending_review' && link('reject', 'community.post.reject', reasoned('reject'))}
      {moderate && post.status === 'published' && link('hide', 'community.post.hide', reasoned('hide'))}
      {moderate &&
        ['hidden', 'deleted'].includes(post.status) &&
        link('restore', 'community.post.restore', simple('restore'))}
      {moderate && live && link('delete', 'community.post.delete', reasoned('delete'))}
      {access['community:post:pin'] &&
        live &&
        link(
          'pin',
          post.isPinned ? 'community.post.unpin' : 'community.post.pin',
          simple('pin', { pinned: !post.isPinned }),
        )}
      {access['community:post:feature'] &&
        live &&
        link(
          'feature',
          post.isFeatured ? 'community.post.unfeature' : 'community.post.feature',
          simple('feature', { on: !post.isFeatured }),
        )}
      {access['community:post:lock'] &&
        live &&
        link(
          'lock',
          post.isLocked ? 'community.post.unlock' : 'community.post.lock',
          simple('lock', { on: !post.isLocked }),
        )}
      {access['community:post:move'] && live && link('move', 'community.post.move', () => setDialog({ kind: 'move' }))}
      {access['community:post:report'] &&
        post.status === 'published' &&
        link('report', 'community.post.report', () => setDialog({ kind: 'report' }))}
      <RecordModalForm<{ text: string }>
        record={dialog?.kind === 'reason' ? post : undefined}
        title={dialog?.kind === 'reason' ? t(`community.post.${dialog.verb}`) : ''}
        initialValues={{}}
        submitTestId="post-reason-submit"
        save={({ text }) => run((dialog as { verb: PostVerb }).verb, { [field ?? 'reason']: text })}
        onClose={() => setDialog(undefined)}
        onSaved={() => setDialog(undefined)}
      >
        <ProFormTextArea
          name="text"
          label={t(field === 'comment' ? 'community.post.comment' : 'community.post.reason')}
          rules={[{ required: true }]}
          fieldProps={{ maxLength: field === 'comment' ? 500 : 200, 'data-testid': 'post-reason' } as object}
        />
      </RecordModalForm>
      <RecordModalForm<{ boardId: string }>
        record={dialog?.kind === 'move' ? post : undefined}
        title={t('community.post.move')}
        initialValues={{}}
        submitTestId="post-move-submit"
        save={({ boardId }) => run('move', { boardId })}
        onClose={() => setDialog(undefined)}
        onSaved={() => setDialog(undefined)}
      >
        <ProFormSelect
          name="boardId"
          label={t('community.post.boardId')}
          rules={[{ required: true }]}
          request={() => boardChoices()}
        />
      </RecordModalForm>
      <RecordModalForm<{ reason: (typeof REASONS)[number]; description?: string }>
        record={dialog?.kind === 'report' ? post : undefined}
        title={t('community.post.report')}
        initialValues={{}}
        submitTestId="post-report-submit"
        save={(values, options) => reportTarget({ targetType: 'post', targetId: post.id, ...values }, options)}
        onClose={() => setDialog(undefined)}
        onSaved={() => {
          setDialog(undefined);
          onDone();
        }}
      >
        <ProFormSelect
          name="reason"
          label={t('community.report.reason')}
          rules={[{ required: true }]}
          fieldProps={{ 'data-testid': 'report-reason' } as object}
          options={REASONS.map((value) => ({ value, label: t(`community.report.reason.${value}`) }))}
        />
        <ProFormTextArea name="description" label={t('community.report.description')} fieldProps={{ maxLength: 500 }} />
      </RecordModalForm>
    </>
  );
}
