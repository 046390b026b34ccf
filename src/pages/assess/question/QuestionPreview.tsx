import { useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Button, Card, Space, Switch, Tag, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { ignoreShownError } from '@/utils/request';
import { type Question, questions } from './descriptor';
import { MediaImages, QuestionMediaProvider, useMediaLinks } from './QuestionMedia';

type Option = { key: string; text: string; weight?: number; mediaIds?: string[] };
type Answer = Question['answer'];
/** What a preview shows of a question or of one of a group's items. */
interface Shown {
  stem: string;
  stemMediaFileIds?: string[] | null;
  options?: Option[] | null;
  answer?: Answer;
  analysis?: string | null;
}
export interface PreviewQuestion extends Shown {
  id?: string;
  questionType: Question['questionType'];
  medicalFormat?: Question['medicalFormat'];
  childCount?: number;
  children?: Shown[] | null;
}

const BLANK = '{{blank}}';

/** A fill-in-the-blanks stem with its blanks drawn as numbered lines. */
function Stem({ text }: { text: string }) {
  const parts = text.split(BLANK);
  return (
    <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 8 }} data-testid="preview-stem">
      {parts.flatMap((part, i) =>
        i === 0
          ? [part]
          : [
              // biome-ignore lint/suspicious/noArrayIndexKey: a blank is its place in the stem
              <u key={`blank-${i}`} style={{ padding: '0 24px' }}>
                ({i})
              </u>,
              part,
            ],
      )}
    </Typography.Paragraph>
  );
}

function AnswerText({ answer }: { answer: Answer | undefined }): ReactNode {
  const intl = useIntl();
  if (answer === null || answer === undefined) return null;
  if (typeof answer === 'boolean')
    return intl.formatMessage({ id: answer ? 'assess.question.true' : 'assess.question.false' });
  if (!Array.isArray(answer))
    return (
      <>
        <span style={{ whiteSpace: 'pre-wrap' }}>{answer.reference}</span>
        {(answer.points ?? []).length > 0 && (
          <div data-testid="preview-points">
            <Typography.Text type="secondary">{intl.formatMessage({ id: 'assess.question.points' })}：</Typography.Text>
            <ol style={{ margin: 0 }}>
              {(answer.points ?? []).map((point, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a scoring point is its place in the answer
                <li key={i} data-testid="preview-point">
                  {point.text}
                  {intl.formatMessage({ id: 'assess.question.pointScore' }, { score: point.score })}
                </li>
              ))}
            </ol>
          </div>
        )}
      </>
    );
  if (Array.isArray(answer[0]))
    return (answer as string[][]).map((accepted, i) => `(${i + 1}) ${accepted.join(' / ')}`).join('；');
  return (answer as string[]).join('、');
}

/** An item: stem, options (the correct ones marked when the key is shown), answer and analysis. */
function Item({
  item,
  number,
  showAnswer,
  shared,
}: {
  item: Shown;
  /** Its label before the stem: 1. (or (1) for an item of a numbered question). */
  number?: string;
  showAnswer?: boolean;
  shared?: boolean;
}) {
  const intl = useIntl();
  const correct = Array.isArray(item.answer) && !Array.isArray(item.answer[0]) ? (item.answer as string[]) : [];
  // a case analysis stage's weights (one written before weights: each correct option 1)
  const weighed = (item.options ?? []).some((o) => o.weight !== undefined);
  const weightOf = (o: Option) => o.weight ?? (correct.includes(o.key) ? 1 : 0);
  const most = (item.options ?? []).reduce((sum, o) => sum + Math.max(0, weightOf(o)), 0);
  return (
    <div data-testid="preview-item" style={{ marginBottom: 12 }}>
      <Space align="start">
        {number !== undefined && (
          <Typography.Text strong data-testid="preview-number">
            {number}
          </Typography.Text>
        )}
        <Stem text={item.stem} />
      </Space>
      <MediaImages ids={item.stemMediaFileIds} />
      {(item.options ?? []).map((option) => (
        <div key={option.key} data-testid="preview-option" style={{ paddingLeft: 16 }}>
          <Typography.Text
            type={showAnswer && correct.includes(option.key) ? 'success' : undefined}
            strong={showAnswer && correct.includes(option.key)}
          >
            {option.key}. {option.text}
          </Typography.Text>
          {showAnswer && weighed && (
            <Tag
              data-testid="preview-weight"
              color={weightOf(option) > 0 ? 'success' : weightOf(option) < 0 ? 'error' : undefined}
              style={{ marginLeft: 8 }}
            >
              {weightOf(option) > 0 ? `+${weightOf(option)}` : weightOf(option)}
            </Tag>
          )}
          <MediaImages ids={option.mediaIds} size={80} />
        </div>
      ))}
      {showAnswer && weighed && (
        <div style={{ paddingLeft: 16 }} data-testid="preview-stage-most">
          <Typography.Text type="secondary">
            {intl.formatMessage({ id: 'assess.question.stageMost' }, { most })}
          </Typography.Text>
        </div>
      )}
      {showAnswer && !shared && item.answer !== undefined && item.answer !== null && (
        <div style={{ paddingLeft: 16, marginTop: 4 }} data-testid="preview-answer">
          <Typography.Text type="secondary">{intl.formatMessage({ id: 'assess.question.answer' })}：</Typography.Text>
          <AnswerText answer={item.answer} />
        </div>
      )}
      {showAnswer && item.analysis && (
        <div style={{ paddingLeft: 16 }}>
          <Typography.Text type="secondary">{intl.formatMessage({ id: 'assess.question.analysis' })}：</Typography.Text>
          <span style={{ whiteSpace: 'pre-wrap' }}>{item.analysis}</span>
        </div>
      )}
    </div>
  );
}

interface PreviewProps {
  question: PreviewQuestion;
  showAnswer?: boolean;
  /**
   * The candidate's view for an author or reviewer: the answers behind a switch (off at first), and a staged case (A4,
   * case analysis) disclosed a stage at a time, as the candidate meets it; with the answers, every stage at once.
   */
  answerSwitch?: boolean;
  /** Its number in a paper: before its stem (a group's case), its items then (1), (2)…, as the printed paper has them. */
  number?: number;
}

/**
 * A question as a candidate reads it (with the key and analysis when `showAnswer`, or when asked with
 * `answerSwitch`): a group's case or shared options, then its items in order. A saved group whose items did not come with it (a list row) has them fetched.
 */
export default function QuestionPreview(props: PreviewProps) {
  const { provided } = useMediaLinks();
  const { question } = props;
  const imaged = [question, ...(question.children ?? [])].some(
    (item) => item.stemMediaFileIds?.length || item.options?.some((o) => o.mediaIds?.length),
  );
  // a preview on its own (a list's dialog) fetches its question's images itself
  if (!provided && imaged && question.id)
    return (
      <QuestionMediaProvider questionId={question.id}>
        <PreviewCard {...props} />
      </QuestionMediaProvider>
    );
  return <PreviewCard {...props} />;
}

/** Formats whose items are disclosed one after the other (domain §9.1: A4, case analysis, no going back). */
const staged = (question: PreviewQuestion) =>
  question.questionType === 'case_analysis' || question.medicalFormat === 'A4';

function PreviewCard({ question, showAnswer: given, answerSwitch, number }: PreviewProps) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [answersAsked, setAnswersAsked] = useState(false);
  const [disclosed, setDisclosed] = useState(1);
  const showAnswer = answerSwitch ? answersAsked : given;
  const needsItems = Boolean(question.id && question.childCount && !question.children);
  const { data: full } = useRequest(() => questions.get(question.id as string), {
    ready: needsItems,
    refreshDeps: [question.id],
    onError: ignoreShownError,
  });
  const all = question.children ?? full?.children ?? [];
  const stepwise = answerSwitch && !showAnswer && staged(question);
  const children = stepwise ? all.slice(0, disclosed) : all;
  const numbered = number === undefined ? undefined : `${number}.`;
  const group =
    question.questionType === 'case_group' ||
    question.questionType === 'option_group' ||
    question.questionType === 'case_analysis';
  return (
    <Card size="small" data-testid="question-preview" style={{ marginBottom: 16 }}>
      <Space style={{ marginBottom: 8 }} wrap>
        <Tag color="blue">{t(`assess.question.type.${question.questionType}`)}</Tag>
        {question.medicalFormat && <Tag color="purple">{t(`assess.question.format.${question.medicalFormat}`)}</Tag>}
        {answerSwitch && (
          <Space size={4}>
            <Switch
              size="small"
              checked={answersAsked}
              onChange={setAnswersAsked}
              aria-label={t('assess.question.showAnswer')}
              data-testid="preview-show-answer"
            />
            {t('assess.question.showAnswer')}
          </Space>
        )}
      </Space>
      {group ? (
        <>
          <Item item={{ stem: question.stem, options: question.options }} number={numbered} shared />
          {children.map((child, i) => (
            <Item
              // biome-ignore lint/suspicious/noArrayIndexKey: an item is its place in the group
              key={i}
              item={question.questionType === 'option_group' ? { ...child, options: null } : child}
              number={number === undefined ? `${i + 1}.` : `(${i + 1})`}
              showAnswer={showAnswer}
            />
          ))}
          {stepwise && disclosed < all.length && (
            <Button size="small" data-testid="preview-next-stage" onClick={() => setDisclosed(disclosed + 1)}>
              {t('assess.question.nextStage')}
            </Button>
          )}
        </>
      ) : (
        <Item item={question} number={numbered} showAnswer={showAnswer} />
      )}
      {showAnswer && group && question.analysis && (
        <Typography.Paragraph type="secondary" style={{ whiteSpace: 'pre-wrap' }}>
          {t('assess.question.analysis')}：{question.analysis}
        </Typography.Paragraph>
      )}
    </Card>
  );
}
