import { resourceRoutes } from '../../core/resource/resource.routes';
import { businessItemResource } from './business-item.resource';

export const businessItemRoutes = () => resourceRoutes(businessItemResource, (s) => s.businessItems);
