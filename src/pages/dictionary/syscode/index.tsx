import '@/pages/dictionary/catalogue';
import { useIntl } from '@umijs/max';
import { Card, Col, Empty, Row } from 'antd';
import { useState } from 'react';
import ResourceTable from '@/components/resource/ResourceTable';
import { refreshSysCodes } from '@/services/dictionary';
import { ignoreShownError } from '@/utils/request';
import { type DictItem, type DictType, dictItemDescriptor, dictTypeDescriptor } from './descriptor';

const refresh = () => {
  refreshSysCodes().catch(ignoreShownError);
};

/** /dictionary/syscode: the dictionary types, and the items of the selected one; every edit refreshes `sysCodes`. */
export default function SysCodePage() {
  const intl = useIntl();
  const [type, setType] = useState<DictType>();
  return (
    <Row gutter={[16, 16]} data-testid="dictionary-syscode">
      <Col xs={24} xxl={10}>
        <ResourceTable<DictType>
          descriptor={dictTypeDescriptor}
          createDefaults={{ status: 'enabled', tenantExtensible: false }}
          onChanged={refresh}
          tableProps={{
            headerTitle: intl.formatMessage({ id: 'dictionary.type.title' }),
            search: false,
            options: { search: true, reload: true, setting: true, density: false },
            onLoad: (rows) => setType((current) => rows.find((r) => r.id === current?.id) ?? current ?? rows[0]),
            onRow: (row) => ({ onClick: () => setType(row), 'data-testid': `type-row-${row.code}` }) as never,
            rowClassName: (row) => (row.id === type?.id ? 'ant-table-row-selected' : ''),
          }}
        />
      </Col>
      <Col xs={24} xxl={14} data-testid="dict-items" data-type={type?.code}>
        {type ? (
          <ResourceTable<DictItem>
            key={type.code}
            descriptor={dictItemDescriptor}
            params={{ typeCode: type.code }}
            createDefaults={{ typeCode: type.code, status: 'enabled', sort: 0, isDefault: false }}
            onChanged={refresh}
            tableProps={{
              headerTitle: intl.formatMessage({ id: 'dictionary.item.title' }, { name: type.name, code: type.code }),
              search: false,
              options: { search: true, reload: true, setting: true, density: false },
            }}
          />
        ) : (
          <Card>
            <Empty description={intl.formatMessage({ id: 'dictionary.item.pickType' })} />
          </Card>
        )}
      </Col>
    </Row>
  );
}
