import { useAccess } from '@umijs/max';
import ExceptionResult from '@/components/ExceptionResult';
import routes from '@/config/routes';
import { HOME_PATH } from '@/constants';
import { firstOpenPath } from '@/utils/navigation';

export default function NotFound() {
  const home = firstOpenPath(routes, useAccess()) ?? HOME_PATH;
  return <ExceptionResult testId="exception-404" status="404" messages="exception.404" back={{ path: home }} />;
}
