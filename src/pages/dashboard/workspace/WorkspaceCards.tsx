import { Link, useIntl } from '@umijs/max';
import { Card, Col, Progress, Row, Statistic, Typography } from 'antd';
import type { WorkspaceCard } from '@/services/workspace';

/** Cards whose number reads best as a share of their progress (completed of enrolled). */
const AS_PERCENT = new Set(['courseCompletion']);

const percent = ({ done, of }: { done: number; of: number }) => (of > 0 ? Math.round((done * 100) / of) : 0);

/** A row of counts, each a link to the list it counts, filtered as the server says. */
export default function WorkspaceCards({ cards, testId }: { cards: WorkspaceCard[]; testId: string }) {
  const intl = useIntl();
  if (cards.length === 0) return null;
  return (
    <Row gutter={[16, 16]} data-testid={testId}>
      {cards.map((card) => (
        <Col key={card.key} xs={12} md={8} xl={Math.max(4, Math.floor(24 / cards.length))}>
          <Link to={card.path} data-testid="workspace-card" data-key={card.key}>
            <Card hoverable size="small" style={{ height: '100%' }}>
              <Statistic
                title={intl.formatMessage({ id: `workspace.card.${card.key}`, defaultMessage: card.key })}
                value={card.progress && AS_PERCENT.has(card.key) ? percent(card.progress) : card.count}
                suffix={card.progress && AS_PERCENT.has(card.key) ? '%' : undefined}
              />
              {card.progress && (
                <>
                  <Progress
                    percent={percent(card.progress)}
                    showInfo={false}
                    size="small"
                    // the bar's name: the words under it (WCAG 4.1.2)
                    aria-labelledby={`${testId}-progress-${card.key}`}
                  />
                  <Typography.Text
                    type="secondary"
                    id={`${testId}-progress-${card.key}`}
                    data-testid="workspace-card-progress"
                  >
                    {intl.formatMessage(
                      { id: `workspace.progress.${card.key}` },
                      { done: card.progress.done, of: card.progress.of, count: card.count },
                    )}
                  </Typography.Text>
                </>
              )}
            </Card>
          </Link>
        </Col>
      ))}
    </Row>
  );
}
