import '@/pages/assess/catalogue';
import { ExportOutlined } from '@ant-design/icons';
import { useAccess, useIntl } from '@umijs/max';
import { Button, Card, Col, Row, Space } from 'antd';
import { useRef, useState } from 'react';
import ActionLink from '@/components/ActionLink';
import type { TableActions } from '@/components/resource/ListTable';
import ResourceTable from '@/components/resource/ResourceTable';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';
import type { TaxonomyKind } from '../taxonomy/descriptor';
import TaxonomyDrawer from '../taxonomy/TaxonomyDrawer';
import { CategoryTree } from '../taxonomy/TaxonomyPickers';
import { type Question, questionDescriptor, SUBMITTABLE, submitQuestion } from './descriptor';
import QuestionDialogs, { type Acting } from './QuestionDialogs';

/**
 * /question/list: the bank, by category (the tree beside the list takes in sub-categories), searched by stem or code,
 * type, medical format, difficulty, knowledge point, tag and status; written on the step form; submitted, reviewed;
 * the chosen questions moved, retagged or re-statused at once; exported. Categories and knowledge points are managed
 * from here.
 */
export default function QuestionListPage() {
  const intl = useIntl();
  const access = useAccess();
  const t = (id: string) => intl.formatMessage({ id });
  const actionRef = useRef<TableActions>();
  const [category, setCategory] = useState<string>();
  const [managing, setManaging] = useState<TaxonomyKind>();
  const [treeVersion, setTreeVersion] = useState(0);
  const [acting, setActing] = useState<Acting>();
  const reload = () => actionRef.current?.reload();
  return (
    <div data-testid="assess-question">
      <Row gutter={16}>
        <Col xs={24} lg={5}>
          <Card
            size="small"
            title={t('assess.question.categoryId')}
            extra={
              <Space size={0}>
                {access['assess:category:manage'] && (
                  <Button
                    type="link"
                    size="small"
                    data-testid="manage-categories"
                    onClick={() => setManaging('category')}
                  >
                    {t('assess.category.manage')}
                  </Button>
                )}
              </Space>
            }
          >
            <CategoryTree selected={category} onSelect={setCategory} version={treeVersion} />
            {access['assess:knowledge:manage'] && (
              <Button block size="small" data-testid="manage-knowledge" onClick={() => setManaging('knowledge')}>
                {t('assess.knowledge.manage')}
              </Button>
            )}
          </Card>
        </Col>
        <Col xs={24} lg={19}>
          <ResourceTable<Question>
            descriptor={questionDescriptor}
            actionRef={actionRef}
            params={category ? { categoryId: category } : undefined}
            rowActions={(row, { can }) => [
              SUBMITTABLE.includes(row.status) && can('assess:question:update') && (
                <ActionLink
                  key="submit"
                  data-testid="question-submit"
                  onClick={() =>
                    submitQuestion(row).then(() => {
                      message.success(t('assess.question.submitted'));
                      reload();
                    }, ignoreShownError)
                  }
                >
                  {t('assess.question.submit')}
                </ActionLink>
              ),
              row.status === 'pending_review' && can('assess:question:review') && (
                <ActionLink
                  key="review"
                  data-testid="question-review"
                  onClick={() => setActing({ action: 'review', row })}
                >
                  {t('assess.question.review')}
                </ActionLink>
              ),
            ]}
            batchActions={(ids, { can, exportSelected, exporting }) => [
              can('assess:question:bulk-update') && (
                <Button
                  key="bulk"
                  size="small"
                  data-testid="batch-bulk-update"
                  onClick={() => setActing({ action: 'bulk', ids })}
                >
                  {t('assess.question.bulk')}
                </Button>
              ),
              // the chosen questions (groups with their items) in the import template's layout
              can('assess:question:export') && (
                <Button
                  key="export"
                  size="small"
                  icon={<ExportOutlined />}
                  loading={exporting}
                  data-testid="batch-export"
                  onClick={() => exportSelected(ids)}
                >
                  {t('assess.question.exportSelected')}
                </Button>
              ),
            ]}
          />
        </Col>
      </Row>
      <QuestionDialogs
        acting={acting}
        onClose={() => setActing(undefined)}
        onDone={() => {
          setActing(undefined);
          actionRef.current?.clearSelected?.();
          reload();
        }}
      />
      <TaxonomyDrawer
        kind={managing ?? 'category'}
        open={Boolean(managing)}
        onClose={() => {
          setManaging(undefined);
          setTreeVersion((v) => v + 1);
          reload();
        }}
      />
    </div>
  );
}
