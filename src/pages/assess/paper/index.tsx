import '@/pages/assess/catalogue';
import { useIntl } from '@umijs/max';
import { Popconfirm } from 'antd';
import { useRef, useState } from 'react';
import ActionLink from '@/components/ActionLink';
import type { TableActions } from '@/components/resource/ListTable';
import ResourceTable from '@/components/resource/ResourceTable';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';
import { closePaper, type Paper, paperDescriptor, publishPaper } from './descriptor';
import PaperCloneDialog from './PaperCloneDialog';

/**
 * /exam-paper/list: the tenant's papers by code or title, purpose, composition and status; composed on their own
 * screen, published (the server says what is missing), closed, cloned (a published paper is changed by its copy).
 */
export default function PaperListPage() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const actionRef = useRef<TableActions>();
  const [cloning, setCloning] = useState<Paper>();
  const reload = () => actionRef.current?.reload();
  const done = (id: string) => () => {
    message.success(t(id));
    reload();
  };
  return (
    <div data-testid="assess-paper">
      <ResourceTable<Paper>
        descriptor={paperDescriptor}
        actionRef={actionRef}
        rowActions={(row, { can }) => [
          row.status === 'draft' && can('assess:paper:publish') && (
            <Popconfirm
              key="publish"
              title={t('assess.paper.publish.confirm')}
              onConfirm={() => publishPaper(row).then(done('assess.paper.published'), ignoreShownError)}
            >
              <ActionLink data-testid="paper-publish">{t('assess.paper.publish')}</ActionLink>
            </Popconfirm>
          ),
          row.status === 'published' && can('assess:paper:close') && (
            <Popconfirm
              key="close"
              title={t('assess.paper.close.confirm')}
              onConfirm={() => closePaper(row).then(done('assess.paper.closed'), ignoreShownError)}
            >
              <ActionLink data-testid="paper-close">{t('assess.paper.close')}</ActionLink>
            </Popconfirm>
          ),
          can('assess:paper:clone') && (
            <ActionLink key="clone" data-testid="paper-clone" onClick={() => setCloning(row)}>
              {t('assess.paper.clone')}
            </ActionLink>
          ),
        ]}
      />
      <PaperCloneDialog paper={cloning} onClose={() => setCloning(undefined)} />
    </div>
  );
}
