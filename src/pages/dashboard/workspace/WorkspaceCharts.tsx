import { Column } from '@ant-design/plots';
import { history, useIntl, useSelector } from '@umijs/max';
import { Card, Col, Row } from 'antd';
import type { WorkspaceCard, WorkspacePoint } from '@/services/workspace';

interface Clicked {
  data?: { data?: WorkspacePoint };
}

/**
 * A card's breakdowns as column charts (the trainees in training by base, by cohort); a column opens its own filtered
 * list. The charting library is this file's alone: the workspace loads it lazily, no other screen carries it.
 */
export default function WorkspaceCharts({ cards }: { cards: WorkspaceCard[] }) {
  const intl = useIntl();
  const dark = useSelector((state: { root?: { theme?: string } }) => state.root?.theme === 'dark');
  const series = cards.flatMap((card) => (card.series ?? []).filter((s) => s.points.length > 0));
  if (series.length === 0) return null;
  const none = intl.formatMessage({ id: 'workspace.series.none' });
  return (
    <Row gutter={[16, 16]} data-testid="workspace-charts">
      {series.map((s) => (
        <Col key={s.key} xs={24} lg={12}>
          <Card
            title={intl.formatMessage({ id: `workspace.series.${s.key}` })}
            size="small"
            data-testid="workspace-chart"
          >
            <Column
              height={240}
              theme={dark ? 'classicDark' : 'classic'}
              data={s.points.map((p) => ({ ...p, label: p.label ?? none }))}
              xField="label"
              yField="count"
              label={{ text: 'count', position: 'inside' }}
              axis={{ y: { title: intl.formatMessage({ id: 'workspace.series.count' }) } }}
              tooltip={{ items: [{ channel: 'y', name: intl.formatMessage({ id: 'workspace.series.count' }) }] }}
              onReady={({ chart }: { chart: { on: (event: string, handler: (e: Clicked) => void) => void } }) =>
                chart.on('element:click', (event) => {
                  const path = event.data?.data?.path;
                  if (path) history.push(path);
                })
              }
            />
          </Card>
        </Col>
      ))}
    </Row>
  );
}
