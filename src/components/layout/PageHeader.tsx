import { Link, useIntl } from '@umijs/max';
import { Breadcrumb, theme } from 'antd';

export interface Crumb {
  titleKey: string;
  /** Shown instead of the title key's text (a record's name). */
  label?: string;
  /** A screen to go back to (the list of a record screen). */
  path?: string;
}

/** The page header of a screen: where it sits in the route tree, and its title. */
export default function PageHeader({ crumbs, title }: { crumbs: Crumb[]; title: string }) {
  const intl = useIntl();
  const { token } = theme.useToken();
  return (
    <header data-testid="page-header" style={{ marginBottom: 16 }}>
      {crumbs.length > 1 && (
        <Breadcrumb
          data-testid="breadcrumb"
          items={crumbs.map((crumb) => {
            const label = crumb.label ?? intl.formatMessage({ id: crumb.titleKey });
            return { key: crumb.titleKey, title: crumb.path ? <Link to={crumb.path}>{label}</Link> : label };
          })}
        />
      )}
      <h4
        style={{ margin: '4px 0 0', fontSize: token.fontSizeHeading4, fontWeight: 600, color: token.colorTextHeading }}
        data-testid="page-title"
      >
        {title}
      </h4>
    </header>
  );
}
