import '@/pages/assess/catalogue';
import { Link, useAccess, useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Button, Card, Col, Descriptions, Empty, List, Row, Space, Statistic, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { dictEnum } from '@/components/resource/dict';
import ResourceProfile from '@/components/resource/ResourceProfile';
import { formatDate, formatDateTime } from '@/utils/dates';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';
import {
  EDITABLE,
  fetchStatistics,
  fetchUses,
  fetchVersions,
  findDuplicates,
  type Question,
  type QuestionVersion,
  questionDescriptor,
  SUBMITTABLE,
  submitQuestion,
} from '../descriptor';
import QuestionDialogs, { type Acting } from '../QuestionDialogs';
import { QuestionMediaProvider, useMediaLinks } from '../QuestionMedia';
import QuestionPreview, { type PreviewQuestion } from '../QuestionPreview';
import { SPECIALTY } from '../questionForm';
import { versionChanges } from './versionChanges';

/** What changed from one version to the next: each field whose value differs, before and after. */
function VersionDiff({ before, after }: { before?: QuestionVersion; after: QuestionVersion }) {
  const intl = useIntl();
  const { shown } = useMediaLinks();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  if (!before) return <Typography.Text type="secondary">{t('assess.question.versions.first')}</Typography.Text>;
  const specialties = dictEnum(SPECIALTY, undefined, intl.locale);
  const changed = versionChanges(
    before.snapshot,
    after.snapshot,
    t,
    (code) => specialties.get(code)?.text,
    (id) => shown(id)?.name ?? `#${id}`,
  );
  if (changed.length === 0)
    return <Typography.Text type="secondary">{t('assess.question.versions.same')}</Typography.Text>;
  return (
    <Table
      size="small"
      pagination={false}
      rowKey="key"
      data-testid="version-diff"
      dataSource={changed}
      columns={[
        {
          title: t('assess.question.versions.field'),
          dataIndex: 'label',
          width: 140,
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
                <span>{formatDateTime(version.createdAt)}</span>
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
                <QuestionPreview question={version.snapshot as unknown as PreviewQuestion} answerSwitch />
              )}
            </Space>
          </List.Item>
        )}
      />
    </Card>
  );
}

/**
 * How the question is used (Moodle's usage and last-used columns): the papers that hold it and how often it was
 * published in one, its versions, the draft papers whose random rules may draw it, and the bank's questions most like
 * it. How candidates answered it (facility, discrimination) comes from exam delivery, which is not this console's.
 */
function Statistics({ row }: { row: Question }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const { data, loading } = useRequest(() => fetchStatistics(row.id), {
    refreshDeps: [row.id, row.version],
    onError: ignoreShownError,
  });
  const { data: similar = [] } = useRequest(
    () =>
      // what the likeness is made of: the stems and options (an item's id and place are not part of a request)
      findDuplicates({
        stem: row.stem,
        options: row.options ?? undefined,
        children: row.children?.length ? row.children.map(({ stem, options }) => ({ stem, options })) : undefined,
        excludeId: row.id,
      }),
    { refreshDeps: [row.id, row.version], onError: ignoreShownError },
  );
  const papers = data?.papers;
  return (
    <Card title={t('assess.question.statistics')} loading={loading} data-testid="question-statistics">
      <Row gutter={16}>
        <Col xs={12} md={6}>
          <Statistic title={t('assess.question.statistics.usage')} value={data?.usageCount ?? 0} />
        </Col>
        <Col xs={12} md={6}>
          <Statistic
            title={t('assess.question.statistics.papers')}
            value={papers ? papers.published + papers.closed : 0}
            suffix={papers?.draft ? intl.formatMessage({ id: 'assess.question.statistics.drafts' }, papers) : undefined}
          />
        </Col>
        <Col xs={12} md={6}>
          <Statistic
            title={t('assess.question.statistics.lastUsed')}
            value={data?.lastUsedAt ? formatDate(data.lastUsedAt) : '-'}
          />
        </Col>
        <Col xs={12} md={6}>
          <Statistic title={t('assess.question.statistics.versions')} value={data?.versionCount ?? 0} />
        </Col>
      </Row>
      <Descriptions size="small" column={1} style={{ marginTop: 16 }}>
        <Descriptions.Item label={t('assess.question.statistics.drawableBy')}>
          <Space wrap data-testid="question-drawable-by">
            {data?.drawableBy.length
              ? data.drawableBy.map((paper) => (
                  <Link key={paper.paperId} to={`/exam-paper/${paper.paperId}/profile`}>
                    <Tag>{`${paper.code} ${paper.title}`}</Tag>
                  </Link>
                ))
              : t('assess.question.statistics.none')}
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label={t('assess.question.statistics.similar')}>
          <Space wrap data-testid="question-similar">
            {similar.length
              ? similar.map((other) => (
                  <Link key={other.id} to={`/question/${other.id}/profile`} title={other.stem}>
                    <Tag color={other.exact ? 'red' : undefined}>
                      {`${other.code} ${Math.round(other.similarity * 100)}%`}
                    </Tag>
                  </Link>
                ))
              : t('assess.question.statistics.none')}
          </Space>
        </Descriptions.Item>
      </Descriptions>
      <Typography.Text type="secondary">{t('assess.question.statistics.attempts')}</Typography.Text>
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
          // the images of every version, for the previews and what each version changed
          <QuestionMediaProvider questionId={row.id}>
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
                      onClick={() =>
                        submitQuestion(row).then(() => {
                          message.success(t('assess.question.submitted'));
                          reload();
                        }, ignoreShownError)
                      }
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
              <QuestionPreview question={row} answerSwitch />
              {row.reviewComment && (
                <Descriptions size="small" column={1}>
                  <Descriptions.Item label={t('assess.question.reviewComment')}>{row.reviewComment}</Descriptions.Item>
                </Descriptions>
              )}
            </Card>
            <Statistics row={row} />
            <Versions row={row} />
            <QuestionDialogs
              acting={acting}
              onClose={() => setActing(undefined)}
              onDone={() => {
                setActing(undefined);
                reload();
              }}
            />
          </QuestionMediaProvider>
        )}
      </ResourceProfile>
    </div>
  );
}
