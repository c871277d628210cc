/**
 * The three states of a view fed by a query, told apart: loading (a skeleton), failed (what went
 * wrong, with a retry), and empty (nothing to show). A failed call is never shown as "no data".
 * Every query-backed list uses these: the resource table, the pages of cards and the site panels.
 */
import type { ReactNode } from 'react';
import { Alert, Button, Empty, Skeleton } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../lib/api-client';
import { errorMessage } from '../lib/form-errors';
import { HOME_PATH } from '../lib/paths';

/** What the states read from a query (TanStack Query's result has it). */
export interface QueryStatus {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => Promise<unknown>;
}

/** A failed call: its message and a retry. */
export function QueryError({ query, title }: { query: Pick<QueryStatus, 'error' | 'refetch'>; title?: string }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      title={title ?? t('resource.loadFailed')}
      description={errorMessage(query.error)}
      action={
        <Button
          size="small"
          onClick={() => {
            void query.refetch();
          }}
        >
          {t('common.retry')}
        </Button>
      }
    />
  );
}

/**
 * The view's content once its query answered, or its loading, failed or empty state. `empty`
 * says whether the answer holds nothing; `emptyText` what to say then.
 */
export function QueryState({
  query,
  empty,
  emptyText,
  failedTitle,
  notFoundText,
  children,
}: {
  query: QueryStatus;
  empty: boolean;
  emptyText?: string;
  failedTitle?: string;
  /**
   * What to say when the record is not there or not the user's to see (the server answers 404 or
   * 403 alike): a retry would not help, so it says so with the way home.
   */
  notFoundText?: string;
  /** The content; none where the view draws it itself once the data is there. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isError && notFoundText && isApiError(query.error) && (query.error.status === 404 || query.error.status === 403))
    return (
      <Alert
        type="info"
        showIcon
        role="status"
        title={notFoundText}
        action={<Link to={HOME_PATH}>{t('common.backHome')}</Link>}
      />
    );
  if (query.isError) return <QueryError query={query} title={failedTitle} />;
  if (query.isPending) return <Skeleton active />;
  if (empty) return <Empty description={emptyText ?? t('common.empty')} />;
  return children;
}
