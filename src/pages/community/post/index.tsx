import '@/pages/community/catalogue';
import { useIntl } from '@umijs/max';
import { Segmented } from 'antd';
import { useRef, useState } from 'react';
import type { TableActions } from '@/components/resource/ListTable';
import ResourceTable from '@/components/resource/ResourceTable';
import { type Post, postDescriptor } from './descriptor';
import PostActions from './PostActions';

type View = 'all' | 'queue';

/**
 * /post/list: the tenant's posts by title, board, status and author type; the pre-moderation queue (posts awaiting
 * approval) one click away; each post approved or rejected, hidden, restored or deleted with a reason, pinned,
 * featured, locked, moved, reported.
 */
export default function PostListPage() {
  const intl = useIntl();
  const actionRef = useRef<TableActions>();
  const [view, setView] = useState<View>('all');
  return (
    <div data-testid="community-post">
      <Segmented<View>
        data-testid="post-view"
        value={view}
        onChange={setView}
        options={[
          { value: 'all', label: intl.formatMessage({ id: 'community.post.entity' }) },
          { value: 'queue', label: intl.formatMessage({ id: 'community.post.queue' }) },
        ]}
        style={{ marginBottom: 12 }}
      />
      <ResourceTable<Post>
        descriptor={postDescriptor}
        actionRef={actionRef}
        params={view === 'queue' ? { status: 'pending_review' } : undefined}
        rowActions={(row) => [<PostActions key="moderation" post={row} onDone={() => actionRef.current?.reload()} />]}
      />
    </div>
  );
}
