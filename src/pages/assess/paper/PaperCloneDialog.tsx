import { history } from '@umijs/max';
import CloneDialog from '@/components/CloneDialog';
import { clonePaper, type Paper } from './descriptor';

/** A paper copied as a new draft (from the list, the profile or a locked paper's edit screen), then opened to edit. */
export default function PaperCloneDialog({ paper, onClose }: { paper?: Paper; onClose: () => void }) {
  return (
    <CloneDialog<Paper>
      record={paper}
      titleId="assess.paper.clone"
      labels={{ code: 'assess.paper.code', title: 'assess.paper.title' }}
      maxCode={30}
      testId="paper-clone"
      clone={clonePaper}
      onClose={onClose}
      onDone={(copy) => {
        onClose();
        history.push(`/exam-paper/edit/${copy.id}`);
      }}
    />
  );
}
