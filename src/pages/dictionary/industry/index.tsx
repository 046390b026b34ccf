import '@/pages/dictionary/catalogue';
import ResourceTreeTable from '@/components/resource/ResourceTreeTable';
import { fetchIndustryLevel } from '@/services/dictionary';
import { type Industry, industryDescriptor } from './descriptor';

/** /dictionary/industry: the classification as a tree, one level at a time; a search lists matches flat. */
export default function IndustryPage() {
  return (
    <div data-testid="dictionary-industry">
      <ResourceTreeTable<Industry>
        descriptor={industryDescriptor}
        loadChildren={fetchIndustryLevel}
        canHaveChildren={(row) => row.level < 4}
        createDefaults={{ status: 'enabled', sort: 0, standardVersion: 'GB/T 4754-2017' }}
      />
    </div>
  );
}
