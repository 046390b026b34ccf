import { Link, useIntl } from '@umijs/max';
import { theme } from 'antd';
import { Fragment } from 'react';

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
        // antd Breadcrumb's look, drawn here: it is the one part of antd's Breadcrumb the header needs
        <nav
          data-testid="breadcrumb"
          aria-label="breadcrumb"
          style={{ color: token.colorTextDescription, fontSize: token.fontSize, lineHeight: token.lineHeight }}
        >
          {crumbs.map((crumb, i) => {
            const label = crumb.label ?? intl.formatMessage({ id: crumb.titleKey });
            const last = i === crumbs.length - 1;
            return (
              <Fragment key={crumb.titleKey}>
                {i > 0 && (
                  <span aria-hidden style={{ margin: `0 ${token.marginXS}px` }}>
                    /
                  </span>
                )}
                <span style={last ? { color: token.colorText } : undefined}>
                  {crumb.path ? (
                    <Link to={crumb.path} style={{ color: 'inherit' }}>
                      {label}
                    </Link>
                  ) : (
                    label
                  )}
                </span>
              </Fragment>
            );
          })}
        </nav>
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
