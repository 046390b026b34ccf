import '@/pages/assess/catalogue';
import { Link, useAccess, useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Button, Card, Descriptions, Empty, List, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import ResourceProfile from '@/components/resource/ResourceProfile';
import { ignoreShownError } from '@/utils/request';
import {
  EDITABLE,
  fetchUses,
  fetchVersions,
  type Question,
  type QuestionVersion,
  questionDescriptor,
  SUBMITTABLE,
  submitQuestion,
} from '../descriptor';
import QuestionDialogs, { type Acting } from '../QuestionDialogs';
import QuestionPreview, { type PreviewQuestion } from '../QuestionPreview';

/** The fields a version's change is read from, in the order a reader looks at them. */
const COMPARED = [
  'stem',
  'options',
  'answer',
  'children',
  'analysis',
  'difficulty',
  'tags',
  'knowledgePointNames',
] as const;

const text = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 1);
};

/** What changed from one version to the next: each field whose value differs, before and after. */
function VersionDiff({ before, after }: { before?: QuestionVersion; after: QuestionVersion }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  if (!before) return <Typography.Text type="secondary">{t('assess.question.versions.first')}</Typography.Text>;
  const changed = COMPARED.filter((field) => text(before.snapshot[field]) !== text(after.snapshot[field]));
  if (changed.length === 0)
    return <Typography.Text type="secondary">{t('assess.question.versions.same')}</Typography.Text>;
  return (
    <Table
      size="small"
      pagination={false}
      rowKey="field"
      data-testid="version-diff"
      dataSource={changed.map((field) => ({
        field,
        was: text(before.snapshot[field]),
        now: text(after.snapshot[field]),
      }))}
      columns={[
        {
          title: t('assess.question.versions.field'),
          dataIndex: 'field',
          width: 120,
          render: (f: string) => t(`assess.question.${f}`),
        },
        {
          title: `v${before.number}`,
          dataIndex: 'was',
          render: (v: string) => <del style={{ whiteSpace: 'pre-wrap', color: '#cf1322' }}>{v}</del>,
        },
        {
          title: `v${after.number}`,
          dataIndex: 'now',
          render: (v: string) => (
            <ins style={{ whiteSpace: 'pre-wrap', color: '#389e0d', textDecoration: 'none' }}>{v}</ins>
          ),
        },
      ]}
    />
  );
}

/** Every version of the question, newest first: who saved it, why, what it changed, and how it read. */
function Versions({ row }: { row: Question }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [open, setOpen] = useState<number>();
  const { data = [], loading } = useRequest(() => fetchVersions(row.id), {
    refreshDeps: [row.id, row.version],
    onError: ignoreShownError,
  });
  const { data: uses = [] } = useRequest(() => fetchUses(row.id), {
    refreshDeps: [row.id, row.version],
    onError: ignoreShownError,
  });
  const drafts = uses.filter((use) => use.questionVersion === null);
  return (
    <Card
      title={t('assess.question.versions')}
      data-testid="question-versions"
      extra={
        drafts.length > 0 && (
          <Space wrap>
            {t('assess.question.versions.drafts')}
            {drafts.map((use) => (
              <Link key={use.paperId} to={`/exam-paper/${use.paperId}/profile`}>
                {use.code}
              </Link>
            ))}
          </Space>
        )
      }
    >
      <List
        loading={loading}
        dataSource={data}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
        renderItem={(version, i) => (
          <List.Item data-testid="question-version">
            <Space direction="vertical" style={{ width: '100%' }}>
              <Space wrap>
                <Tag color={version.number === row.currentVersion ? 'blue' : undefined}>v{version.number}</Tag>
                <span>{new Date(version.createdAt).toLocaleString(intl.locale)}</span>
                <span>{version.createdByName ?? '-'}</span>
                {version.changeNote && <Typography.Text type="secondary">{version.changeNote}</Typography.Text>}
                {uses
                  .filter((use) => use.questionVersion === version.number)
                  .map((use) => (
                    <Link key={use.paperId} to={`/exam-paper/${use.paperId}/profile`} data-testid="version-paper">
                      <Tag color="gold">{`${use.code} ${use.title}`}</Tag>
                    </Link>
                  ))}
                <Button
                  size="small"
                  type="link"
                  onClick={() => setOpen(open === version.number ? undefined : version.number)}
                >
                  {t(open === version.number ? 'assess.question.versions.hide' : 'assess.question.versions.show')}
                </Button>
              </Space>
              <VersionDiff before={data[i + 1]} after={version} />
              {open === version.number && (
                <QuestionPreview question={version.snapshot as unknown as PreviewQuestion} showAnswer />
              )}
            </Space>
          </List.Item>
        )}
      />
    </Card>
  );
}

/**
 * /question/:id/profile: the question's details, how a candidate reads it (with its key and analysis), its review,
 * its versions with what each changed, and its audit trail; edited on the step form, submitted, reviewed from here.
 */
export default function QuestionProfile() {
  const intl = useIntl();
  const access = useAccess();
  const t = (id: string) => intl.formatMessage({ id });
  const [acting, setActing] = useState<Acting>();
  return (
    <div data-testid="question-profile">
      <ResourceProfile<Question> descriptor={questionDescriptor}>
        {(row, reload) => (
          <>
            <Card
              title={t('assess.question.preview')}
              extra={
                <Space>
                  {EDITABLE.includes(row.status) && access['assess:question:update'] && (
                    <Link to={`/question/edit/${row.id}`} data-testid="profile-edit">
                      {t('resource.edit')}
                    </Link>
                  )}
                  {SUBMITTABLE.includes(row.status) && access['assess:question:update'] && (
                    <Button
                      size="small"
                      data-testid="profile-submit"
                      onClick={() => submitQuestion(row).then(reload, ignoreShownError)}
                    >
                      {t('assess.question.submit')}
                    </Button>
                  )}
                  {row.status === 'pending_review' && access['assess:question:review'] && (
                    <Button
                      size="small"
                      data-testid="profile-review"
                      onClick={() => setActing({ action: 'review', row })}
                    >
                      {t('assess.question.review')}
                    </Button>
                  )}
                </Space>
              }
            >
              <QuestionPreview question={row} showAnswer />
              {row.reviewComment && (
                <Descriptions size="small" column={1}>
                  <Descriptions.Item label={t('assess.question.reviewComment')}>{row.reviewComment}</Descriptions.Item>
                </Descriptions>
              )}
            </Card>
            <Versions row={row} />
            <QuestionDialogs
              acting={acting}
              onClose={() => setActing(undefined)}
              onDone={() => {
                setActing(undefined);
                reload();
              }}
            />
          </>
        )}
      </ResourceProfile>
    </div>
  );
}
