/** The library's data points by id, and a data point shown by its key and name (tables that name a DataDefineId). */
import { useMemo } from 'react';
import { Typography } from 'antd';
import type { DataDefineDto } from '@sluice/shared/data-define.schema';
import { useDataDefineLibrary } from '../../lib/common-params';
import { StoredName } from '../stored-name';

/** The library's data points by id. */
export function useLibraryById(): Map<number, DataDefineDto> {
  const { data } = useDataDefineLibrary();
  return useMemo(() => new Map((data ?? []).map((d) => [d.Id, d])), [data]);
}

/** A data point shown by its key and name. */
export function DataPointCell({
  define,
  fallback,
}: {
  define: Pick<DataDefineDto, 'DataKey' | 'DataName'> | undefined;
  fallback?: string | number;
}) {
  if (!define) return <Typography.Text type="secondary">{fallback === undefined ? '—' : `#${String(fallback)}`}</Typography.Text>;
  return (
    <span>
      <Typography.Text code>{define.DataKey}</Typography.Text> <StoredName text={define.DataName} />
    </span>
  );
}
