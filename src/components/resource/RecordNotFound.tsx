import ExceptionResult from '@/components/ExceptionResult';
import { HOME_PATH } from '@/constants';

/** A profile or edit screen whose record does not exist (deleted, another tenant's, a mistyped link). */
export default function RecordNotFound({ backPath }: { backPath?: string }) {
  return (
    <ExceptionResult
      testId="record-not-found"
      status="404"
      messages="resource.notFound"
      back={{
        path: backPath ?? HOME_PATH,
        labelId: backPath ? 'resource.notFound.back' : 'exception.backHome',
        testId: 'record-not-found-back',
      }}
    />
  );
}
