import { resourceRoutes } from '../../core/resource/resource.routes';
import { errorCodeResource } from './error-code.resource';

export const errorCodeRoutes = () => resourceRoutes(errorCodeResource, (s) => s.errorCodes);
