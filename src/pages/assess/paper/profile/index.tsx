import { readerTimeZone } from '@/utils/dates';
import '@/pages/assess/catalogue';
import { EditOutlined, FilePdfOutlined, FileWordOutlined, PrinterOutlined, ReloadOutlined } from '@ant-design/icons';
import { Link, useAccess, useIntl, useNavigate } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Alert, Button, Card, Popconfirm, Space, Switch, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import ResourceProfile from '@/components/resource/ResourceProfile';
import { downloadFile } from '@/services/resource';
import message from '@/utils/message';
import request, { ignoreShownError } from '@/utils/request';
import { QuestionMediaProvider } from '../../question/QuestionMedia';
import QuestionPreview from '../../question/QuestionPreview';
import { stemLine } from '../../question/questionForm';
import { categories, knowledgePoints } from '../../taxonomy/descriptor';
import {
  availableText,
  closePaper,
  type Paper,
  paperDescriptor,
  paperPlace,
  previewPaper,
  publishPaper,
} from '../descriptor';
import PaperCloneDialog from '../PaperCloneDialog';

type Rule = NonNullable<Paper['sections']>[number]['rules'][number];

/** The names of the categories and knowledge points the paper's rules ask (each read once; its id if unreadable). */
function useRuleNames(paper: Paper) {
  const rules = (paper.sections ?? []).flatMap((s) => s.rules);
  const categoryIds = [...new Set(rules.flatMap((r) => r.categoryIds))];
  const pointIds = [...new Set(rules.flatMap((r) => r.knowledgePointIds))];
  const named = (ids: string[], read: (id: string) => Promise<{ name: string }>) =>
    Promise.all(
      ids.map((id) =>
        read(id).then(
          (row) => [id, row.name] as const,
          () => [id, id] as const,
        ),
      ),
    );
  const { data } = useRequest(
    async () => ({
      categories: Object.fromEntries(
        await named(categoryIds, (id) => categories.get(id, { shownByCaller: [403, 404] })),
      ) as Record<string, string>,
      points: Object.fromEntries(
        await named(pointIds, (id) => knowledgePoints.get(id, { shownByCaller: [403, 404] })),
      ) as Record<string, string>,
    }),
    { refreshDeps: [categoryIds.join(), pointIds.join()], ready: categoryIds.length + pointIds.length > 0 },
  );
  return { category: (id: string) => data?.categories[id] ?? id, point: (id: string) => data?.points[id] ?? id };
}

/** What a rule draws from: its categories, knowledge points, type, format, difficulty and tags. */
function RuleSummary({ rule, names }: { rule: Rule; names: ReturnType<typeof useRuleNames> }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const mix = Object.entries(rule.difficultyMix ?? {}).filter(([, n]) => (n ?? 0) > 0);
  return (
    <>
      {rule.categoryIds.length > 0 && (
        <Tag data-testid="rule-summary-categories">
          {t('assess.question.categoryId')}: {rule.categoryIds.map(names.category).join('、')}
          {rule.includeSubcategories ? ` (${t('assess.paper.rule.subcategories')})` : ''}
        </Tag>
      )}
      {rule.knowledgePointIds.length > 0 && (
        <Tag data-testid="rule-summary-points">
          {t('assess.question.knowledgePointIds')}: {rule.knowledgePointIds.map(names.point).join('、')}
        </Tag>
      )}
      {rule.questionType && <Tag>{t(`assess.question.type.${rule.questionType}`)}</Tag>}
      {rule.medicalFormat && <Tag>{rule.medicalFormat}</Tag>}
      {mix.length > 0 ? (
        <Tag data-testid="rule-summary-difficulty">
          {t('assess.paper.rule.mix')}:{' '}
          {mix.map(([level, n]) => `${t('assess.paper.rule.mixLevel', { level })} × ${n}`).join('，')}
        </Tag>
      ) : (
        (rule.difficultyMin > 1 || rule.difficultyMax < 5) && (
          <Tag data-testid="rule-summary-difficulty">
            {t('assess.question.difficulty')} {rule.difficultyMin}–{rule.difficultyMax}
          </Tag>
        )
      )}
      {rule.tags.length > 0 && <Tag>{rule.tags.join(rule.tagMatch === 'all' ? ' + ' : ' / ')}</Tag>}
      {rule.excludeUsedWithinDays && (
        <Tag data-testid="rule-summary-not-used">
          {t('assess.paper.rule.notUsed', { days: rule.excludeUsedWithinDays })}
        </Tag>
      )}
    </>
  );
}

/** The paper's sections: their fixed questions (with the versions they pin once published) and random rules. */
function Structure({ paper }: { paper: Paper }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const names = useRuleNames(paper);
  return (
    <Card title={t('assess.paper.structure')} data-testid="paper-structure">
      {(paper.sections ?? []).map((section, i) => (
        <div key={section.id} style={{ marginBottom: 16 }}>
          <Typography.Title level={5}>
            {i + 1}. {section.title}
          </Typography.Title>
          <Space size={4} wrap data-testid="section-summary" style={{ marginBottom: 8 }}>
            {section.questionType && <Tag>{t(`assess.question.type.${section.questionType}`)}</Tag>}
            {section.medicalFormat && <Tag>{section.medicalFormat}</Tag>}
            {section.shuffleQuestions !== null && (
              <Tag>{t(`assess.paper.section.shuffle.${section.shuffleQuestions ? 'yes' : 'no'}`)}</Tag>
            )}
            {section.sequential && <Tag color="orange">{t('assess.paper.section.sequential')}</Tag>}
          </Space>
          {section.slots.length > 0 && (
            <Table
              size="small"
              pagination={false}
              rowKey="questionId"
              dataSource={section.slots}
              columns={[
                {
                  title: t('assess.question.code'),
                  dataIndex: 'code',
                  width: 130,
                  render: (code: string, slot) => <Link to={`/question/${slot.questionId}/profile`}>{code}</Link>,
                },
                {
                  title: t('assess.question.stem'),
                  dataIndex: 'stem',
                  ellipsis: true,
                  render: (stem: string) => stemLine(stem),
                },
                {
                  title: t('assess.question.questionType'),
                  dataIndex: 'questionType',
                  width: 160,
                  render: (type: string) => <Tag>{t(`assess.question.type.${type}`)}</Tag>,
                },
                {
                  title: t('assess.question.currentVersion'),
                  dataIndex: 'questionVersion',
                  width: 80,
                  render: (v: number | null) => (v ? `v${v}` : '-'),
                },
                { title: t('assess.paper.rule.score'), dataIndex: 'score', width: 80 },
                {
                  title: t('assess.paper.slot.points'),
                  dataIndex: 'points',
                  width: 80,
                  render: (points: number) => <span data-testid="slot-points">{points}</span>,
                },
              ]}
            />
          )}
          {section.rules.map((rule, j) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a rule is its place in the section
            <div key={j} data-testid="paper-rule-summary" style={{ marginTop: 8 }}>
              <Tag color="purple">{t('assess.paper.rule')}</Tag>
              {t('assess.paper.rule.summary', { count: rule.count, score: rule.score })}
              <RuleSummary rule={rule} names={names} />
              {rule.available !== undefined && (
                <Tag color={rule.available < rule.count ? 'error' : 'success'}>
                  {availableText(intl, { available: rule.available, availableCapped: rule.availableCapped })}
                </Tag>
              )}
            </div>
          ))}
        </div>
      ))}
    </Card>
  );
}

const at = (iso: string) => dayjs(iso).format('YYYY-MM-DD HH:mm');

/** What a candidate must know before starting, as the printed paper says it: window, attempts, navigation. */
function deliveryText(intl: ReturnType<typeof useIntl>, paper: Paper): string {
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const said: string[] = [];
  if (paper.openAt && paper.closeAt)
    said.push(t('assess.paper.window', { from: at(paper.openAt), to: at(paper.closeAt) }));
  else if (paper.openAt) said.push(t('assess.paper.opens', { from: at(paper.openAt) }));
  else if (paper.closeAt) said.push(t('assess.paper.closes', { to: at(paper.closeAt) }));
  said.push(
    paper.maxAttempts === 0
      ? `${t('assess.paper.maxAttempts')}: ${t('assess.paper.maxAttempts.unlimited')}`
      : t('assess.paper.attempts', { n: paper.maxAttempts }),
  );
  if (paper.navigation === 'sequential') said.push(t('assess.paper.navigation.sequential'));
  return said.join(' · ');
}

/** The paper as a candidate gets it (the random rules drawn with a seed; "draw again" changes it), printable. */
function CandidatePreview({ paper }: { paper: Paper }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const tv = (id: string, values: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [seed, setSeed] = useState(1);
  const [key, setKey] = useState(false);
  const access = useAccess();
  // the draw shown, with or without the key as the switch says
  const printed = (format: 'word' | 'pdf') => () =>
    downloadFile(
      `/api/assess/paper/${paper.id}/export-${format}`,
      // the window printed on the reader's clock, as the screen shows it
      { seed: String(seed), answers: String(key), timeZone: readerTimeZone() },
      `${paper.code}${key ? '-key' : ''}.${format === 'word' ? 'docx' : 'pdf'}`,
      { nameField: paperPlace },
    ).catch(ignoreShownError);
  // a draw the bank can no longer make is said here, in place of the questions
  const { data, error } = useRequest(() => previewPaper(paper.id, seed), {
    refreshDeps: [paper.id, paper.version, seed],
    onError: ignoreShownError,
  });
  const sections = data?.sections ?? [];
  // the questions numbered on from one section to the next, as the Word and PDF documents number them
  const firstNumbers = sections.map((_, i) => sections.slice(0, i).reduce((n, s) => n + s.questions.length, 1));
  return (
    <Card
      title={t('assess.paper.preview')}
      data-testid="paper-preview"
      extra={
        <Space className="no-print">
          <Switch
            checked={key}
            onChange={setKey}
            aria-label={t('assess.paper.preview.key')}
            data-testid="paper-preview-key"
          />
          {t('assess.paper.preview.key')}
          <Button icon={<ReloadOutlined />} onClick={() => setSeed((s) => s + 1)} data-testid="paper-redraw">
            {t('assess.paper.preview.redraw')}
          </Button>
          <Button icon={<PrinterOutlined />} onClick={() => window.print()}>
            {t('assess.paper.print')}
          </Button>
          {access['assess:paper:export-word'] && (
            <Button icon={<FileWordOutlined />} onClick={printed('word')} data-testid="paper-export-word">
              {t('assess.paper.exportWord')}
            </Button>
          )}
          {access['assess:paper:export-pdf'] && (
            <Button icon={<FilePdfOutlined />} onClick={printed('pdf')} data-testid="paper-export-pdf">
              {t('assess.paper.exportPdf')}
            </Button>
          )}
        </Space>
      }
    >
      {/* the images the questions show, with the links the preview came with (printed in place too) */}
      <QuestionMediaProvider media={data?.media}>
        <div className="printable">
          <Typography.Title level={4} style={{ textAlign: 'center' }}>
            {paper.title}
          </Typography.Title>
          <Typography.Paragraph style={{ textAlign: 'center' }}>
            {t('assess.paper.totalScore')} {paper.totalScore} · {t('assess.paper.passScore')} {paper.passScore} ·{' '}
            {t('assess.paper.durationMinutes')} {paper.durationMinutes}
            <br />
            <span data-testid="paper-preview-delivery">{deliveryText(intl, paper)}</span>
          </Typography.Paragraph>
          {paper.instructions && <Typography.Paragraph>{paper.instructions}</Typography.Paragraph>}
          {error && (
            <Alert
              type="warning"
              showIcon
              data-testid="paper-preview-refused"
              message={request.reasonOf(error, { nameField: paperPlace })}
            />
          )}
          {sections.map((section, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a section is its place in the paper
            <div key={i}>
              <Typography.Title level={5}>
                {i + 1}. {section.title}
              </Typography.Title>
              {section.instructions && (
                <Typography.Paragraph type="secondary">{section.instructions}</Typography.Paragraph>
              )}
              {section.questions.map((q, j) => (
                <div key={q.id} data-testid="paper-preview-question">
                  <Typography.Text type="secondary">
                    ({q.score} {t('assess.paper.points')}
                    {q.itemScore !== null ? ` · ${tv('assess.paper.itemScore', { score: q.itemScore })}` : ''})
                    {q.drawn ? ` · ${t('assess.paper.drawn')}` : ''}
                  </Typography.Text>
                  <QuestionPreview question={q} showAnswer={key} number={firstNumbers[i] + j} />
                </div>
              ))}
            </div>
          ))}
        </div>
      </QuestionMediaProvider>
    </Card>
  );
}

/**
 * /exam-paper/:id/profile: the paper's settings, its structure, the candidate's preview (printable, with or without
 * the key), published or closed from here, and its audit trail.
 */
export default function PaperProfile() {
  const intl = useIntl();
  const access = useAccess();
  const t = (id: string) => intl.formatMessage({ id });
  const navigate = useNavigate();
  const [cloning, setCloning] = useState<Paper>();
  const done = (id: string, reload: () => void) => () => {
    message.success(t(id));
    reload();
  };
  return (
    <div data-testid="paper-profile">
      <ResourceProfile<Paper>
        descriptor={paperDescriptor}
        actions={(paper, reload) => [
          paper.status === 'draft' && access['assess:paper:update'] && (
            <Button
              key="edit"
              icon={<EditOutlined />}
              data-testid="paper-edit"
              onClick={() => navigate(`/exam-paper/edit/${paper.id}`)}
            >
              {t('resource.edit')}
            </Button>
          ),
          paper.status === 'draft' && access['assess:paper:publish'] && (
            <Popconfirm
              key="publish"
              title={t('assess.paper.publish.confirm')}
              onConfirm={() => publishPaper(paper).then(done('assess.paper.published', reload), ignoreShownError)}
            >
              <Button type="primary" data-testid="paper-profile-publish">
                {t('assess.paper.publish')}
              </Button>
            </Popconfirm>
          ),
          paper.status === 'published' && access['assess:paper:close'] && (
            <Popconfirm
              key="close"
              title={t('assess.paper.close.confirm')}
              onConfirm={() => closePaper(paper).then(done('assess.paper.closed', reload), ignoreShownError)}
            >
              <Button data-testid="paper-profile-close">{t('assess.paper.close')}</Button>
            </Popconfirm>
          ),
          access['assess:paper:clone'] && (
            <Button key="clone" data-testid="paper-profile-clone" onClick={() => setCloning(paper)}>
              {t('assess.paper.clone')}
            </Button>
          ),
        ]}
      >
        {(paper) => (
          <>
            <PaperCloneDialog paper={cloning} onClose={() => setCloning(undefined)} />
            <Structure paper={paper} />
            <CandidatePreview paper={paper} />
          </>
        )}
      </ResourceProfile>
    </div>
  );
}
