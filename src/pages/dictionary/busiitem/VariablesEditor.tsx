import type { BusinessItemVariable } from '@server/modules/dictionary/busiitem/busiitem.schema';
import ListEditor from '@/components/ListEditor';

const TYPES = ['string', 'number', 'date', 'url'] as const;

interface Props {
  value?: BusinessItemVariable[];
  onChange?: (value: BusinessItemVariable[]) => void;
}

/** The variables a business item offers templates: an editable list of name, label, example and type. */
export default function VariablesEditor(props: Props) {
  return (
    <ListEditor<BusinessItemVariable>
      {...props}
      testId="variable"
      blank={{ name: '', label: '' }}
      addLabelId="dictionary.busiitem.variable.add"
      columns={[
        { key: 'name', placeholderId: 'dictionary.busiitem.variable.name', width: 130 },
        { key: 'label', placeholderId: 'dictionary.busiitem.variable.label', width: 130 },
        { key: 'example', placeholderId: 'dictionary.busiitem.variable.example', width: 150 },
        {
          key: 'type',
          placeholderId: 'dictionary.busiitem.variable.type',
          width: 110,
          choices: TYPES.map((type) => ({ value: type, labelId: `dictionary.busiitem.variable.type.${type}` })),
        },
      ]}
    />
  );
}

/** Every variable named once: the server checks each name and label, not that they differ. */
export async function validateVariables(_rule: unknown, value?: BusinessItemVariable[]) {
  const list = value ?? [];
  if (new Set(list.map((v) => v.name)).size !== list.length) throw new Error('Variable names must be unique');
}
