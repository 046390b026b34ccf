import { resourceRoutes } from '../../core/resource/resource.routes';
import { dictItemResource } from './dict-item.resource';

export const dictItemRoutes = () => resourceRoutes(dictItemResource, (s) => s.dictItems);
