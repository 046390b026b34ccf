import { resourceRoutes } from '../../core/resource/resource.routes';
import { dictTypeResource } from './dict-type.resource';

export const dictTypeRoutes = () => resourceRoutes(dictTypeResource, (s) => s.dictTypes);
